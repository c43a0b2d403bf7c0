package routing

// What the dragonfly routings share (Kim, Dally, Scott and Abts, Technology-driven,
// highly-scalable dragonfly topology, ISCA 2008, section 4): the minimal route and
// the VC classes.
//
// Minimal route from router R_s of group G_s to R_d of G_d (section 4.1): a local
// hop to the router R_a of G_s that holds a global channel to G_d (none when R_s
// holds it), that global channel to R_b in G_d, a local hop to R_d (none when
// R_b = R_d): at most three hops, one global. With a trunk of several channels
// between two groups the packet uses the m-th, m drawn at the source.
//
// Non-minimal (Valiant's algorithm on groups, section 4.1): a minimal route to a
// group G_i drawn at random, then a minimal route to R_d: at most five hops, two
// global.
//
// VC classes (section 4.1: two VCs for minimal routing, three for non-minimal): a
// hop's class is the number of global channels the packet has crossed before it,
// plus one for a packet routed minimally (the figure of section 4.1: VC0 on the
// source group's local and global hops of a non-minimal route, VC1 in the
// intermediate group and on the second global hop, VC2 in the destination group;
// a minimal route takes VC1, VC1, VC2). Classes only grow along a route, and a
// packet takes at most one local hop per class, so there is no cycle of
// dependencies among local channels, and global channels of one class lead only to
// channels of a higher class: the channel dependency graph is acyclic. Minimal
// routing alone ("df-min") uses classes 0 and 1 (BookSim2's min_dragonflynew: VC 0
// before the global hop, VC 1 from it on). With V VCs, class c of C takes VCs
// c*V/C .. (c+1)*V/C - 1 (an unsafe run with V < C puts classes c >= V on VC V-1).
//
// Header use: Class is the number of global channels crossed; Aux[0] is the
// intermediate group (-1: minimal); Aux[2] the trunk channel m.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// dragonflyOf returns net as a dragonfly, or an error naming the algorithm.
func dragonflyOf(name string, net topology.Network) (*topology.Dragonfly, error) {
	d, ok := net.(*topology.Dragonfly)
	if !ok {
		return nil, fmt.Errorf("%s routes on dragonflies, not on %s", name, net)
	}
	return d, nil
}

// dragonflyVCs is the MinVCs of a dragonfly routing needing n VCs.
func dragonflyVCs(name string, n int) func(topology.Network) (int, error) {
	return func(net topology.Network) (int, error) {
		if _, err := dragonflyOf(name, net); err != nil {
			return 0, err
		}
		return n, nil
	}
}

// dfClasses maps VC classes onto vcs VCs.
type dfClasses struct{ vcs, classes int }

// mask is the VC set of class c.
func (k dfClasses) mask(c int) uint64 {
	if k.vcs < k.classes {
		return 1 << uint(min(c, k.vcs-1))
	}
	return span(c*k.vcs/k.classes, (c+1)*k.vcs/k.classes)
}

// class is the class VC vc belongs to (the lowest, when classes share it).
func (k dfClasses) class(vc int) int {
	for c := range k.classes {
		if k.mask(c)>>uint(vc)&1 == 1 {
			return c
		}
	}
	return k.classes - 1
}

// dfMinHops is the number of hops of the minimal route from router at to dst.
func dfMinHops(d *topology.Dragonfly, at, dst, m int) int {
	h := 0
	for at != dst {
		at, _ = d.Link(at, d.MinPort(at, dst, m))
		h++
	}
	return h
}

// dfNonminHops is the number of hops of the route from router at through group
// gi (!= at's group) to dst.
func dfNonminHops(d *topology.Dragonfly, at, gi, dst, m int) int {
	h := 0
	for d.Group(at) != gi {
		at, _ = d.Link(at, d.PortToward(at, gi, m))
		h++
	}
	return h + dfMinHops(d, at, dst, m)
}

// dfPaths is the state of a dragonfly packet and its two possible routes, shared by
// the minimal, Valiant and UGAL routings.
type dfPaths struct {
	d   *topology.Dragonfly
	cls dfClasses
	// valiant draws an intermediate group at the source (Valiant and UGAL).
	valiant bool
}

// start draws the trunk channel and, for a non-minimal routing, the intermediate
// group (minimal when it is the source's or the destination's).
func (p *dfPaths) start(h *sim.Header, gi, m int) {
	h.Class, h.Aux[0], h.Aux[1], h.Aux[2] = 0, -1, 0, int32(m)
	if p.valiant && gi != p.d.Group(int(h.Src)) && gi != p.d.Group(int(h.Dst)) {
		h.Aux[0] = int32(gi)
	}
}

func (p *dfPaths) draw(h *sim.Header, r *rand.Rand) {
	gi := 0
	if p.valiant {
		gi = r.IntN(p.d.G())
	}
	m := 0
	if p.d.Trunk() > 1 {
		m = r.IntN(p.d.Trunk())
	}
	p.start(h, gi, m)
}

// starts lists every state draw can give.
func (p *dfPaths) starts(h sim.Header, out []sim.Header) []sim.Header {
	groups := 1
	if p.valiant {
		groups = p.d.G()
	}
	seen := map[int32]bool{}
	for gi := range groups {
		for m := range p.d.Trunk() {
			s := h
			p.start(&s, gi, m)
			if !seen[s.Aux[0]*int32(p.d.Trunk())+int32(m)] {
				seen[s.Aux[0]*int32(p.d.Trunk())+int32(m)] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// phase1 reports whether the packet is routed minimally from here on to its
// destination (no intermediate group, or the intermediate group reached).
func (p *dfPaths) phase1(h *sim.Header) bool { return h.Aux[0] < 0 || h.Class > 0 }

// minChoice and nonminChoice are the next hop of the minimal route and of the route
// through the intermediate group, with their VC classes.
func (p *dfPaths) minChoice(at int, h *sim.Header) sim.Choice {
	c := int(h.Class) + 1
	if h.Aux[0] >= 0 && h.Class > 0 {
		c = int(h.Class) // a Valiant packet past its intermediate group
	}
	return sim.Choice{Port: p.d.MinPort(at, int(h.Dst), int(h.Aux[2])), VCs: p.cls.mask(c)}
}

func (p *dfPaths) nonminChoice(at int, h *sim.Header) sim.Choice {
	return sim.Choice{Port: p.d.PortToward(at, int(h.Aux[0]), int(h.Aux[2])), VCs: p.cls.mask(int(h.Class))}
}

// advance counts global channels.
func (p *dfPaths) advance(h *sim.Header, port int) {
	if p.d.Global(port) {
		h.Class++
	}
}
