package fattree

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
)

// FixedPath is FP (seed 000, section B.2): a shortest path drawn uniformly at the
// source (an independent fair bit per level climbed: each of the 2^l sequences is a
// distinct shortest path) and kept whatever the traffic.
type FixedPath struct{}

var _ PathSelection = FixedPath{}

func init() { registerPath("fp", FixedPath{}) }

func (FixedPath) Up(fixed int, free [2]bool, _ *rand.Rand) int {
	if free[fixed] {
		return fixed
	}
	return -1
}

func (FixedPath) Worm() (bool, sim.Selector) { return true, nil }
