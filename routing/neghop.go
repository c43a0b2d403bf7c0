package routing

// Negative-hop routing of Boppana and Chalasani (seed 003, section 2). Colour the
// nodes of a bipartite grid by the parity of their coordinate sum (a mesh, or a
// torus whose sides are all even: with an odd side the wrap link joins two nodes of
// one colour, so odd sides are refused); a hop from a node of colour 1 to colour 0
// is negative. The hop a message takes after n negative hops uses VC class n. Along
// a route colours alternate, so within one class a message makes at most a
// positive hop followed by a negative one: no class has a dependency cycle.
// Fully adaptive over the minimal directions.
//
// VCs: 1 + the most negative hops a minimal route takes before its last hop, which
// is floor(D/2) for D the diameter (worked out from the alternation: a route of D
// hops starting on colour 1 takes a negative hop at hops 1, 3, ...; the copy of
// seed 003 lost the formula).

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// NegHop is negative-hop routing.
type NegHop struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*NegHop)(nil)

func init() {
	Register(Algorithm{
		Name:    "neghop",
		Summary: "negative-hop: fully adaptive, VC class = negative hops taken on a 2-coloured grid (seed 003)",
		MinVCs: func(net topology.Network) (int, error) {
			g, err := bipartite("neghop", net)
			if err != nil {
				return 0, err
			}
			return g.Diameter()/2 + 1, nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := bipartite("neghop", net)
			if err != nil {
				return nil, err
			}
			return &NegHop{g: g, vcs: vcs}, nil
		},
	})
}

// bipartite returns net as a grid whose colouring alternates along every link.
func bipartite(name string, net topology.Network) (*topology.Grid, error) {
	g, err := gridOf(name, net, "")
	if err != nil {
		return nil, err
	}
	if g.Wrap() {
		for i := range g.Dims() {
			if g.Side(i)%2 == 1 {
				return nil, errorf("%s needs even sides on a torus (two colours), %s has side %d", name, net, g.Side(i))
			}
		}
	}
	return g, nil
}

func (n *NegHop) Start(h *sim.Header, r *rand.Rand)                  { h.Class = 0 }
func (n *NegHop) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }

// Advance counts the negative hops taken.
func (n *NegHop) Advance(at int, h *sim.Header, port, vc int) {
	if colour(n.g, at) == 1 {
		h.Class++
	}
}

func (n *NegHop) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	vc := uint64(1) << uint(min(int(h.Class), n.vcs-1))
	var buf [8]int // on the stack: Route may run on several threads at once
	ports := productive(n.g, at, int(h.Dst), buf[:0])
	for _, port := range ports {
		out = append(out, sim.Choice{Port: port, VCs: vc})
	}
	return out
}
