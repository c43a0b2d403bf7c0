package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Request is one requester of an arbitrated resource (a switch input, a switch
// output or an output VC): ID is its number among the resource's possible
// requesters (input VC or input port), the rest describe the packet it carries.
type Request struct {
	ID int32
	// At is the router arbitrating; Hops the packet's links crossed so far; Dst
	// its destination (so a policy may compute the distance still to go, as
	// farthest-first does); Age the cycles since it was generated.
	At, Hops, Dst int32
	Age           int64
}

// Arbiter grants one resource among requesters. Pick returns an index into reqs
// (never empty, in increasing ID order); Granted is called with the winner's ID
// when the grant is used, so that a round-robin pointer moves only on success.
type Arbiter interface {
	Pick(reqs []Request) int
	Granted(id int32)
}

// Arbitration makes the arbiter of one resource with n possible requesters.
type Arbitration interface {
	NewArbiter(n int, r *rand.Rand) Arbiter
}

var arbitrations = map[string]Arbitration{}

// RegisterArbitration adds an arbitration policy to the registry (from init).
func RegisterArbitration(name string, a Arbitration) {
	if _, dup := arbitrations[name]; dup {
		panic("sim: arbitration registered twice: " + name)
	}
	arbitrations[name] = a
}

// LookupArbitration returns the named arbitration policy.
func LookupArbitration(name string) (Arbitration, error) {
	a, ok := arbitrations[name]
	if !ok {
		return nil, fmt.Errorf("unknown arbitration %q (want one of %s)", name, strings.Join(ArbitrationNames(), ", "))
	}
	return a, nil
}

// ArbitrationNames lists the registered arbitration policies.
func ArbitrationNames() []string { return names(arbitrations) }
