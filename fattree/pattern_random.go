package fattree

import "math/rand/v2"

// RandomDest is the random instance of seed 000, section B.3: every processor sends
// one packet to a destination drawn uniformly (itself included: such a packet
// crosses no link and is delivered at time 0).
type RandomDest struct{}

var _ Pattern = RandomDest{}

func init() { registerPattern("random", RandomDest{}) }

func (RandomDest) Pairs(n int, r *rand.Rand) []Pair {
	ps := make([]Pair, n)
	for a := range ps {
		ps[a] = Pair{a, r.IntN(n)}
	}
	return ps
}
