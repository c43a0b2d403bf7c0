package routing

// The two-class Duato routing seed 001 compares Red Rover against (Draper and
// Petrini, section 2, after Duato, IEEE TPDS 6(10), 1995, seed 001's reference
// [8]): dimension order on a torus, the VCs of a link split into classes A (lower
// half) and B (upper half). Any message may take A; B only a message going + at a
// coordinate below its destination's, or going - above it: one whose route no
// longer crosses the ring's wrap link. The escape subfunction R1 is Dally and
// Seitz's spiral: A for a message with the wrap link still ahead, B after it (or
// when it never crosses); a message without the wrap ahead may also take A
// adaptively. `wormlab deadlock` checks Duato's condition with that R1.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DuatoDP is seed 001's two-class Duato dimension-order routing.
type DuatoDP struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*DuatoDP)(nil)

func init() {
	Register(Algorithm{
		Name:    "duato-dp",
		Atomic:  true,
		Summary: "seed 001's Duato variant: dimension order, class A for any message, B once the wrap link is behind",
		MinVCs: func(net topology.Network) (int, error) {
			_, err := gridOf("duato-dp", net, "torus")
			return 2, err
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("duato-dp", net, "torus")
			if err != nil {
				return nil, err
			}
			return &DuatoDP{g: g, vcs: vcs}, nil
		},
	})
}

func (d *DuatoDP) Start(h *sim.Header, r *rand.Rand)                  {}
func (d *DuatoDP) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (d *DuatoDP) Advance(at int, h *sim.Header, port, vc int)        {}

func (d *DuatoDP) classes() (a, b uint64) {
	if d.vcs < 2 {
		return 1, 1
	}
	return span(0, d.vcs/2), span(d.vcs/2, d.vcs)
}

func (d *DuatoDP) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	port, class := escapeDOR(d.g, at, int(h.Dst))
	a, b := d.classes()
	if class == 1 { // the wrap link is ahead: A only
		return append(out, sim.Choice{Port: port, VCs: a, Pri: 1})
	}
	return append(out, sim.Choice{Port: port, VCs: b, Pri: 1}, sim.Choice{Port: port, VCs: a, Pri: 0})
}

// Escape: A before the wrap link, B after it.
func (d *DuatoDP) Escape(at int, h *sim.Header, port, vc int) bool {
	_, class := escapeDOR(d.g, at, int(h.Dst))
	a, _ := d.classes()
	inA := a>>uint(vc)&1 == 1
	return inA == (class == 1)
}
