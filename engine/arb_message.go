// Arbitration by message order: a fixed priority of the messages (the smallest
// index wins), the engine's default.

package engine

import "math/rand/v2"

// MessageOrder lets the request of the smallest message index win.
type MessageOrder struct{}

var _ Policy = MessageOrder{}
var _ Arbiter = messageArbiter{}

func init() {
	Register(ArbMessage, "the smallest message index wins (a fixed order by message)", MessageOrder{})
}

func (MessageOrder) Arbiter(int, *rand.Rand) Arbiter { return messageArbiter{} }
func (MessageOrder) QueueBefore(a, b Queued) bool    { return byMessage(a, b) }

type messageArbiter struct{ noGrant }

func (messageArbiter) Pick(_ int, reqs []Request, _ int32) int {
	return pickBy(reqs, func(x, y Request) bool { return false })
}
