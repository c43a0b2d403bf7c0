package routing

// Negative-hop with bonus cards (NBC), Boppana and Chalasani (seed 003, section 2).
// Plain negative-hop crowds the low VC classes; NBC gives a message bonus cards,
// the classes it would leave unused: the most negative hops any route takes less
// those its own route takes, and lets it climb classes early. Read here as: the
// classes of a message's hops never fall, rise by at least one after each negative
// hop, and always leave room for the negative hops still ahead. So the hop from a
// router, with l the class of the hop before (none at the source), may use any
// class from l (l + 1 after a negative hop; 0 at the source) up to V - 1 - a, where
// a is the number of negative hops among the hops from here to the last but one
// (each forces a later rise). Within one class a message still makes at most a
// positive hop then a negative one, so the channel dependency graph stays acyclic
// (checked by `wormlab deadlock`). A message with no bonus cards routes exactly as
// in negative-hop. The VC count is negative-hop's.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// NBC is negative-hop routing with bonus cards.
type NBC struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*NBC)(nil)

func init() {
	Register(Algorithm{
		Name:    "nbc",
		Summary: "negative-hop with bonus cards: a wider range of VC classes per hop (seed 003)",
		MinVCs: func(net topology.Network) (int, error) {
			g, err := bipartite("nbc", net)
			if err != nil {
				return 0, err
			}
			return g.Diameter()/2 + 1, nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := bipartite("nbc", net)
			if err != nil {
				return nil, err
			}
			return &NBC{g: g, vcs: vcs}, nil
		},
	})
}

func (n *NBC) Start(h *sim.Header, r *rand.Rand)                  {}
func (n *NBC) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (n *NBC) Advance(at int, h *sim.Header, port, vc int)        {}

// classes returns the VC classes allowed for the hop from at.
func (n *NBC) classes(at int, h *sim.Header) uint64 {
	lo := 0
	if h.VC >= 0 {
		lo = int(h.VC)
		if colour(n.g, at) == 0 { // the hop into at came from colour 1: negative
			lo++
		}
	}
	r := n.g.Distance(at, int(h.Dst))
	// negative hops among the r-1 hops before the last, colours alternating from
	// at's colour
	ahead := (r - 1) / 2
	if colour(n.g, at) == 1 {
		ahead = r / 2
	}
	hi := n.vcs - 1 - ahead
	lo = min(lo, n.vcs-1)
	if hi < lo { // too few VCs (an unsafe run): the lowest class that fits
		hi = lo
	}
	return span(lo, hi+1)
}

func (n *NBC) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	vcs := n.classes(at, h)
	var buf [8]int // on the stack: Route may run on several threads at once
	ports := productive(n.g, at, int(h.Dst), buf[:0])
	for _, port := range ports {
		out = append(out, sim.Choice{Port: port, VCs: vcs})
	}
	return out
}
