package fattree

import "math/rand/v2"

// Complement is the complement permutation of seed 000, section B.3: processor a
// sends one packet to N-1-a. Every packet crosses the root level, and a level-l
// up channel of the butterfly fat-tree (2^l links below 4^l processors) carries
// 2^l packets per link, sqrt(N)/2 just below the root.
type Complement struct{}

var _ Pattern = Complement{}

func init() { registerPattern("complement", Complement{}) }

func (Complement) Pairs(n int, _ *rand.Rand) []Pair {
	ps := make([]Pair, n)
	for a := range ps {
		ps[a] = Pair{a, n - 1 - a}
	}
	return ps
}
