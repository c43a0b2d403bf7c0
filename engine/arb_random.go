// Random arbitration: the winner is drawn uniformly among the requesters from the
// engine's seeded PCG source (the random scans of seed 000's simulations).

package engine

import "math/rand/v2"

// Random draws the winner uniformly; its queues are served oldest first.
type Random struct{}

var _ Policy = Random{}
var _ Arbiter = &randomArbiter{}
var _ drawer = &randomArbiter{}

func init() {
	Register(ArbRandom, "uniform among the requesters, from the seeded source", Random{})
}

func (Random) Arbiter(_ int, rng *rand.Rand) Arbiter { return &randomArbiter{rng: rng} }

// QueueBefore serves a queue oldest first, then by message index.
func (Random) QueueBefore(a, b Queued) bool { return oldestFirst(a, b) }

type randomArbiter struct {
	noGrant
	rng *rand.Rand
}

func (a *randomArbiter) Pick(_ int, reqs []Request, _ int32) int {
	if len(reqs) == 1 {
		return 0
	}
	return a.rng.IntN(len(reqs))
}

func (a *randomArbiter) Draw(n int) int { return a.rng.IntN(n) }
