package routing

// Dimension-order routing on HyperX and the flattened butterfly (Ahn et al., SC
// 2009, section 4; Kim, Dally and Abts, ISCA 2007, section 4.1, "minimal
// deterministic"; BookSim2's flatfly ran_min): correct dimensions in order 0, 1, ...,
// each in one hop straight to the destination's coordinate (the routers of a line
// are fully connected), by any copy of a multiple link. A channel of dimension k
// leads only to channels of higher dimensions or to the destination, so one VC is
// deadlock-free; every VC is offered.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// HXDOR is dimension-order routing on a HyperX.
type HXDOR struct {
	x   *topology.HyperX
	vcs int
}

var _ sim.Routing = (*HXDOR)(nil)

func init() {
	Register(Algorithm{
		Name:    "hx-dor",
		Summary: "HyperX / flattened butterfly dimension order: one hop per unaligned dimension, lowest first (Ahn et al. 2009)",
		MinVCs:  hyperxVCs("hx-dor", 1),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			x, err := hyperxOf("hx-dor", net)
			if err != nil {
				return nil, err
			}
			return &HXDOR{x, vcs}, nil
		},
	})
}

func (r *HXDOR) Start(*sim.Header, *rand.Rand)                      {}
func (r *HXDOR) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (r *HXDOR) Advance(int, *sim.Header, int, int)                 {}

func (r *HXDOR) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	dst := int(h.Dst)
	k := hxFirst(r.x, at, dst)
	return hxHop(r.x, at, k, r.x.Coord(dst, k), span(0, r.vcs), 0, out)
}
