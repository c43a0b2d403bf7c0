package routing

// Dimension-order routing on tori and meshes with Dally and Seitz's dateline
// virtual channels: W. J. Dally, C. L. Seitz, Deadlock-free message routing in
// multiprocessor interconnection networks, IEEE Trans. Computers C-36(5), 1987,
// section 4 (the torus: two channel classes per ring, a packet moves to the upper
// class after it crosses the ring's wrap link, which breaks every ring's cycle of
// channel dependencies).
//
// Dimensions are corrected in order 0, 1, ...; in each, the shorter way round (a
// tie, distance k/2 on an even ring, broken at random at the source, per
// dimension). On a torus the VCs split in halves: class 0 is VCs 0 .. V/2-1, class
// 1 VCs V/2 .. V-1; a packet enters each dimension in class 0 and takes class 1 on
// the hops after the wrap link (between coordinates k-1 and 0). On a mesh every VC
// is allowed. With one VC on a torus (an unsafe run) both classes share it.
//
// Header use: Class is the class of the current dimension's remaining hops; Aux[0]
// bit i set means dimension i goes the - way on a tie.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DOR is dimension-order routing on one grid with V VCs.
type DOR struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*DOR)(nil)

func init() {
	Register(Algorithm{
		Name:    "dor",
		Summary: "dimension order, shorter way round, Dally-Seitz dateline classes on tori (Dally and Seitz 1987)",
		MinVCs:  gridVCs("dor", 2, 1),
		New:     func(net topology.Network, vcs int) (sim.Routing, error) { return NewDOR(net, vcs) },
	})
	// the names architects and wormlab gen use for it
	RegisterAlias("xy", "dor")
	RegisterAlias("dimension-order", "dor")
}

// NewDOR builds dimension-order routing for a torus or mesh with vcs VCs.
func NewDOR(net topology.Network, vcs int) (*DOR, error) {
	d, err := newDOR("dor", net, vcs)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// newDOR checks net and vcs for the algorithm name (errors name it).
func newDOR(name string, net topology.Network, vcs int) (DOR, error) {
	g, err := gridOf(name, net, "")
	if err != nil {
		return DOR{}, err
	}
	if vcs < 1 || vcs > 64 {
		return DOR{}, fmt.Errorf("%s: %d VCs outside 1..64", name, vcs)
	}
	return DOR{g: g, vcs: vcs}, nil
}

// Start draws the tie directions.
func (d *DOR) Start(h *sim.Header, r *rand.Rand) {
	h.Class = 0
	h.Aux[0] = 0
	for i := range d.g.Dims() {
		if d.g.Tie(int(h.Src), int(h.Dst), i) && r.IntN(2) == 1 {
			h.Aux[0] |= 1 << uint(i)
		}
	}
}

// next is the port of the next hop from at: the first dimension not yet corrected.
func (d *DOR) next(at int, h *sim.Header) (port, dim int) {
	g := d.g
	for i := range g.Dims() {
		off, tie := g.CoordOffset(g.Coord(at, i), g.Coord(int(h.Dst), i), i)
		if off == 0 {
			continue
		}
		dir := 1
		if off < 0 || (tie && h.Aux[0]>>uint(i)&1 == 1) {
			dir = -1
		}
		return topology.Port(i, dir), i
	}
	return -1, -1
}

// class of the hop leaving by a port of dimension dim.
func (d *DOR) class(h *sim.Header, dim int) int32 {
	if h.Port < 0 || int(h.Port)/2 != dim {
		return 0
	}
	return h.Class
}

func (d *DOR) classVCs(c int32) uint64 {
	all := uint64(1)<<uint(d.vcs) - 1
	if d.vcs == 64 {
		all = ^uint64(0)
	}
	if !d.g.Wrap() || d.vcs < 2 {
		return all
	}
	half := d.vcs / 2
	low := uint64(1)<<uint(half) - 1
	if c == 0 {
		return low
	}
	return all &^ low
}

// Route returns the one dimension-order port with the VCs of the packet's class.
func (d *DOR) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	port, dim := d.next(at, h)
	if port < 0 {
		return out
	}
	return append(out, sim.Choice{Port: port, VCs: d.classVCs(d.class(h, dim))})
}

// Advance sets the class of the hops after this one: 1 once the wrap link of the
// current dimension is crossed.
func (d *DOR) Advance(at int, h *sim.Header, port, vc int) {
	dim, dir := topology.PortDim(port)
	c := d.class(h, dim)
	x := d.g.Coord(at, dim)
	if d.g.Wrap() && ((dir > 0 && x == d.g.Side(dim)-1) || (dir < 0 && x == 0)) {
		c = 1
	}
	h.Class = c
}
