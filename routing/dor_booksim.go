package routing

// Dimension-order routing with BookSim2's dateline classes (dim_order_torus of
// booksim/booksim2, src/routefunc.cpp, dor_next_torus without "balance"), for
// comparing wormlab with BookSim2 on tori (docs/booksim.md).
//
// The ports are those of "dor". The VC class differs: Dally and Seitz (1987) move a
// packet from class 0 to class 1 on the hops after the wrap link; BookSim fixes the
// class of a whole dimension when the packet enters it (at its source router or on
// turning): going up (+), class 1 iff cur > dest, i.e. the route will cross the wrap
// link from k-1 to 0; going down (-), class 1 iff dest < cur, as BookSim writes it,
// which is the packets that do NOT cross the wrap link from 0 to k-1. Both are
// deadlock-free: an up-going class-1 packet and a down-going class-0 packet take the
// wrap link within a minimal route of at most k/2 hops, so no class-0 (resp. 1)
// dependency chain spans the links opposite the wrap; the others never take it.
// TestDORBookSimAcyclic checks the channel dependency graph.
//
// The choice matters for throughput: on the 8x8 torus with 4 VCs, 16-flit packets
// and uniform traffic, Dally-Seitz's classes load class 0 with every packet's hops
// before the wrap, and wormlab saturated at 0.465 flits/node/cycle with "dor" but at
// 0.486 with these classes, BookSim2's 0.485 (docs/booksim.md).

import (
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DORBookSim is dimension-order routing with BookSim2's class per dimension.
// It shares dor's ports, tie draws and class halves (the embedded DOR) and has its
// own class rule (hop, Route, Advance).
type DORBookSim struct {
	DOR
}

var _ sim.Routing = (*DORBookSim)(nil)

func init() {
	Register(Algorithm{
		Name:    "dor-booksim",
		Summary: "dimension order with BookSim2's dim_order_torus classes: a dimension's VC class fixed on entering it",
		MinVCs:  gridVCs("dor-booksim", 2, 1),
		New:     func(net topology.Network, vcs int) (sim.Routing, error) { return NewDORBookSim(net, vcs) },
	})
}

// NewDORBookSim builds it for a torus or mesh with vcs VCs.
func NewDORBookSim(net topology.Network, vcs int) (*DORBookSim, error) {
	d, err := newDOR("dor-booksim", net, vcs)
	if err != nil {
		return nil, err
	}
	return &DORBookSim{d}, nil
}

// hop is the next hop's port, dimension and class from router at. Each
// dimension's two coordinates are read once and its offset and tie derived from
// them (Grid.CoordOffset; Grid.Offset and Grid.Tie would read them again:
// divisions, twice per head and hop, Route and Advance, were 40% of this
// function's time).
func (d *DORBookSim) hop(at int, h *sim.Header) (port, dim int, class int32) {
	g := d.g
	for i := range g.Dims() {
		cur, dst := g.Coord(at, i), g.Coord(int(h.Dst), i)
		if cur == dst {
			continue
		}
		off, tie := g.CoordOffset(cur, dst, i)
		dir := 1
		if off < 0 || (tie && h.Aux[0]>>uint(i)&1 == 1) {
			dir = -1
		}
		if h.Port >= 0 && int(h.Port)/2 == i {
			return topology.Port(i, dir), i, h.Class
		}
		// entering the dimension: class 1 iff cur > dst, in either direction
		class := int32(0)
		if cur > dst {
			class = 1
		}
		return topology.Port(i, dir), i, class
	}
	return -1, -1, 0
}

// Route returns the dimension-order port with the VCs of the dimension's class.
func (d *DORBookSim) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	port, _, c := d.hop(at, h)
	if port < 0 {
		return out
	}
	return append(out, sim.Choice{Port: port, VCs: d.classVCs(c)})
}

// Advance records the class of the dimension the hop is in: hop's, for the port
// Route offered (the first dimension not yet done, port/2), from that
// dimension's two coordinates only: on in the dimension it was in, its class;
// entering it, class 1 iff cur > dst (hop's rule).
func (d *DORBookSim) Advance(at int, h *sim.Header, port, vc int) {
	i := port / 2
	if h.Port >= 0 && int(h.Port)/2 == i {
		return
	}
	h.Class = 0
	if d.g.Coord(at, i) > d.g.Coord(int(h.Dst), i) {
		h.Class = 1
	}
}
