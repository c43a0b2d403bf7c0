package adversary

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
)

// Guide is a candidate's rank among candidates of equal ratio: Key compared
// lexicographically, higher first.
type Guide struct {
	Key [3]int
}

// cmp is -1, 0 or 1 as g ranks below, level with or above h.
func (g Guide) cmp(h Guide) int {
	for i := range g.Key {
		if g.Key[i] != h.Key[i] {
			if g.Key[i] < h.Key[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Ranking orders candidates of equal ratio, which is where a strategy's plateau
// walk goes: each is a value in its own file (ranking_*.go) registered by name.
// Objectives whose ratio moves in steps of L over the congestion (opt/cd and its
// kin) want the smallest sets; those whose ratio is 1 on most candidates
// (opt/lower, greedy/opt) want the densest, where the gaps live.
type Ranking interface {
	Name() string
	Rank(sp *Space, s *Set) Guide
}

var rankingRegistry = map[string]Ranking{}

func registerRanking(r Ranking) {
	if _, dup := rankingRegistry[r.Name()]; dup {
		panic("adversary: ranking registered twice: " + r.Name())
	}
	rankingRegistry[r.Name()] = r
}

// Rankings lists the registered ranking names, sorted.
func Rankings() []string {
	var names []string
	for n := range rankingRegistry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// LookupRanking returns the named ranking.
func LookupRanking(name string) (Ranking, error) {
	r, ok := rankingRegistry[name]
	if !ok {
		return nil, fmt.Errorf("unknown ranking %q (want one of %s)", name, strings.Join(Rankings(), ", "))
	}
	return r, nil
}

// meetings counts the pairs of worms that meet and the pairs of meetings spent
// twice (sum over edges of C(c_e, 2)).
func meetings(sp *Space, s *Set) (pairs, spent int) {
	meets, load := conflicts(sp, s)
	for _, m := range meets {
		for _, w := range m {
			pairs += bits.OnesCount64(w)
		}
	}
	for _, v := range load {
		spent += v * (v - 1) / 2
	}
	return pairs / 2, spent
}
