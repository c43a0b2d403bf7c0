package fattree

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Pair is one packet's source and destination processor.
type Pair struct{ Src, Dst int }

// Pattern draws the packets of one run on n processors (seed 000, section B.3).
type Pattern interface {
	Pairs(n int, r *rand.Rand) []Pair
}

var patterns = map[string]Pattern{}

func registerPattern(name string, p Pattern) {
	if _, dup := patterns[name]; dup {
		panic("fattree: pattern registered twice: " + name)
	}
	patterns[name] = p
}

// LookupPattern returns the named pattern.
func LookupPattern(name string) (Pattern, error) {
	p, ok := patterns[name]
	if !ok {
		return nil, fmt.Errorf("unknown pattern %q (want one of %s)", name, strings.Join(PatternNames(), ", "))
	}
	return p, nil
}

// PatternNames lists the patterns.
func PatternNames() []string { return keys(patterns) }

func keys[T any](m map[string]T) []string {
	ns := make([]string, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
