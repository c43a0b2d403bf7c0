package routing

// Shortest-path table routing on any network with hop-indexed VCs: every port that
// begins a shortest route to the destination is offered, on VC h for the packet's
// h-th hop (counting from 0). VC numbers strictly increase along every route, so
// the channel dependency graph is acyclic: the structured buffer pool of P. M.
// Merlin and P. J. Schweitzer (Deadlock avoidance in store-and-forward networks,
// IEEE Trans. Communications 28(3), 1980) in the wormhole form of seed 003's
// positive-hop scheme (Boppana and Chalasani). It needs D VCs, D the longest
// shortest route between two terminal routers; with fewer (an unsafe run) the last
// VC takes every later hop and cycles can close.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// AnyMin is shortest-path table routing with a VC per hop.
type AnyMin struct {
	t   *anyTables
	vcs int
}

var _ sim.Routing = (*AnyMin)(nil)

func init() {
	Register(Algorithm{
		Name:    "any-min",
		Summary: "any network: every shortest path from tables, VC = hops taken, D VCs (Merlin and Schweitzer 1980; seed 003's positive hop)",
		MinVCs: func(net topology.Network) (int, error) {
			m, err := NewAnyMin(net, 1)
			if err != nil {
				return 0, err
			}
			d := m.t.diameter()
			if d > 64 {
				return 0, fmt.Errorf("any-min: shortest routes of %d hops need more than 64 VCs", d)
			}
			return max(d, 1), nil
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
	return &AnyMin{t: t, vcs: vcs}, nil
}

func (m *AnyMin) Start(*sim.Header, *rand.Rand)                      {}
func (m *AnyMin) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (m *AnyMin) Advance(int, *sim.Header, int, int)                 {}

func (m *AnyMin) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	vc := uint64(1) << uint(min(int(h.Hops), m.vcs-1))
	return m.t.next(at, 0, int(h.Dst), vc, out)
}
