// Farthest-first arbitration: seed 000 (Greenberg, Oh), the FF scan of the
// simulation study: the head with the most hops still to go wins.

package engine

import "math/rand/v2"

// Farthest lets the head with the most hops still to make win.
type Farthest struct{}

var _ Policy = Farthest{}
var _ Arbiter = farthestArbiter{}

func init() {
	Register(ArbFarthest, "the most hops still to go wins (seed 000's FF)", Farthest{})
}

func (Farthest) Arbiter(int, *rand.Rand) Arbiter { return farthestArbiter{} }

// QueueBefore serves the most hops first, then by message index.
func (Farthest) QueueBefore(a, b Queued) bool {
	if a.Rem != b.Rem {
		return a.Rem > b.Rem
	}
	return a.Msg < b.Msg
}

type farthestArbiter struct{ noGrant }

func (farthestArbiter) Pick(_ int, reqs []Request, _ int32) int {
	return pickBy(reqs, func(x, y Request) bool { return x.Rem > y.Rem })
}
