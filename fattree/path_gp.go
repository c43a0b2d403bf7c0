package fattree

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
)

// GreedyPath is GP (seed 000, section B.2): the packet scans its up links in order
// and takes the first one that is not blocked.
type GreedyPath struct{}

var _ PathSelection = GreedyPath{}

func init() { registerPath("gp", GreedyPath{}) }

func (GreedyPath) Up(_ int, free [2]bool, _ *rand.Rand) int {
	for k, f := range free {
		if f {
			return k
		}
	}
	return -1
}

func (GreedyPath) Worm() (bool, sim.Selector) { return false, sim.FirstFree{} }
