package routing

// Pn, the fully adaptive algorithm seed 003 compares (its section 2: an n-bit tag
// computed from source and destination selects, on the links of the dimensions
// still to be corrected, the virtual channel a message takes). The copy lost the
// formulas; this is the construction of the paper seed 003 cites for it (Linder and
// Harden, An adaptive and fault tolerant wormhole routing strategy for k-ary
// n-cubes, IEEE Trans. Computers 40(1), 1991), read as follows. The tag holds the
// direction of every dimension but the first (+ or -, a tie drawn at the source):
// its 2^(n-1) values are virtual networks in which those dimensions are monotone,
// while dimension 0 may go either way, so no turn cycle closes within one. On a
// torus each virtual network has n + 1 levels: a message starts at level 0 and
// rises one level each time it crosses a wrap link, which a minimal route does at
// most once per dimension. The VC of a hop is tag * levels + level; a message may
// take any minimal direction consistent with its tag.
//
// VCs: 2^(n-1) on a mesh, 2^(n-1) (n + 1) on a torus (6 on a 2-D torus).

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Pn is Linder-Harden style fully adaptive routing with virtual networks.
type Pn struct {
	g      *topology.Grid
	vcs    int
	levels int
}

var _ sim.Routing = (*Pn)(nil)

func pnVCs(g *topology.Grid) int {
	v := 1 << uint(g.Dims()-1)
	if g.Wrap() {
		v *= g.Dims() + 1
	}
	return v
}

func init() {
	Register(Algorithm{
		Name:    "pn",
		Summary: "Pn: fully adaptive with 2^(n-1) virtual networks, n+1 wrap levels on tori (seed 003; Linder and Harden 1991)",
		MinVCs: func(net topology.Network) (int, error) {
			g, err := gridOf("pn", net, "")
			if err != nil {
				return 0, err
			}
			return pnVCs(g), nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("pn", net, "")
			if err != nil {
				return nil, err
			}
			levels := 1
			if g.Wrap() {
				levels = g.Dims() + 1
			}
			return &Pn{g: g, vcs: vcs, levels: levels}, nil
		},
	})
}

// Aux[0] bit i: dimension i goes the - way. Class: the wrap links crossed.

func (p *Pn) dirs(h *sim.Header, r *rand.Rand, m int) int32 {
	var bits int32
	for i := range p.g.Dims() {
		d := dirOf(p.g, int(h.Src), int(h.Dst), i)
		if p.g.Tie(int(h.Src), int(h.Dst), i) {
			if r != nil {
				d = 1 - 2*r.IntN(2)
			} else {
				d = 1 - 2*(m>>uint(i)&1)
			}
		}
		if d < 0 {
			bits |= 1 << uint(i)
		}
	}
	return bits
}

func (p *Pn) Start(h *sim.Header, r *rand.Rand) {
	h.Class = 0
	h.Aux[0] = p.dirs(h, r, 0)
}

func (p *Pn) Starts(h sim.Header, out []sim.Header) []sim.Header {
	seen := map[int32]bool{}
	for m := range 1 << uint(p.g.Dims()) {
		s := h
		s.Class = 0
		s.Aux[0] = p.dirs(&h, nil, m)
		if !seen[s.Aux[0]] {
			seen[s.Aux[0]] = true
			out = append(out, s)
		}
	}
	return out
}

func (p *Pn) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	tag := int(h.Aux[0]) >> 1
	vc := min(tag*p.levels+int(h.Class), p.vcs-1)
	for i := range p.g.Dims() {
		if p.g.Coord(at, i) == p.g.Coord(int(h.Dst), i) {
			continue
		}
		d := 1
		if h.Aux[0]>>uint(i)&1 == 1 {
			d = -1
		}
		out = append(out, sim.Choice{Port: topology.Port(i, d), VCs: 1 << uint(vc)})
	}
	return out
}

// Advance rises a level on a wrap link.
func (p *Pn) Advance(at int, h *sim.Header, port, vc int) {
	if crossesWrap(p.g, at, port) {
		h.Class++
	}
}
