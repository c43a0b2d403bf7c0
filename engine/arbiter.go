// Arbitration at an output edge: the input scans of seed 000 (Greenberg, Oh),
// section II and the simulation study (fixed order FO, round-robin RR, farthest
// first FF), plus message order, random and oldest-first. Each policy is a value in
// its own file (arb_*.go) and registers itself here for the command line.

package engine

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Policy names of the registered policies (see the package documentation).
const (
	ArbMessage    = "message"
	ArbInput      = "input"
	ArbRandom     = "random"
	ArbRoundRobin = "round-robin"
	ArbFarthest   = "farthest"
	ArbOldest     = "oldest"
)

// Request is one head asking for an edge: the message, the input port it arrives on
// (its position in Network.In of the edge's tail node, or nIn for the injection
// port), its input edge (-1 at the source), the hops it still has to make, and its
// release time.
type Request struct {
	Msg  int32
	Port int32
	In   int32
	Rem  int32
	Rel  int
}

// Queued is a worm (or packet) waiting in one queue behind a port: its message
// index, the hops it still has to make and its release time.
type Queued struct {
	Msg int32
	Rem int32
	Rel int
}

// Arbiter picks the winner among the requests for one edge. An arbiter may keep
// state per edge (round-robin pointers) and is used by one engine run.
type Arbiter interface {
	// Pick returns the index in reqs of the winner for edge f, whose tail node has
	// nIn input edges (the injection port is number nIn). The order of reqs is by
	// message index; Pick must be deterministic given the arbiter's random source.
	Pick(f int, reqs []Request, nIn int32) int
	// Granted tells the arbiter that the winner on port actually crossed edge f.
	Granted(f int, port, nIn int32)
}

// Policy is an arbitration policy: it makes the arbiter of one run and orders the
// worms that wait behind one port (injection queues, store-and-forward queues) as
// its arbiter would choose among them.
type Policy interface {
	// Arbiter returns a fresh arbiter for a network of edges edges; randomized
	// policies draw from rng, which the engine seeds.
	Arbiter(edges int, rng *rand.Rand) Arbiter
	// QueueBefore reports whether a is served before b when both wait behind one
	// port.
	QueueBefore(a, b Queued) bool
}

// drawer is an arbiter that draws its winner at random (the random policy): the
// engine asks it for uniform draws where a deterministic policy's step would repeat
// itself (rotation, store-and-forward queues).
type drawer interface {
	Draw(n int) int
}

type registered struct {
	name, summary string
	p             Policy
	order         int
}

var registry = map[string]registered{}

// Register makes a policy available by name (Lookup, Policies); each policy file
// calls it from init. Registering a name twice panics (programmer error).
func Register(name, summary string, p Policy) {
	if _, dup := registry[name]; dup {
		panic("engine: arbitration policy registered twice: " + name)
	}
	registry[name] = registered{name, summary, p, len(registry)}
}

// Lookup returns the policy registered under name ("" is the default, "message").
func Lookup(name string) (Policy, error) {
	if name == "" {
		name = ArbMessage
	}
	r, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("engine: unknown arbitration policy %q (want one of %s)", name, strings.Join(Policies(), ", "))
	}
	return r.p, nil
}

// Policies lists the registered policy names, the default ("message") first, then
// by name.
func Policies() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(a, b int) bool {
		if (names[a] == ArbMessage) != (names[b] == ArbMessage) {
			return names[a] == ArbMessage
		}
		return names[a] < names[b]
	})
	return names
}

// Summary returns the one-line description a policy registered with.
func Summary(name string) string { return registry[name].summary }

// CheckPolicy returns an error naming the policies when name is not one of them.
func CheckPolicy(name string) error {
	_, err := Lookup(name)
	return err
}

// resolvePolicy returns cfg.Policy, or the policy registered as cfg.Arb.
func resolvePolicy(cfg Config) (Policy, error) {
	if cfg.Policy != nil {
		return cfg.Policy, nil
	}
	return Lookup(cfg.Arb)
}

// pickBy returns the index of the first request that no other beats under before
// (a strict order; ties fall to the smaller message index). O(len(reqs)).
func pickBy(reqs []Request, before func(x, y Request) bool) int {
	best := 0
	for i := 1; i < len(reqs); i++ {
		x, y := reqs[i], reqs[best]
		if before(x, y) || (!before(y, x) && x.Msg < y.Msg) {
			best = i
		}
	}
	return best
}

// byMessage serves queues by message index.
func byMessage(a, b Queued) bool { return a.Msg < b.Msg }

// noGrant is the Granted of a stateless arbiter.
type noGrant struct{}

func (noGrant) Granted(int, int32, int32) {}
