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

// pick returns the index in reqs of the winner. reqs is sorted by message index.
// nIn is the number of input edges of the edge's tail node (the injection port has
// number nIn).
func (a *arbiter) pick(f int, reqs []request, nIn int32) int {
	if len(reqs) == 1 {
		return 0
	}
	best := 0
	switch a.pol {
	case polMessage:
		return 0
	case polRandom:
		return a.rng.IntN(len(reqs))
	case polInput:
		key := func(r request) int64 {
			if r.in < 0 {
				return 1 << 40
			}
			return int64(r.in)
		}
		for i := 1; i < len(reqs); i++ {
			if key(reqs[i]) < key(reqs[best]) {
				best = i
			}
		}
	case polRoundRobin:
		ptr := a.rr[f]
		n := nIn + 1
		dist := func(r request) int32 { return ((r.port-ptr)%n + n) % n }
		for i := 1; i < len(reqs); i++ {
			if dist(reqs[i]) < dist(reqs[best]) {
				best = i
			}
		}
	case polFarthest:
		for i := 1; i < len(reqs); i++ {
			if reqs[i].rem > reqs[best].rem {
				best = i
			}
		}
	case polOldest:
		for i := 1; i < len(reqs); i++ {
			if reqs[i].rel < reqs[best].rel {
				best = i
			}
		}
	}
	return best
}

// granted tells the arbiter that the winner on port actually crossed edge f.
func (a *arbiter) granted(f int, port, nIn int32) {
	if a.pol == polRoundRobin {
		a.rr[f] = (port + 1) % (nIn + 1)
	}
}

// sortReqs sorts a short list of requests by message index (insertion sort: the
// lists are as long as the in-degree plus the worms waiting at one source).
func sortReqs(rs []request) {
	for i := 1; i < len(rs); i++ {
		r := rs[i]
		j := i
		for j > 0 && rs[j-1].msg > r.msg {
			rs[j] = rs[j-1]
			j--
		}
		rs[j] = r
	}
}

// CheckPolicy returns an error naming the policies when name is not one of them.
func CheckPolicy(name string) error {
	_, err := parsePolicy(name)
	return err
}
