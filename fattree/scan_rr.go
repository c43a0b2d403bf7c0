package fattree

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// RandomRoundRobin is RR (seed 000, section B.2): FO's order started at an input
// drawn at random in every step, wrapping around.
type RandomRoundRobin struct{}

var _ Scan = RandomRoundRobin{}

func init() { registerScan("rr", RandomRoundRobin{}) }

func (RandomRoundRobin) Order(c []cand, r *rand.Rand) {
	if len(c) > 1 {
		rotate(c, r.IntN(len(c)))
	}
}

func (RandomRoundRobin) Arbitration(*topology.FatTree) sim.Arbitration { return randomStart{} }

// randomStart grants the first requester at or after an input drawn at random at
// every arbitration (the simulator's form of RR).
type randomStart struct{}

var _ sim.Arbitration = randomStart{}

func (randomStart) NewArbiter(n int, r *rand.Rand) sim.Arbiter { return &randomStartArb{n, r} }

type randomStartArb struct {
	n int
	r *rand.Rand
}

func (a *randomStartArb) Pick(reqs []sim.Request) int {
	s := int32(a.r.IntN(a.n))
	for i, q := range reqs {
		if q.ID >= s {
			return i
		}
	}
	return 0
}

func (*randomStartArb) Granted(int32) {}
