// Arbitration at an output edge: the input scans of seed 000 (Greenberg, Oh),
// section II and the simulation study (fixed order FO, round-robin RR, farthest
// first FF), plus message order, random and oldest-first.

package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Policy names accepted by Config.Arb (see the package documentation).
const (
	ArbMessage    = "message"
	ArbInput      = "input"
	ArbRandom     = "random"
	ArbRoundRobin = "round-robin"
	ArbFarthest   = "farthest"
	ArbOldest     = "oldest"
)

// Policies lists the arbitration policies, the default first.
func Policies() []string {
	return []string{ArbMessage, ArbInput, ArbRandom, ArbRoundRobin, ArbFarthest, ArbOldest}
}

type policy uint8

const (
	polMessage policy = iota
	polInput
	polRandom
	polRoundRobin
	polFarthest
	polOldest
)

func parsePolicy(name string) (policy, error) {
	switch name {
	case "", ArbMessage:
		return polMessage, nil
	case ArbInput:
		return polInput, nil
	case ArbRandom:
		return polRandom, nil
	case ArbRoundRobin:
		return polRoundRobin, nil
	case ArbFarthest:
		return polFarthest, nil
	case ArbOldest:
		return polOldest, nil
	}
	return 0, fmt.Errorf("engine: unknown arbitration policy %q (want one of %s)", name, strings.Join(Policies(), ", "))
}

// request is one head asking for an edge: the message, the input port it arrives on
// (its position in Network.In of the edge's tail node, or nIn for the injection
// port), its input edge (-1 at the source), the hops it still has to make, and its
// release time.
type request struct {
	msg  int32
	port int32
	in   int32
	rem  int32
	rel  int
}

// arbiter picks the winner among the requests for one edge.
type arbiter struct {
	pol policy
	rng *rand.Rand
	// rr[f] is the round-robin pointer of edge f over the input ports of its tail
	// node.
	rr []int32
}

// pick returns the index in reqs of the winner; nIn is the number of input edges of
// the edge's tail node (the injection port has number nIn). The order of reqs
// matters only to the random policy (it must be deterministic); every other policy
// breaks ties by message index. O(len(reqs)).
func (a *arbiter) pick(f int, reqs []request, nIn int32) int {
	if len(reqs) == 1 {
		return 0
	}
	if a.pol == polRandom {
		return a.rng.IntN(len(reqs))
	}
	best := 0
	for i := 1; i < len(reqs); i++ {
		if a.before(f, reqs[i], reqs[best], nIn) {
			best = i
		}
	}
	return best
}

// before reports whether request x beats request y under a deterministic policy.
func (a *arbiter) before(f int, x, y request, nIn int32) bool {
	switch a.pol {
	case polInput:
		kx, ky := int64(x.in), int64(y.in)
		if x.in < 0 {
			kx = 1 << 40
		}
		if y.in < 0 {
			ky = 1 << 40
		}
		if kx != ky {
			return kx < ky
		}
	case polRoundRobin:
		n := nIn + 1
		ptr := a.rr[f]
		dx, dy := ((x.port-ptr)%n+n)%n, ((y.port-ptr)%n+n)%n
		if dx != dy {
			return dx < dy
		}
	case polFarthest:
		if x.rem != y.rem {
			return x.rem > y.rem
		}
	case polOldest:
		if x.rel != y.rel {
			return x.rel < y.rel
		}
	}
	return x.msg < y.msg
}

// queueBefore orders the worms (or packets) a and b waiting in one queue as policy
// p would choose among them when they share an input port: more hops still to make
// first (farthest), earlier release first (oldest, and random, whose queues are
// served oldest first), then by message index (message, input, round-robin).
func (p policy) queueBefore(a, b, remA, remB int32, relA, relB int) bool {
	switch p {
	case polFarthest:
		if remA != remB {
			return remA > remB
		}
	case polOldest, polRandom:
		if relA != relB {
			return relA < relB
		}
	}
	return a < b
}

// granted tells the arbiter that the winner on port actually crossed edge f.
func (a *arbiter) granted(f int, port, nIn int32) {
	if a.pol == polRoundRobin {
		a.rr[f] = (port + 1) % (nIn + 1)
	}
}

// CheckPolicy returns an error naming the policies when name is not one of them.
func CheckPolicy(name string) error {
	_, err := parsePolicy(name)
	return err
}
