package routing

// Valiant's randomised routing (L. G. Valiant, G. J. Brebner, Universal schemes for
// parallel communication, STOC 1981) on tori and meshes: a message goes to an
// intermediate node drawn uniformly at random at its source, then to its
// destination, each phase by dimension order. Each phase has its own dateline
// classes (the stateless rule: class 1 while the ring's wrap link is ahead), so the
// VC of a hop is 2 * phase + class on a torus (4 VCs, as BookSim2's valiant_torus
// needs) and the phase on a mesh (2 VCs). Not minimal.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Valiant is two-phase randomised dimension-order routing.
type Valiant struct {
	g       *topology.Grid
	vcs     int
	classes int
}

var _ sim.Routing = (*Valiant)(nil)

func init() {
	Register(Algorithm{
		Name:    "valiant",
		Summary: "Valiant: dimension order to a random intermediate node, then to the destination (Valiant and Brebner 1981)",
		MinVCs:  gridVCs("valiant", 4, 2),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("valiant", net, "")
			if err != nil {
				return nil, err
			}
			c := 1
			if g.Wrap() {
				c = 2
			}
			return &Valiant{g: g, vcs: vcs, classes: c}, nil
		},
	})
}

// Class is the phase (0: to the intermediate Aux[1], 1: to the destination).

func (v *Valiant) Start(h *sim.Header, r *rand.Rand) {
	v.start(h, r.IntN(v.g.Nodes()))
}

func (v *Valiant) start(h *sim.Header, mid int) {
	h.Aux[1] = int32(mid)
	h.Class = 0
	if mid == int(h.Src) || mid == int(h.Dst) {
		h.Class, h.Aux[1] = 1, 0
	}
}

func (v *Valiant) Starts(h sim.Header, out []sim.Header) []sim.Header {
	for mid := range v.g.Nodes() {
		s := h
		v.start(&s, mid)
		out = append(out, s)
	}
	return out
}

func (v *Valiant) target(h *sim.Header) int {
	if h.Class == 0 {
		return int(h.Aux[1])
	}
	return int(h.Dst)
}

func (v *Valiant) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	port, class := escapeDOR(v.g, at, v.target(h))
	vc := min(int(h.Class)*v.classes+min(class, v.classes-1), v.vcs-1)
	return append(out, sim.Choice{Port: port, VCs: 1 << uint(vc)})
}

// Arrived: a packet ends at its destination in phase 1 only; in phase 0 it goes
// on to the intermediate node (sim.Arriver).
func (v *Valiant) Arrived(h *sim.Header) bool { return h.Class == 1 }

var _ sim.Arriver = (*Valiant)(nil)

// Advance enters phase 1 on reaching the intermediate node.
func (v *Valiant) Advance(at int, h *sim.Header, port, vc int) {
	if next, _ := v.g.Link(at, port); h.Class == 0 && next == int(h.Aux[1]) {
		h.Class, h.Aux[1] = 1, 0 // the intermediate no longer matters
	}
}
