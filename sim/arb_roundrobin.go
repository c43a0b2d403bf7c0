package sim

import "math/rand/v2"

// RoundRobin grants the first requester at or after a pointer that moves past each
// used grant: every persistent requester is served within n grants.
type RoundRobin struct{}

var _ Arbitration = RoundRobin{}

func init() { RegisterArbitration("round-robin", RoundRobin{}) }

func (RoundRobin) NewArbiter(n int, _ *rand.Rand) Arbiter { return &roundRobin{n: int32(n)} }

type roundRobin struct{ ptr, n int32 }

func (a *roundRobin) Pick(reqs []Request) int {
	for i, q := range reqs {
		if q.ID >= a.ptr {
			return i
		}
	}
	return 0
}

func (a *roundRobin) Granted(id int32) {
	a.ptr = id + 1
	if a.ptr >= a.n {
		a.ptr = 0
	}
}
