package routing

// Shortest-path table routing on any network with hop-indexed VCs: every port that
// begins a shortest route to the destination is offered, on VC h for the packet's
// h-th hop (counting from 0). VC numbers strictly increase along every route, so
// the channel dependency graph is acyclic: the structured buffer pool of P. M.
// Merlin and P. J. Schweitzer (Deadlock avoidance in store-and-forward networks,
// IEEE Trans. Communications 28(3), 1980) in the wormhole form of seed 003's
// positive-hop scheme (Boppana and Chalasani). It needs D VCs, D the longest
// shortest route between two terminal routers; with more, hop h takes the h-th of
// D equal ranges of the VCs (the ranges increase with h, so the graph stays
// acyclic, and every hop has the use of vcs/D VCs, as df-min's classes do: with one
// VC a hop, any-min on dragonfly:a=4,p=2,h=2 with 8 VCs carried 0.050
// flits/terminal/cycle at offered 1.0 against df-min's 0.151, with the ranges 0.142:
// TestAnyMinGlobalVCBound says why they are close); with fewer (an unsafe run) the
// last VC takes every later hop and cycles can close.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// AnyMin is shortest-path table routing with a VC per hop.
type AnyMin struct {
	t   *anyTables
	cls dfClasses // D hop classes on the VCs
}

var _ sim.Routing = (*AnyMin)(nil)

func init() {
	Register(Algorithm{
		Name:    "any-min",
		Summary: "any network: every shortest path from tables, VC class = hops taken, D VCs (Merlin and Schweitzer 1980; seed 003's positive hop)",
		MinVCs: func(net topology.Network) (int, error) {
			m, err := NewAnyMin(net, 1)
			if err != nil {
				return 0, err
			}
			d := m.cls.classes
			if d > 64 {
				return 0, fmt.Errorf("any-min: shortest routes of %d hops need more than 64 VCs", d)
			}
			return d, nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) { return NewAnyMin(net, vcs) },
	})
}

// NewAnyMin builds shortest-path table routing for net with vcs VCs.
func NewAnyMin(net topology.Network, vcs int) (*AnyMin, error) {
	t, err := newAnyTables("any-min", net, 1, func(int, int, int) int { return 0 })
	if err != nil {
		return nil, err
	}
	return &AnyMin{t: t, cls: dfClasses{vcs: vcs, classes: max(t.diameter(), 1)}}, nil
}

func (m *AnyMin) Start(*sim.Header, *rand.Rand)                      {}
func (m *AnyMin) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (m *AnyMin) Advance(int, *sim.Header, int, int)                 {}

func (m *AnyMin) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	return m.t.next(at, 0, int(h.Dst), m.cls.mask(min(int(h.Hops), m.cls.classes-1)), out)
}
