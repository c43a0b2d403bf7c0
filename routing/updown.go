package routing

// Up-down routing on the butterfly fat-tree (Greenberg and Oh, seed 000, sections
// III and B.2): a packet climbs to the lowest level at which a switch lies above
// both its source and its destination, then descends along the unique down path.
// Going up every switch has two up links, and how one is chosen is the path
// selection: Fixed draws one per level at the source (in Start, from Aux[0]'s
// bits), which is seed 000's FP (each of the 2^l climbs to level l is one shortest
// path, so independent fair bits draw a shortest path uniformly) and, since the
// draws are independent of the traffic, also the distribution of an oblivious draw
// made at each climb; otherwise Route offers both up links and the simulator's
// selection function takes a free one (sim.FirstFree: GP, the first up link not
// blocked; sim.RandomFree: a free one at random).

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// UpDown routes shortest up-down paths on a fat-tree with one virtual channel (no
// shortest path turns from a down link to an up link, so the channel dependency
// graph is acyclic).
type UpDown struct {
	ft *topology.FatTree
	// Fixed draws the up links at the source instead of offering both.
	Fixed bool
}

var _ sim.Routing = (*UpDown)(nil)

// NewUpDown builds the routing for net, which must be a fat-tree.
func NewUpDown(net topology.Network, fixed bool) (*UpDown, error) {
	ft, ok := net.(*topology.FatTree)
	if !ok {
		return nil, fmt.Errorf("updown: %v is not a fat-tree", net)
	}
	return &UpDown{ft: ft, Fixed: fixed}, nil
}

// Start draws the up link of every level (bit l-1 of Aux[0] for level l).
func (u *UpDown) Start(h *sim.Header, r *rand.Rand) {
	if u.Fixed {
		h.Aux[0] = int32(r.Uint32() >> 1)
	}
}

// Route offers the processor's link, the down port towards the destination, or the
// up links.
func (u *UpDown) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	l := u.ft.Level(at)
	dst := int(h.Dst)
	switch {
	case l == 0:
		return append(out, sim.Choice{Port: 0, VCs: 1})
	case u.ft.Ancestor(at, dst):
		return append(out, sim.Choice{Port: u.ft.DownPort(at, dst), VCs: 1})
	case u.Fixed:
		return append(out, sim.Choice{Port: topology.FatUp0 + int(h.Aux[0]>>(l-1)&1), VCs: 1})
	}
	return append(out, sim.Choice{Port: topology.FatUp0, VCs: 1}, sim.Choice{Port: topology.FatUp1, VCs: 1})
}

// Advance keeps no state: the level and the destination decide every hop.
func (u *UpDown) Advance(int, *sim.Header, int, int) {}
