package routing

// The most choices each routing's Route gives one head (sim.Branching), which the
// simulator's memory estimate counts per input VC (sim.EngineBytes: a VC keeps
// its heads' choices in an array that grows to the largest answer). Routings that
// give one choice a head (dor, dor-booksim, df-min, df-valiant, fly-tag,
// redrover, valiant) need none. The bounds below follow each Route; the
// exhaustive state tests (TestEveryReachableStateExhaustive,
// TestTopologyRoutingStates) check every answer against them, and sim's
// TestEngineBytesCountsChoices the memory of a run.

import (
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// productiveMost is the most productive ports a head has on grid g: one a
// dimension, two where a torus of even side puts the destination halfway round
// (both directions are minimal).
func productiveMost(g *topology.Grid) int {
	n := 0
	for i := range g.Dims() {
		n++
		if g.Wrap() && g.Side(i)%2 == 0 {
			n++
		}
	}
	return n
}

// mostPorts is the largest port count of a router of net (any-min and
// any-updown offer a subset of a router's ports).
func mostPorts(net topology.Network) int {
	m := 1
	for r := range net.Nodes() {
		m = max(m, net.Ports(r))
	}
	return m
}

// the productive ports, and the escape
func (d *Duato) MaxChoices() int { return productiveMost(d.g) + 1 }

// one port, on two VC sets of different priorities
func (d *DuatoDP) MaxChoices() int { return 2 }

// a port a dimension on the adaptive VC, and the escape
func (m *MinAdapt) MaxChoices() int { return m.g.Dims() + 1 }

// the productive ports
func (n *NBC) MaxChoices() int    { return productiveMost(n.g) }
func (n *NegHop) MaxChoices() int { return productiveMost(n.g) }
func (p *PosHop) MaxChoices() int { return productiveMost(p.g) }

// a port a dimension not yet aligned
func (p *Pn) MaxChoices() int   { return p.g.Dims() }
func (p *Pn2n) MaxChoices() int { return p.g.Dims() }

// at most one port of each of the two dimensions
func (t *Turn) MaxChoices() int { return 2 }

// both up links
func (u *UpDown) MaxChoices() int { return 2 }

// the minimal and the non-minimal route's next hop, undecided
func (r *DFPAR) MaxChoices() int         { return 2 }
func (r *DFUGAL) MaxChoices() int        { return 2 }
func (r *DFUGALBookSim) MaxChoices() int { return 2 }

// every link toward the destination's coordinate in the first unaligned dimension
func (r *HXDOR) MaxChoices() int {
	m := 1
	for k := range r.x.Dims() {
		m = max(m, r.x.Mult(k))
	}
	return m
}

// in every unaligned dimension each link to each other coordinate (the minimal
// hop and the deroutes), and the escape's links
func (r *HXDAL) MaxChoices() int {
	n, esc := 0, 1
	for k := range r.x.Dims() {
		n += (r.x.Side(k) - 1) * r.x.Mult(k)
		esc = max(esc, r.x.Mult(k))
	}
	return n + esc
}

// a subset of a router's ports
func (m *AnyMin) MaxChoices() int    { return mostPorts(m.t.net) }
func (u *AnyUpDown) MaxChoices() int { return mostPorts(u.t.net) }

// the longest entry (an EscapeTable's is its Table's)
func (t *Table) MaxChoices() int {
	m := 1
	for _, ch := range t.choices {
		m = max(m, len(ch))
	}
	return m
}

var (
	_ sim.Branching = (*Duato)(nil)
	_ sim.Branching = (*HXDAL)(nil)
	_ sim.Branching = (*Table)(nil)
)
