package routing

// Red Rover (seed 001, Draper and Petrini, section 3; the ring algorithm is J.
// Draper, The Red Rover algorithm for deadlock-free routing on bidirectional rings,
// PDPTA 1996, seed 001's reference [7]). Within each dimension the VCs of a link
// form two classes, A (the lower half) and B (the upper half); a message that
// enters a dimension on A stays on A for the whole dimension, likewise B, and
// dimensions are corrected in order. The copy of seed 001 does not say how the
// class is chosen; the reading here (derived from the deadlock argument, and the
// same two datelines half a ring apart as BookSim2's dim_order_bal_torus): class A
// never crosses the A dateline, the wrap link between k-1 and 0; class B never
// crosses the B dateline, the link between floor(k/2)-1 and floor(k/2). A minimal
// route takes at most floor(k/2) hops in a ring, so it crosses at most one
// dateline and can always use one class; a route that crosses neither may use
// either (the router picks a free VC of both). Neither class has a dependency
// cycle, since each is cut at its dateline. 2 VCs per channel on a torus; on a mesh
// every route may use both classes.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// RedRover is dimension order with Red Rover's two dateline classes per ring.
type RedRover struct {
	g   *topology.Grid
	vcs int
}

var _ sim.Routing = (*RedRover)(nil)

func init() {
	Register(Algorithm{
		Name:    "redrover",
		Summary: "Red Rover: dimension order, classes A and B cut at datelines half a ring apart (seed 001)",
		MinVCs:  gridVCs("redrover", 2, 1),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("redrover", net, "")
			if err != nil {
				return nil, err
			}
			return &RedRover{g: g, vcs: vcs}, nil
		},
	})
}

// Class: 0 while a dimension's class is open, 1 on A, 2 on B (reset on turning).

func (r *RedRover) Start(h *sim.Header, rng *rand.Rand)                {}
func (r *RedRover) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }

// crosses reports whether the route from at to dst going dir in dimension i
// crosses the link between x and x+1 (mod k) of that ring.
func (r *RedRover) crosses(at, dst, i, dir, x int) bool {
	k := r.g.Side(i)
	a, b := r.g.Coord(at, i), r.g.Coord(dst, i)
	if dir > 0 { // the links a, a+1, ..., b-1 (from a to a+1, ...)
		return ((x-a)%k+k)%k < ((b-a)%k+k)%k
	}
	// going down from a to b uses the links (a-1 -> a), ..., (b -> b+1) backwards
	return ((a-1-x)%k+k)%k < ((a-b)%k+k)%k
}

func (r *RedRover) classMask(c int) uint64 {
	if r.vcs < 2 {
		return 1
	}
	if c == 1 {
		return span(0, r.vcs/2)
	}
	return span(r.vcs/2, r.vcs)
}

func (r *RedRover) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	for i := range r.g.Dims() {
		d := dirOf(r.g, at, int(h.Dst), i)
		if d == 0 {
			continue
		}
		port := topology.Port(i, d)
		if h.Port >= 0 && int(h.Port)/2 == i && h.Class != 0 {
			return append(out, sim.Choice{Port: port, VCs: r.classMask(int(h.Class))})
		}
		var m uint64
		if !r.g.Wrap() {
			m = span(0, r.vcs)
		} else {
			k := r.g.Side(i)
			if !r.crosses(at, int(h.Dst), i, d, k-1) {
				m |= r.classMask(1)
			}
			if !r.crosses(at, int(h.Dst), i, d, k/2-1) {
				m |= r.classMask(2)
			}
		}
		return append(out, sim.Choice{Port: port, VCs: m})
	}
	return out
}

// Advance fixes the class of the dimension on its first hop.
func (r *RedRover) Advance(at int, h *sim.Header, port, vc int) {
	if h.Port >= 0 && int(h.Port)/2 == port/2 && h.Class != 0 {
		return
	}
	h.Class = 1
	if r.vcs >= 2 && vc >= r.vcs/2 {
		h.Class = 2
	}
}
