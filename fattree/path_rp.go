package fattree

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
)

// RandomPath is RP (seed 000, section B.2): each time a packet seeks to go up it
// draws an up link at random and waits if that link is blocked, drawing again at
// its next attempt (this redraw is what separates RP from FP: a single draw per
// level has FP's distribution).
//
// On the simulator (WORM) a waiting head is offered only free outputs, so RP there
// takes a free up link at random (sim.RandomFree): when both are free the same
// distribution as a draw, when one is free it takes it at once where the packet-level
// reading would wait with probability 1/2 per step.
type RandomPath struct{}

var _ PathSelection = RandomPath{}

func init() { registerPath("rp", RandomPath{}) }

func (RandomPath) Up(_ int, free [2]bool, r *rand.Rand) int {
	k := r.IntN(2)
	if free[k] {
		return k
	}
	return -1
}

func (RandomPath) Worm() (bool, sim.Selector) { return false, sim.RandomFree{} }
