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
// Every VC is allowed on every hop. Both are minimal and need one VC; they apply to
// 2-D meshes (on a torus the wrap rings would need further classes).

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
			name, summary = "northlast", "north-last turn model on 2-D meshes, one VC (Glass and Ni 1992; seed 003)"
		}
		Register(Algorithm{
			Name:    name,
			Summary: summary,
			MinVCs: func(net topology.Network) (int, error) {
				_, err := turnGrid(name, net)
				return 1, err
			},
			New: func(net topology.Network, vcs int) (sim.Routing, error) {
				g, err := turnGrid(name, net)
				if err != nil {
					return nil, err
				}
				return &Turn{g: g, vcs: vcs, north: north}, nil
			},
		})
	}
}

func turnGrid(name string, net topology.Network) (*topology.Grid, error) {
	g, err := gridOf(name, net, "mesh")
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

func (t *Turn) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	all := span(0, t.vcs)
	dx := dirOf(t.g, at, int(h.Dst), 0)
	dy := dirOf(t.g, at, int(h.Dst), 1)
	if !t.north && dx < 0 {
		return append(out, sim.Choice{Port: topology.Port(0, -1), VCs: all})
	}
	if t.north && dy > 0 && dx == 0 {
		return append(out, sim.Choice{Port: topology.Port(1, 1), VCs: all})
	}
	if dx != 0 {
		out = append(out, sim.Choice{Port: topology.Port(0, dx), VCs: all})
	}
	if dy != 0 && !(t.north && dy > 0) {
		out = append(out, sim.Choice{Port: topology.Port(1, dy), VCs: all})
	}
	return out
}
