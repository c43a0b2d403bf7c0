package routing

// BookSim2's UGAL on its dragonfly (booksim/booksim2, src/networks/dragonfly.cpp:
// ugal_dragonflynew), for side-by-side runs with the simulator wormlab is measured
// against. Read from its source, written anew here. It differs from df-ugal-l
// (the paper's UGAL-L) in three rules:
//
//   - the intermediate is a router drawn uniformly among all routers (BookSim draws
//     a node), and the non-minimal phase ends at that router, not on entering its
//     group: a packet may take two local hops in the intermediate group;
//   - the choice at the source router is minimal when q_min <= 2 q_nonmin + 30, q
//     the flits behind the two first hops' output ports (GetUsedCredit), whatever
//     the routes' hop counts; a destination in the source's group, or an
//     intermediate there, is routed minimally;
//   - VCs are phases: 0 for every hop to the intermediate router, 1 for the
//     minimal phase's hops before its global channel, 2 for that global channel
//     and after. A phase-0 route is a local, a global and at most one local hop; a
//     phase-1 route local hops within one group; phase 2 a global then a local hop
//     (BookSim asserts exactly 3 VCs; more split the phases in thirds, as
//     dragonfly.go does).
//
// A finding: phase 0 is not deadlock-free. A packet's local hop in its
// intermediate group and another packet's first hop in its source group are the
// same channel on VC 0, so VC 0 chains local, global, local, global, ... round the
// groups: the checker finds a cycle of six channels on every size, BookSim's own
// k = 2 dragonfly included (TestBookSimUGALCycle). The paper's assignment
// (df-ugal-l) gives the intermediate group's hops their own class.
//
// Header use: Class is the phase; Aux[0] the intermediate router (-1: minimal);
// Aux[1] the VC class of phase 0's hops (0; with PaperVCs 1 once its global
// channel is crossed); Aux[2] the trunk channel (0: BookSim's dragonfly has one channel between two
// groups).

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DFUGALBookSim is BookSim2's UGAL on a dragonfly. Its rules may be set to the
// paper's one at a time (docs/dragonfly.md traces BookSim2's worst-case throughput
// to them; NewDFUGALBookSim gives BookSim2's): Threshold, the bias in flits towards
// the minimal route (BookSim2's 30, the paper's 0); HopWeights, which weighs the
// two queues by their routes' hop counts from the source router (the paper's
// UGAL-L) instead of BookSim2's constant 1 and 2; GroupMid, which ends the
// non-minimal phase on entering the intermediate router's group (the paper's
// intermediate group) instead of at that router; PaperVCs, which puts the
// non-minimal phase's hops after its global channel on VC class 1 instead of 0
// (the paper's class: global channels crossed). None of them is proved
// deadlock-free here.
type DFUGALBookSim struct {
	d          *topology.Dragonfly
	cls        dfClasses
	c          sim.Congestion
	Threshold  int
	HopWeights bool
	GroupMid   bool
	PaperVCs   bool
}

var (
	_ sim.Routing = (*DFUGALBookSim)(nil)
	_ sim.Sensing = (*DFUGALBookSim)(nil)
)

// ugalThreshold is BookSim's adaptive_threshold, the bias towards minimal routes.
const ugalThreshold = 30

// NewDFUGALBookSim builds BookSim2's UGAL for a dragonfly with vcs VCs. It is not
// in the registry: its channel dependency graph has a cycle whatever the VC count
// (package deadlock's TestBookSimUGALCycle names it), so no VC count makes it
// deadlock-free, and the registry's routings are proved at theirs.
func NewDFUGALBookSim(net topology.Network, vcs int) (*DFUGALBookSim, error) {
	d, err := dragonflyOf("df-ugal-booksim", net)
	if err != nil {
		return nil, err
	}
	return &DFUGALBookSim{d: d, cls: dfClasses{vcs, 3}, Threshold: ugalThreshold}, nil
}

// Sense binds the routing to a network's state.
func (r *DFUGALBookSim) Sense(c sim.Congestion) sim.Routing {
	b := *r
	b.c = c
	return &b
}

