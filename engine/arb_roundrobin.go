// Round-robin arbitration: seed 000 (Greenberg, Oh), section II, the RR input scan.
// Each edge keeps a pointer over the input ports of its tail node (its input edges
// in the order of Network.In, then the injection port); the first requesting port at
// or after the pointer wins, and the pointer moves past it when the winner enters.

package engine

import "math/rand/v2"

// RoundRobin is the RR scan of seed 000.
type RoundRobin struct{}

var _ Policy = RoundRobin{}
var _ Arbiter = &roundRobinArbiter{}

func init() {
	Register(ArbRoundRobin, "a pointer per edge over its input ports (seed 000's RR)", RoundRobin{})
}

func (RoundRobin) Arbiter(edges int, _ *rand.Rand) Arbiter {
	return &roundRobinArbiter{rr: make([]int32, edges)}
}
func (RoundRobin) QueueBefore(a, b Queued) bool { return byMessage(a, b) }

type roundRobinArbiter struct {
	// rr[f] is the round-robin pointer of edge f over the input ports of its tail.
	rr []int32
}

func (a *roundRobinArbiter) Pick(f int, reqs []Request, nIn int32) int {
	n, ptr := nIn+1, a.rr[f]
	dist := func(r Request) int32 { return ((r.Port-ptr)%n + n) % n }
	return pickBy(reqs, func(x, y Request) bool { return dist(x) < dist(y) })
}

func (a *roundRobinArbiter) Granted(f int, port, nIn int32) { a.rr[f] = (port + 1) % (nIn + 1) }
