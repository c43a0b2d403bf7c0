package fattree

import "math/rand/v2"

// ManyToOne is the many-to-1 instance of seed 000, section B.3, as wormlab reads
// the damaged copy: N packets, as many as a permutation, with two hot spots:
// processors 0 .. N/2-1 send to N-1 and processors N/2 .. N-1 send to 0, so the
// link into each hot spot carries N/2 packets (the copy lost the exact ranges).
type ManyToOne struct{}

var _ Pattern = ManyToOne{}

func init() { registerPattern("many-to-1", ManyToOne{}) }

func (ManyToOne) Pairs(n int, _ *rand.Rand) []Pair {
	ps := make([]Pair, n)
	for a := range ps {
		d := 0
		if a < n/2 {
			d = n - 1
		}
		ps[a] = Pair{a, d}
	}
	return ps
}
