package fattree

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// FixedOrder is FO (seed 000, section B.2): inputs scanned in the same order every
// step (down ports 0-3, up ports, then the source queue).
type FixedOrder struct{}

var _ Scan = FixedOrder{}

func init() { registerScan("fo", FixedOrder{}) }

func (FixedOrder) Order([]cand, *rand.Rand) {}

func (FixedOrder) Arbitration(*topology.FatTree) sim.Arbitration { return sim.FixedOrder{} }