func (r *DFUGALBookSim) start(h *sim.Header, mid int) {
	h.Class, h.Aux[0], h.Aux[1], h.Aux[2] = 1, -1, 0, 0
	src, dst := int(h.Src), int(h.Dst)
	switch {
	case r.d.Group(src) == r.d.Group(dst):
		h.Class = 2 // BookSim's phase 2 for a packet that stays in its group
	case r.d.Group(mid) != r.d.Group(src):
		h.Aux[0] = int32(mid)
	}
}

func (r *DFUGALBookSim) Start(h *sim.Header, rr *rand.Rand) { r.start(h, rr.IntN(r.d.Nodes())) }

// Starts lists every state Start can give: one per intermediate router (those of
// the source's group give the same minimal state).
func (r *DFUGALBookSim) Starts(h sim.Header, out []sim.Header) []sim.Header {
	seen := map[sim.Header]bool{}
	for mid := range r.d.Nodes() {
		s := h
		r.start(&s, mid)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// undecided: at the source router with both routes open.
func (r *DFUGALBookSim) undecided(h *sim.Header) bool { return h.Hops == 0 && h.Aux[0] >= 0 }

// minChoice is the next hop towards the destination in the minimal phase (1, or 2
// from the global channel on).
func (r *DFUGALBookSim) minChoice(at int, h *sim.Header) sim.Choice {
	port := r.d.MinPort(at, int(h.Dst), 0)
	ph := max(int(h.Class), 1)
	if r.d.Global(port) {
		ph = 2
	}
	return sim.Choice{Port: port, VCs: r.cls.mask(ph)}
}

// midChoice is the next hop of phase 0, towards the intermediate router.
func (r *DFUGALBookSim) midChoice(at int, h *sim.Header) sim.Choice {
	return sim.Choice{Port: r.d.MinPort(at, int(h.Aux[0]), 0), VCs: r.cls.mask(int(h.Aux[1]))}
}

// reached reports whether router at ends phase 0 towards mid.
func (r *DFUGALBookSim) reached(at, mid int) bool {
	return at == mid || r.GroupMid && r.d.Group(at) == r.d.Group(mid)
}

func (r *DFUGALBookSim) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	switch {
	case h.Aux[0] < 0 || r.reached(at, int(h.Aux[0])):
		return append(out, r.minChoice(at, h))
	case !r.undecided(h):
		return append(out, r.midChoice(at, h))
	case r.c == nil:
		return append(out, r.minChoice(at, h), r.midChoice(at, h))
	}
	qm := r.c.Queue(at, r.d.MinPort(at, int(h.Dst), 0))
	qn := r.c.Queue(at, r.d.MinPort(at, int(h.Aux[0]), 0))
	wm, wn := 1, 2
	if r.HopWeights {
		mid := int(h.Aux[0])
		wm, wn = dfMinHops(r.d, at, int(h.Dst), 0), dfMinHops(r.d, at, mid, 0)+dfMinHops(r.d, mid, int(h.Dst), 0)
	}
	if wm*qm <= wn*qn+r.Threshold {
		return append(out, r.minChoice(at, h))
	}
	return append(out, r.midChoice(at, h))
}

// Advance records the source's choice (from the first hop's VC phase, or its port
// where phases share a VC), the end of phase 0 and the minimal phase's global
// channel.
func (r *DFUGALBookSim) Advance(at int, h *sim.Header, port, vc int) {
	if r.undecided(h) {
		mp := r.d.MinPort(at, int(h.Dst), 0)
		np := r.d.MinPort(at, int(h.Aux[0]), 0)
		if port != np || (port == mp && r.cls.class(vc) >= 1) {
			h.Aux[0] = -1
		}
	}
	next, _ := r.d.Link(at, port)
	switch {
	case h.Aux[0] >= 0 && r.reached(next, int(h.Aux[0])):
		h.Aux[0], h.Class = -1, 1 // the intermediate router reached: the minimal phase
	case h.Aux[0] >= 0:
		h.Class = 0 // phase 0 goes on
		if r.PaperVCs && r.d.Global(port) {
			h.Aux[1] = 1
		}
	case r.d.Global(port):
		h.Class = 2
	}
}
