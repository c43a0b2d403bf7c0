package fattree

import (
	"math/rand/v2"
	"sort"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// FarthestFixed is FF with FO's tie order: packets of the farthest destinations
// (up) and sources (down) first, ties in input order every step. Not the paper's
// FF, which breaks ties round-robin (FarthestFirst); run to see whether the tie
// order is what makes FF behave like FO (docs/fattree-study.md).
type FarthestFixed struct{}

var _ Scan = FarthestFixed{}

func init() { registerScan("ff-fo", FarthestFixed{}) }

func (FarthestFixed) Order(c []cand, _ *rand.Rand) {
	sort.SliceStable(c, func(i, j int) bool { return c[i].far > c[j].far })
}

func (FarthestFixed) Arbitration(ft *topology.FatTree) sim.Arbitration {
	return farthest{ft: ft, fixed: true}
}
