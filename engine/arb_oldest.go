// Oldest-first arbitration: the worm released earliest wins (age priority, the
// classic remedy against starvation).

package engine

import "math/rand/v2"

// Oldest lets the earliest released worm win.
type Oldest struct{}

var _ Policy = Oldest{}
var _ Arbiter = oldestArbiter{}

func init() {
	Register(ArbOldest, "the worm released earliest wins", Oldest{})
}

func (Oldest) Arbiter(int, *rand.Rand) Arbiter { return oldestArbiter{} }
func (Oldest) QueueBefore(a, b Queued) bool    { return oldestFirst(a, b) }

func oldestFirst(a, b Queued) bool {
	if a.Rel != b.Rel {
		return a.Rel < b.Rel
	}
	return a.Msg < b.Msg
}

type oldestArbiter struct{ noGrant }

func (oldestArbiter) Pick(_ int, reqs []Request, _ int32) int {
	return pickBy(reqs, func(x, y Request) bool { return x.Rel < y.Rel })
}
