package fattree

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/wormlab/wormlab/topology"
)

// Run is one run's input: the network, the packets and the strategies.
type Run struct {
	FT    *topology.FatTree
	Pairs []Pair
	// Flits is L; Queue is WORM's q (flits per input queue); StoreQueue is the
	// packets an input queue of STORE, UNIV and SPLIT holds (0 or 1: one).
	Flits, Queue, StoreQueue int
	// GhostHops is the links UNIV's ghosts cross in a packet-step (0 or 1: one,
	// as a packet).
	GhostHops int
	Path      PathSelection
	Scan      Scan
	// Delay is R: STORE and SPLIT draw initial delays from [0, R-1] packet-steps,
	// WORM from [0, R-1] units of L log2 N flit-steps, UNIV priorities from [1, R]
	// (R <= 1 there: [1, N]).
	Delay int
	// Overhead is SPLIT's extra flits per independent flit (addressing).
	Overhead int
	// Up[i] holds packet i's up link for each level (bit l-1 for level l), drawn at
	// the source: FP's path, ignored by RP and GP.
	Up []uint32
	R  *rand.Rand
	// Seed seeds the simulator's streams (WORM).
	Seed uint64
}

// Outcome is one run's measurement.
type Outcome struct {
	// MaxLatency is the flit-step in which the last tail arrives.
	MaxLatency int64
	// Congestion is the largest number of packets that crossed one link (for
	// SPLIT, flit-packets divided by L, rounded down).
	Congestion int
}

// Algorithm routes one run (seed 000, section B.2).
type Algorithm interface {
	Route(ctx context.Context, run *Run) (Outcome, error)
}

var algorithms = map[string]Algorithm{}

func registerAlgorithm(name string, a Algorithm) {
	if _, dup := algorithms[name]; dup {
		panic("fattree: algorithm registered twice: " + name)
	}
	algorithms[name] = a
}

// LookupAlgorithm returns the named algorithm.
func LookupAlgorithm(name string) (Algorithm, error) {
	a, ok := algorithms[name]
	if !ok {
		return nil, fmt.Errorf("unknown algorithm %q (want one of %s)", name, strings.Join(AlgorithmNames(), ", "))
	}
	return a, nil
}

// AlgorithmNames lists the algorithms.
func AlgorithmNames() []string { return keys(algorithms) }
