package sim

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Candidate is one free output virtual channel a routing allows a waiting head.
type Candidate struct {
	Port, VC int32
	// Pri is the Choice's priority; Credits the free slots downstream.
	Pri, Credits int32
}

// Selector is a selection function: it picks one of the free candidates of a head
// waiting for a VC. The simulator passes only the candidates of the lowest Pri among
// the free ones, in the routing's order of choices and, within a choice, of VCs, so
// every selector honours Choice.Pri. cands is never empty; the result is an index.
// Select may be called at once from several goroutines, each with its own r.
type Selector interface {
	Select(cands []Candidate, r *rand.Rand) int
}

// A RotatingSelector picks by a pointer the simulator keeps for each input VC: one
// past the output VC last granted to it, numbered port*V + vc (0 before its first
// grant).
type RotatingSelector interface {
	Selector
	SelectAfter(cands []Candidate, ptr, V int32) int
}

var selectors = map[string]Selector{}

// RegisterSelector adds a selection function to the registry (from init).
func RegisterSelector(name string, s Selector) {
	if _, dup := selectors[name]; dup {
		panic("sim: selector registered twice: " + name)
	}
	selectors[name] = s
}

// LookupSelector returns the named selection function.
func LookupSelector(name string) (Selector, error) {
	s, ok := selectors[name]
	if !ok {
		return nil, fmt.Errorf("unknown selection %q (want one of %s)", name, strings.Join(SelectorNames(), ", "))
	}
	return s, nil
}

// SelectorNames lists the registered selection functions.
func SelectorNames() []string { return names(selectors) }

func names[T any](m map[string]T) []string {
	ns := make([]string, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}
