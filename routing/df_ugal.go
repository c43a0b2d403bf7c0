package routing

// UGAL on the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008, section 4.2, after
// Singh's universal globally-adaptive load-balanced routing): at the source router
// each packet chooses between the minimal route and Valiant's route through a group
// drawn at random (dragonfly.go), taking the minimal one when
//
//	q_min * H_min <= q_nonmin * H_nonmin,
//
// H the hop counts of the two routes from the source router and q their queues:
//
//   - ugal-l (UGAL-L): the queues of the source router's own output ports on the
//     two routes' first hops (local information);
//   - ugal-g (UGAL-G, the ideal the paper compares with): the queues of the two
//     routes' global channels, wherever in the source group they are.
//
// A queue is the flits in the buffers behind the port (sim.Congestion: BookSim2's
// GetUsedCredit). VC classes are Valiant's (three; dragonfly.go). The choice is
// made once, where the head is routed at the source router; the first hop's VC
// class tells which route it took (1 minimal, 0 not; with one VC, an unsafe run,
// the port, and a first hop both routes share counts as Valiant's). Unbound (the
// deadlock checker) UGAL offers both routes at the source.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DFUGAL is UGAL-L or UGAL-G on a dragonfly.
type DFUGAL struct {
	dfPaths
	global bool           // UGAL-G
	c      sim.Congestion // the network's state (nil: unbound)
}

var (
	_ sim.Routing = (*DFUGAL)(nil)
	_ sim.Sensing = (*DFUGAL)(nil)
)

func init() {
	for _, global := range []bool{false, true} {
		name, summary := "df-ugal-l", "dragonfly UGAL-L: minimal or Valiant chosen at the source by its own output queues x hops (Kim et al. 2008)"
		if global {
			name, summary = "df-ugal-g", "dragonfly UGAL-G: minimal or Valiant chosen at the source by the global channels' queues x hops (Kim et al. 2008)"
		}
		Register(Algorithm{
			Name:    name,
			Summary: summary,
			MinVCs:  dragonflyVCs(name, 3),
			New: func(net topology.Network, vcs int) (sim.Routing, error) {
				d, err := dragonflyOf(name, net)
				if err != nil {
					return nil, err
				}
				return &DFUGAL{dfPaths: dfPaths{d: d, cls: dfClasses{vcs, 3}, valiant: true}, global: global}, nil
			},
		})
	}
}

// Sense binds the routing to a network's state.
func (r *DFUGAL) Sense(c sim.Congestion) sim.Routing {
	b := *r
	b.c = c
	return &b
}

func (r *DFUGAL) Start(h *sim.Header, rr *rand.Rand)                 { r.draw(h, rr) }
func (r *DFUGAL) Starts(h sim.Header, out []sim.Header) []sim.Header { return r.starts(h, out) }

// undecided reports whether the packet is at its source router with both routes
// open.
func (r *DFUGAL) undecided(h *sim.Header) bool { return h.Hops == 0 && h.Aux[0] >= 0 }

func (r *DFUGAL) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	switch {
	case r.phase1(h):
		return append(out, r.minChoice(at, h))
	case !r.undecided(h):
		return append(out, r.nonminChoice(at, h))
	case r.c == nil:
		return append(out, r.minChoice(at, h), r.nonminChoice(at, h))
	case r.minimal(at, h):
		return append(out, r.minChoice(at, h))
	}
	return append(out, r.nonminChoice(at, h))
}

// minimal is UGAL's choice at the source router at.
func (r *DFUGAL) minimal(at int, h *sim.Header) bool {
	d, dst, gi, m := r.d, int(h.Dst), int(h.Aux[0]), int(h.Aux[2])
	var qm, qn int
	if r.global {
		// a minimal route inside the group has no global channel: no queue, so
		// qm = 0 and the minimal route is taken whatever the other's queue
		if d.Group(at) == d.Group(dst) {
			return true
		}
		x, p := d.Toward(d.Group(at), d.Group(dst), m)
		qm = r.c.Queue(x, p)
		x, p = d.Toward(d.Group(at), gi, m)
		qn = r.c.Queue(x, p)
	} else {
		qm = r.c.Queue(at, d.MinPort(at, dst, m))
		qn = r.c.Queue(at, d.PortToward(at, gi, m))
	}
	return qm*dfMinHops(d, at, dst, m) <= qn*dfNonminHops(d, at, gi, dst, m)
}

// Advance records the source's choice (from the first hop's port and VC class)
// and counts global channels.
func (r *DFUGAL) Advance(at int, h *sim.Header, port, vc int) {
	if r.undecided(h) {
		mp := r.d.MinPort(at, int(h.Dst), int(h.Aux[2]))
		np := r.d.PortToward(at, int(h.Aux[0]), int(h.Aux[2]))
		if port != np || (port == mp && r.cls.class(vc) >= 1) {
			h.Aux[0] = -1
		}
	}
	r.advance(h, port)
}
