package routing

// DAL, dimensionally-adaptive load-balanced routing on HyperX (Ahn, Binkert, Davis,
// McLaren and Schreiber, SC 2009, section 4.2): at every router a packet may take a
// hop in any unaligned dimension, either straight to the destination's coordinate or,
// once per dimension, a deroute to another coordinate of that dimension (a
// non-minimal hop that leaves the dimension unaligned); a packet thus takes at most
// two hops per dimension and at most 2L in all. Deadlock freedom as the paper
// argues it, by an escape path (Duato, IEEE TPDS 4(12), 1993): VC 0 carries
// dimension-order routing (hx-dor, acyclic on its own), VCs 1 .. V-1 the adaptive
// hops; from every router the escape leads to the destination, so two VCs suffice
// under Duato's condition, which the deadlock checker verifies. Priorities: minimal
// adaptive hops 0, deroutes 1, the escape 2: the selection derouted only when no
// minimal channel is free, as the paper derouted a packet whose minimal channels are
// congested. With one VC (an unsafe run) every hop shares VC 0 and deroutes close
// cycles.
//
// Header use: Aux[0] bit k set once the packet has derouted in dimension k.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// HXDAL is DAL on a HyperX.
type HXDAL struct {
	x   *topology.HyperX
	vcs int
}

var _ sim.Routing = (*HXDAL)(nil)

func init() {
	Register(Algorithm{
		Name:    "hx-dal",
		Summary: "HyperX DAL: adaptive over unaligned dimensions, one deroute per dimension, dimension-order escape on VC 0 (Ahn et al. 2009)",
		MinVCs:  hyperxVCs("hx-dal", 2),
		Atomic:  true,
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			x, err := hyperxOf("hx-dal", net)
			if err != nil {
				return nil, err
			}
			return &HXDAL{x, vcs}, nil
		},
	})
}

func (r *HXDAL) Start(h *sim.Header, _ *rand.Rand) { h.Aux[0] = 0 }
func (r *HXDAL) Starts(h sim.Header, out []sim.Header) []sim.Header {
	h.Aux[0] = 0
	return append(out, h)
}

// adaptive is the VC set of adaptive hops (VC 0 too when it is the only one).
func (r *HXDAL) adaptive() uint64 {
	if r.vcs == 1 {
		return 1
	}
	return span(1, r.vcs)
}

func (r *HXDAL) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	x, dst := r.x, int(h.Dst)
	for k := range x.Dims() {
		own, want := x.Coord(at, k), x.Coord(dst, k)
		if own == want {
			continue
		}
		out = hxHop(x, at, k, want, r.adaptive(), 0, out)
		if h.Aux[0]>>uint(k)&1 == 0 {
			for c := range x.Side(k) {
				if c != own && c != want {
					out = hxHop(x, at, k, c, r.adaptive(), 1, out)
				}
			}
		}
	}
	k := hxFirst(x, at, dst)
	return hxHop(x, at, k, x.Coord(dst, k), 1, 2, out)
}

// Escape reports whether the hop is the escape subfunction's: dimension order on
// VC 0.
func (r *HXDAL) Escape(at int, h *sim.Header, port, vc int) bool {
	if vc != 0 {
		return false
	}
	k, c := r.x.PortDim(at, port)
	return k == hxFirst(r.x, at, int(h.Dst)) && c == r.x.Coord(int(h.Dst), k)
}

// Advance records a deroute.
func (r *HXDAL) Advance(at int, h *sim.Header, port, _ int) {
	k, c := r.x.PortDim(at, port)
	if c != r.x.Coord(int(h.Dst), k) {
		h.Aux[0] |= 1 << uint(k)
	}
}
