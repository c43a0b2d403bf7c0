package sim

import "math/rand/v2"

// Random grants a requester uniformly at random, from the run's arbitration stream.
type Random struct{}

var _ Arbitration = Random{}

func init() { RegisterArbitration("random", Random{}) }

func (Random) NewArbiter(_ int, r *rand.Rand) Arbiter { return randomArb{r} }

type randomArb struct{ r *rand.Rand }

func (a randomArb) Pick(reqs []Request) int { return a.r.IntN(len(reqs)) }
func (randomArb) Granted(int32)             {}
