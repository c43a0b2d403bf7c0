package routing

// BookSim2's min_adapt routing (booksim/booksim2, src/routefunc.cpp:
// min_adapt_torus and min_adapt_mesh), for side-by-side runs with the simulator
// wormlab is measured against. Read from its source, written anew here:
//
//   - torus: VCs 0 and 1 are a dimension-order escape with BookSim's dateline
//     classes (those of "dor-booksim": a dimension's class fixed on entering it);
//     a packet outside the escape VCs may take any minimal direction on VC 3 (and
//     only VC 3: BookSim leaves VC 2, and every VC above 3, unused; a tie, k/2 hops
//     either way, goes the - way) or the escape, whose class is computed as if the
//     packet were injected at the current router; a packet in an escape VC stays
//     in the escape. Needs 4 VCs.
//   - mesh: VC 0 is a dimension-order escape, every other VC adaptive over the
//     minimal directions; a packet in VC 0 stays there. Needs 2 VCs.
//
// Adaptive choices have priority 0, escape choices 1 (BookSim gives the adaptive
// outputs the higher priority). BookSim's default VC allocator (vc_allocator =
// islip, allocators/islip.cpp) ignores those priorities: an input VC takes the
// first granted output VC from its round-robin accept pointer, escape or not, so
// the escape VCs carry more packets than a strict preference for the adaptive VC
// gives. "minadapt-islip" is the same routing without the preference (escape
// choices at priority 0 too); with --select random it follows BookSim's latencies
// (docs/booksim.md, "min_adapt").
//
// BookSim2 runs min_adapt less adaptive than its routing function reads: the
// OutputSet holding a head's choices is a std::set whose order compares the
// priority alone (src/outputset.hpp, operator<), so a range added at a priority
// already present is taken for a duplicate and dropped. Of the adaptive ranges,
// one per dimension still to correct, all at priority 1, only the first added
// stays: the lowest such dimension's, the dimension-order direction. So a
// BookSim2 packet outside the escape goes by dimension order too, on the
// adaptive VCs or the escape. "minadapt-booksim" and "minadapt-booksim-islip" are
// minadapt and minadapt-islip with that rule (the adaptive choice of the lowest
// dimension still to correct alone): what BookSim2 runs, and what
// `wormlab sim --config` reads its min_adapt as (docs/booksim.md, "min_adapt on
// a mesh").

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// MinAdapt is BookSim2's minimal adaptive routing with a DOR escape.
type MinAdapt struct {
	g   *topology.Grid
	vcs int
	dor *DORBookSim
	// escPri is the escape choices' priority: 1 (minadapt), 0 (minadapt-islip)
	escPri int
	// first keeps only the first adaptive choice, the lowest dimension still to
	// correct (BookSim2's OutputSet, above)
	first bool
}

var _ sim.Routing = (*MinAdapt)(nil)

func init() {
	for _, v := range []struct {
		name, summary string
		escPri        int
		first         bool
	}{
		{"minadapt", "min_adapt as BookSim2's routing function reads: minimal adaptive in every dimension still to correct, with a dimension-order escape a packet never leaves (BookSim2 runs minadapt-booksim)", 1, false},
		{"minadapt-islip", "minadapt with no preference of the adaptive VC over the escape, as BookSim2's iSLIP VC allocator takes them", 0, false},
		{"minadapt-booksim", "min_adapt as BookSim2 runs it: its adaptive VCs offered only in the lowest dimension still to correct (its OutputSet keeps one range per priority)", 1, true},
		{"minadapt-booksim-islip", "minadapt-booksim under BookSim2's iSLIP VC allocator: no preference of the adaptive VC over the escape", 0, true},
	} {
		Register(Algorithm{
			Name:    v.name,
			Summary: v.summary,
			MinVCs:  gridVCs(v.name, 4, 2),
			New: func(net topology.Network, vcs int) (sim.Routing, error) {
				g, err := gridOf(v.name, net, "")
				if err != nil {
					return nil, err
				}
				esc := 1
				if g.Wrap() {
					esc = 2
				}
				d, err := NewDORBookSim(net, min(vcs, esc))
				if err != nil {
					return nil, err
				}
				return &MinAdapt{g: g, vcs: vcs, dor: d, escPri: v.escPri, first: v.first}, nil
			},
		})
	}
}

// inEscape reports whether the packet holds an escape VC.
func (m *MinAdapt) inEscape(h *sim.Header) bool {
	if h.VC < 0 {
		return false
	}
	if m.g.Wrap() {
		return h.VC <= 1
	}
	return h.VC == 0
}

func (m *MinAdapt) Start(h *sim.Header, r *rand.Rand) { m.dor.Start(h, r) }

func (m *MinAdapt) Starts(h sim.Header, out []sim.Header) []sim.Header {
	return m.dor.Starts(h, out)
}

func (m *MinAdapt) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if m.inEscape(h) {
		return m.dor.Route(at, h, out)
	}
	var adaptive uint64
	if m.g.Wrap() {
		if m.vcs > 3 {
			adaptive = 1 << 3
		}
	} else {
		adaptive = span(1, m.vcs)
	}
	if adaptive != 0 {
		g := m.g
		for i := range g.Dims() {
			off, tie := g.CoordOffset(g.Coord(at, i), g.Coord(int(h.Dst), i), i)
			if off == 0 {
				continue
			}
			dir := 1
			if off < 0 || tie {
				dir = -1
			}
			out = append(out, sim.Choice{Port: topology.Port(i, dir), VCs: adaptive})
			if m.first {
				break
			}
		}
	}
	// The escape as if injected here: the class is set anew for this dimension.
	e := *h
	e.Port, e.InPort, e.VC = -1, -1, -1
	n := len(out)
	out = m.dor.Route(at, &e, out)
	for k := n; k < len(out); k++ {
		out[k].Pri = m.escPri
	}
	return out
}

// Advance keeps the escape's class bookkeeping: entering the escape from an
// adaptive VC starts its class as at injection.
func (m *MinAdapt) Advance(at int, h *sim.Header, port, vc int) {
	if m.inEscape(h) {
		m.dor.Advance(at, h, port, vc)
		return
	}
	e := *h
	e.Port, e.InPort, e.VC = -1, -1, -1
	m.dor.Advance(at, &e, port, vc)
	h.Class = e.Class
}

// Escape: the escape VCs are the escape subfunction's.
func (m *MinAdapt) Escape(at int, h *sim.Header, port, vc int) bool {
	if m.g.Wrap() {
		return vc <= 1
	}
	return vc == 0
}
