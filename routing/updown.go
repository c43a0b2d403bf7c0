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
	// vcs is the number of VCs a hop may take (every one; 1 when built by
	// NewUpDown).
	vcs int
}

var _ sim.Routing = (*UpDown)(nil)

func init() {
	for _, fixed := range []bool{false, true} {
		name, summary := "updown", "fat-tree up-down: both up links offered, the selection takes a free one (seed 000's GP)"
		if fixed {
			name, summary = "updown-fixed", "fat-tree up-down: up links drawn at the source (seed 000's FP)"
		}
		Register(Algorithm{
			Name:    name,
			Summary: summary,
			MinVCs: func(net topology.Network) (int, error) {
				if _, ok := net.(*topology.FatTree); !ok {
					return 0, fmt.Errorf("%s routes on fat-trees, not on %s", name, net)
				}
				return 1, nil
			},
			New: func(net topology.Network, vcs int) (sim.Routing, error) {
				u, err := NewUpDown(net, fixed)
				if err != nil {
					return nil, err
				}
				u.vcs = vcs
				return u, nil
			},
		})
	}
}

// NewUpDown builds the routing for net, which must be a fat-tree.
func NewUpDown(net topology.Network, fixed bool) (*UpDown, error) {
	ft, ok := net.(*topology.FatTree)
	if !ok {
		return nil, fmt.Errorf("updown: %v is not a fat-tree", net)
	}
	return &UpDown{ft: ft, Fixed: fixed, vcs: 1}, nil
}

// upBits is the mask of Aux[0]'s bits that choose up links: levels 1 .. h-1.
func (u *UpDown) upBits() int32 { return int32(1)<<uint(max(u.ft.Height()-1, 0)) - 1 }

// Start draws the up link of every level (bit l-1 of Aux[0] for level l).
func (u *UpDown) Start(h *sim.Header, r *rand.Rand) {
	if u.Fixed {
		h.Aux[0] = int32(r.Uint32()>>1) & u.upBits()
	}
}

// Starts lists every state Start can give a packet: with Fixed, every choice of
// up links.
func (u *UpDown) Starts(h sim.Header, out []sim.Header) []sim.Header {
	if !u.Fixed {
		return append(out, h)
	}
	for m := int32(0); m <= u.upBits(); m++ {
		s := h
		s.Aux[0] = m
		out = append(out, s)
	}
	return out
}

// Route offers the processor's link, the down port towards the destination, or the
// up links.
func (u *UpDown) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	l := u.ft.Level(at)
	dst := int(h.Dst)
	all := span(0, u.vcs)
	switch {
	case l == 0:
		return append(out, sim.Choice{Port: 0, VCs: all})
	case u.ft.Ancestor(at, dst):
		return append(out, sim.Choice{Port: u.ft.DownPort(at, dst), VCs: all})
	case u.Fixed:
		return append(out, sim.Choice{Port: topology.FatUp0 + int(h.Aux[0]>>(l-1)&1), VCs: all})
	}
	return append(out, sim.Choice{Port: topology.FatUp0, VCs: all}, sim.Choice{Port: topology.FatUp1, VCs: all})
}

// Advance keeps no state: the level and the destination decide every hop.
func (u *UpDown) Advance(int, *sim.Header, int, int) {}
