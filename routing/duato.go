package routing

// Duato's protocol in its general, fully adaptive form: J. Duato, A new theory of
// deadlock-free adaptive routing in wormhole networks, IEEE TPDS 4(12), 1993, and
// the necessary and sufficient condition of IEEE TPDS 6(10), 1995 (seed 001's
// reference [8]; seed 004's simulation uses this kind of routing). A packet may take
// any minimal direction on the adaptive VCs, or the escape subfunction: dimension
// order with two dateline classes on a torus (VCs 0 and 1; one VC, 0, on a mesh).
// The escape class needs no state: class 1 while the ring's wrap link lies ahead,
// class 0 after it. Adaptive choices have priority 0, escape choices 1, so a
// selection takes an escape VC only when no adaptive one is free.
//
// VCs: a 2-D torus needs 3 (2 escape + 1 adaptive), a mesh 2. `wormlab deadlock`
// checks Duato's condition: the escape subfunction is connected and its extended
// channel dependency graph acyclic.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Duato is minimal fully adaptive routing with a dimension-order escape.
type Duato struct {
	g        *topology.Grid
	vcs, esc int
}

var _ sim.Routing = (*Duato)(nil)

func init() {
	Register(Algorithm{
		Name:    "duato",
		Atomic:  true,
		Summary: "Duato's protocol: minimal fully adaptive VCs plus a dateline dimension-order escape (Duato 1993, 1995)",
		MinVCs:  gridVCs("duato", 3, 2),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("duato", net, "")
			if err != nil {
				return nil, err
			}
			esc := 1
			if g.Wrap() {
				esc = 2
			}
			return &Duato{g: g, vcs: vcs, esc: min(esc, vcs)}, nil
		},
	})
}

func (d *Duato) Start(h *sim.Header, r *rand.Rand) {}

func (d *Duato) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }

func (d *Duato) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if adaptive := span(d.esc, d.vcs); adaptive != 0 {
		var buf [8]int // on the stack: Route may run on several threads at once
		ports := productive(d.g, at, int(h.Dst), buf[:0])
		for _, p := range ports {
			out = append(out, sim.Choice{Port: p, VCs: adaptive, Pri: 0})
		}
	}
	port, class := escapeDOR(d.g, at, int(h.Dst))
	return append(out, sim.Choice{Port: port, VCs: 1 << uint(min(class, d.esc-1)), Pri: 1})
}

func (d *Duato) Advance(at int, h *sim.Header, port, vc int) {}

// Escape: the escape VCs are the escape subfunction's.
func (d *Duato) Escape(at int, h *sim.Header, port, vc int) bool { return vc < d.esc }
