package routing

// The turn model of Glass and Ni (C. J. Glass, L. M. Ni, The turn model for
// adaptive routing, ISCA 1992; seed 003 compares north-last): on a 2-D mesh,
// forbidding two of the eight 90-degree turns breaks every cycle of the channel
// dependency graph, so one VC suffices while part of the routes stay adaptive.
// Dimension 0 is x (east = +x, west = -x), dimension 1 is y (north = +y).
//
//   - west-first: a packet whose destination lies west goes west first, with no
//     choice; otherwise it takes any minimal direction among east, north and south
//     (the turns into west are forbidden).
//   - north-last: a packet takes any minimal direction among east, west and south,
//     and goes north only when north is all that is left (the turns out of north
//     are forbidden).
//
// Every VC is allowed on every hop. Both are minimal and need one VC on 2-D meshes.
//
// North-last also runs on 2-D tori, as seed 003 uses it on the 16-ary 2-cube.
// The turn restriction alone leaves the wrap rings' cycles (a ring of east-going
// links has no turn at all), and per-dimension dateline classes are not enough:
// with two VCs, class 1 on a dimension's hops while its wrap link is ahead, the
// checker finds a 10-channel cycle on the 8x8 torus that turns from +x into -y,
// goes south across the y wrap link and turns back (0,0 +x, 1,0 -y, 1,7 -x, 0,7
// -y ... 0,1 -y). So on a torus a hop's VC is the packet's class 2 wx + wy, wx
// (wy) saying whether the x (y) ring's wrap link is still ahead on its route: a
// packet's class only falls (wx, then wy, clear as it crosses), and within one
// class every ring misses a link, so each class is a mesh cut open where the turn
// model's argument applies. 4 VCs; directions are minimal, + on a tie, so "north"
// is fixed for the route. Seed 003's copy does not say how its torus version
// breaks the rings; this is wormlab's reading, proved by `wormlab deadlock
// --routing northlast` on tori (with 3 VCs it names a 16-channel cycle).

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Turn is a turn-model routing on a 2-D mesh.
type Turn struct {
	g     *topology.Grid
	vcs   int
	north bool // north-last; else west-first
}

var _ sim.Routing = (*Turn)(nil)

func init() {
	for _, north := range []bool{false, true} {
		name, summary := "westfirst", "west-first turn model on 2-D meshes, one VC (Glass and Ni 1992)"
		if north {
			name, summary = "northlast", "north-last turn model on 2-D meshes (one VC) and tori (two dateline classes) (Glass and Ni 1992; seed 003)"
		}
		Register(Algorithm{
			Name:    name,
			Summary: summary,
			MinVCs: func(net topology.Network) (int, error) {
				g, err := turnGrid(name, net, north)
				if err == nil && g.Wrap() {
					return 4, nil
				}
				return 1, err
			},
			New: func(net topology.Network, vcs int) (sim.Routing, error) {
				g, err := turnGrid(name, net, north)
				if err != nil {
					return nil, err
				}
				return &Turn{g: g, vcs: vcs, north: north}, nil
			},
		})
	}
}

// turnGrid accepts 2-D meshes, and 2-D tori for north-last (torusOK).
func turnGrid(name string, net topology.Network, torusOK bool) (*topology.Grid, error) {
	kind := "mesh"
	if torusOK {
		kind = ""
	}
	g, err := gridOf(name, net, kind)
	if err != nil {
		return nil, err
	}
	if g.Dims() != 2 {
		return nil, errorf("%s routes on 2-D meshes, not on %s", name, net)
	}
	return g, nil
}

func (t *Turn) Start(h *sim.Header, r *rand.Rand)                  {}
func (t *Turn) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (t *Turn) Advance(at int, h *sim.Header, port, vc int)        {}

// vcsFor is the VC set of a hop from at: every VC on a mesh; on a torus the VC
// of the packet's class, 2 wx + wy, where wx (wy) says whether the wrap link of
// the x (y) ring is still ahead on its route: with V >= 4 VCs, class c takes VCs
// c V/4 .. (c+1) V/4 - 1; with fewer (an unsafe run) classes share VCs modulo V.
func (t *Turn) vcsFor(at int, h *sim.Header, _ int) uint64 {
	if !t.g.Wrap() {
		return span(0, t.vcs)
	}
	c := 0
	for i := range 2 {
		if d := dirOf(t.g, at, int(h.Dst), i); d != 0 && wrapAhead(t.g, at, int(h.Dst), i, d) {
			c |= 2 >> uint(i)
		}
	}
	if t.vcs >= 4 { // a quarter of the VCs per class
		return span(c*t.vcs/4, (c+1)*t.vcs/4)
	}
	return 1 << uint(c%t.vcs)
}

func (t *Turn) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	dx := dirOf(t.g, at, int(h.Dst), 0)
	dy := dirOf(t.g, at, int(h.Dst), 1)
	if !t.north && dx < 0 {
		return append(out, sim.Choice{Port: topology.Port(0, -1), VCs: t.vcsFor(at, h, 0)})
	}
	if t.north && dy > 0 && dx == 0 {
		return append(out, sim.Choice{Port: topology.Port(1, 1), VCs: t.vcsFor(at, h, 1)})
	}
	if dx != 0 {
		out = append(out, sim.Choice{Port: topology.Port(0, dx), VCs: t.vcsFor(at, h, 0)})
	}
	if dy != 0 && !(t.north && dy > 0) {
		out = append(out, sim.Choice{Port: topology.Port(1, dy), VCs: t.vcsFor(at, h, 1)})
	}
	return out
}
