package routing

// Positive-hop routing of Boppana and Chalasani (seed 003, section 2; derived
// from the store-and-forward positive-hop scheme of Gopal): a store-and-forward
// algorithm is deadlock-free when the buffer classes a message occupies have
// strictly increasing rank; in the wormhole version the VC class plays the buffer
// class. In positive-hop every hop is positive: the hop a message takes after h
// hops uses VC class h, so classes rise along every route and the channel
// dependency graph is acyclic. Fully adaptive over the minimal directions.
//
// VCs: one class per hop of the longest minimal route, D (the diameter: sum of
// k_i/2 on a torus, sum of k_i - 1 on a mesh). The copy of seed 003 lost the count;
// the store-and-forward scheme has D + 1 buffer classes (the source's buffer is
// class 0), the wormhole version needs a VC only per hop taken, so D. With fewer
// VCs (an unsafe run) the last class is shared by the hops past it.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// PosHop is positive-hop routing.
type PosHop struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*PosHop)(nil)

func init() {
	Register(Algorithm{
		Name:    "poshop",
		Summary: "positive-hop: fully adaptive, VC class = hops taken (Boppana and Chalasani, seed 003)",
		MinVCs: func(net topology.Network) (int, error) {
			g, err := gridOf("poshop", net, "")
			if err != nil {
				return 0, err
			}
			return g.Diameter(), nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("poshop", net, "")
			if err != nil {
				return nil, err
			}
			return &PosHop{g: g, vcs: vcs}, nil
		},
	})
}

func (p *PosHop) Start(h *sim.Header, r *rand.Rand)                  {}
func (p *PosHop) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (p *PosHop) Advance(at int, h *sim.Header, port, vc int)        {}

func (p *PosHop) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	vc := uint64(1) << uint(min(int(h.Hops), p.vcs-1))
	var buf [8]int // on the stack: Route may run on several threads at once
	ports := productive(p.g, at, int(h.Dst), buf[:0])
	for _, port := range ports {
		out = append(out, sim.Choice{Port: port, VCs: vc})
	}
	return out
}
