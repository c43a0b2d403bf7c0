package routing

// Progressive adaptive routing (PAR) on the dragonfly (N. Jiang, J. Kim, W. J. Dally,
// Indirect adaptive routing on large scale interconnection networks, ISCA 2009,
// section 4): UGAL-L's choice at the source router (df_ugal.go), re-made at the
// next router of the source group when the packet left minimally: the router R_a
// that holds the minimal route's global channel may still send it the other way,
// through the intermediate group drawn at the source, before the packet crosses a
// global channel. A packet takes at most two local hops in its source group.
//
// VC classes (four; the paper adds one to UGAL's three): a local hop in the source
// group takes the number of hops taken before it (0 or 1), the first global channel
// 1, the intermediate group's local hop and the second global channel 2, the
// destination group 3 (a minimal route: 0, 1, 3; one re-routed at R_a: 0, 1, 1, 2, 2,
// 3). Classes never fall along a route, class 1 chains are a local hop then a global
// one, class 2 chains a local then a global hop, classes 0 and 3 single local hops:
// the dependency graph is acyclic. With three VCs (an unsafe run) classes share VCs
// and the checker finds a cycle.
//
// Header use: Class is the number of global channels crossed; Aux[0] the
// intermediate group (-1: none drawn or routed minimally for good); Aux[1] the
// choice so far (0 none yet, 1 minimal and open to a change at R_a, 2 non-minimal);
// Aux[2] the trunk channel. Unbound (the deadlock checker) PAR offers both routes
// at the source and at R_a.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DFPAR is progressive adaptive routing on a dragonfly.
type DFPAR struct {
	dfPaths
	c sim.Congestion
}

var (
	_ sim.Routing = (*DFPAR)(nil)
	_ sim.Sensing = (*DFPAR)(nil)
)

func init() {
	Register(Algorithm{
		Name:    "df-par",
		Summary: "dragonfly PAR: UGAL-L at the source, re-made at the next router of the source group; 4 VC classes (Jiang, Kim, Dally 2009)",
		MinVCs:  dragonflyVCs("df-par", 4),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			d, err := dragonflyOf("df-par", net)
			if err != nil {
				return nil, err
			}
			return &DFPAR{dfPaths: dfPaths{d: d, cls: dfClasses{vcs, 4}, valiant: true}}, nil
		},
	})
}

// Sense binds the routing to a network's state.
func (r *DFPAR) Sense(c sim.Congestion) sim.Routing {
	b := *r
	b.c = c
	return &b
}

// Start draws as UGAL does; a packet for its own group goes minimally (one local
// hop, class 3).
func (r *DFPAR) Start(h *sim.Header, rr *rand.Rand) {
	r.draw(h, rr)
	r.local(h)
}

func (r *DFPAR) Starts(h sim.Header, out []sim.Header) []sim.Header {
	n := len(out)
	out = r.starts(h, out)
	seen := map[sim.Header]bool{}
	k := n
	for _, s := range out[n:] {
		r.local(&s)
		if !seen[s] {
			seen[s] = true
			out[k] = s
			k++
		}
	}
	return out[:k]
}

func (r *DFPAR) local(h *sim.Header) {
	if r.d.Group(int(h.Src)) == r.d.Group(int(h.Dst)) {
		h.Aux[0] = -1
	}
}

// open reports whether the packet may still choose: in its source group, with an
// intermediate group drawn, not yet committed to the non-minimal route.
func (r *DFPAR) open(h *sim.Header) bool { return h.Class == 0 && h.Aux[0] >= 0 && h.Aux[1] < 2 }

// class of a hop by port from the packet's state (see the file comment).
func (r *DFPAR) class(at int, h *sim.Header, port int) int {
	switch {
	case h.Class == 0 && r.d.Group(at) == r.d.Group(int(h.Dst)):
		return 3 // within the destination group from the start
	case h.Class == 0 && r.d.Global(port):
		return 1
	case h.Class == 0:
		return min(int(h.Hops), 1)
	case h.Class == 1 && h.Aux[1] == 2:
		return 2 // in the intermediate group, and its global channel
	}
	return 3
}

func (r *DFPAR) minChoice(at int, h *sim.Header) sim.Choice {
	p := r.d.MinPort(at, int(h.Dst), int(h.Aux[2]))
	return sim.Choice{Port: p, VCs: r.cls.mask(r.class(at, h, p))}
}

func (r *DFPAR) nonminChoice(at int, h *sim.Header) sim.Choice {
	p := r.d.PortToward(at, int(h.Aux[0]), int(h.Aux[2]))
	return sim.Choice{Port: p, VCs: r.cls.mask(r.class(at, h, p))}
}

func (r *DFPAR) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	switch {
	case h.Aux[1] == 2 && h.Class == 0:
		return append(out, r.nonminChoice(at, h))
	case h.Aux[1] == 2 && h.Class == 1:
		// through the intermediate group towards the destination: class 2
		p := r.d.MinPort(at, int(h.Dst), int(h.Aux[2]))
		return append(out, sim.Choice{Port: p, VCs: r.cls.mask(r.class(at, h, p))})
	case !r.open(h):
		return append(out, r.minChoice(at, h))
	case r.c == nil:
		return append(out, r.minChoice(at, h), r.nonminChoice(at, h))
	}
	d, dst, gi, m := r.d, int(h.Dst), int(h.Aux[0]), int(h.Aux[2])
	qm := r.c.Queue(at, d.MinPort(at, dst, m))
	qn := r.c.Queue(at, d.PortToward(at, gi, m))
	if qm*dfMinHops(d, at, dst, m) <= qn*dfNonminHops(d, at, gi, dst, m) {
		return append(out, r.minChoice(at, h))
	}
	return append(out, r.nonminChoice(at, h))
}

// Advance records a choice made at the source or at R_a (a first hop both routes
// share counts as minimal: R_a chooses again) and counts global channels.
func (r *DFPAR) Advance(at int, h *sim.Header, port, _ int) {
	if r.open(h) {
		if port == r.d.MinPort(at, int(h.Dst), int(h.Aux[2])) {
			h.Aux[1] = 1
		} else {
			h.Aux[1] = 2
		}
	}
	if r.d.Global(port) {
		h.Class++
		if h.Aux[1] != 2 {
			h.Aux[0] = -1 // minimal for good
		}
	}
}
