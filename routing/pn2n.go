package routing

// Pn as seed 003 counts its virtual channels: 2^n per physical channel on a k-ary
// n-cube torus, 2^(n-1) on a mesh ("power n"; the paper's Pn uses fewer VCs than
// Linder and Harden's 2^(n-1)(n+1) and the fewest of its fully adaptive
// algorithms on tori). The copy lost the construction; this is wormlab's reading
// that reaches the count. A message's directions (+ or - in every dimension, a
// tie drawn at the source) select a virtual network in which it moves
// monotonically, so no turn cycle closes within one (Dally's mesh argument). The
// links of a dimension in one direction are shared by the 2^(n-1) networks whose
// other directions differ, and on a torus each of them has two VCs there: class 0
// while that dimension's wrap link is still ahead of the message, class 1 once it
// has been crossed (Dally and Seitz's dateline, per dimension). The VC of a hop in
// dimension i is (directions of the other dimensions) * 2 + (dimension i's wrap
// crossed). Unlike Linder and Harden's levels, the class counts only the hop's own
// dimension, and that is not enough: wormlab deadlock finds a cycle on every torus
// of two dimensions or more (on 4x4: around the x ring at y = 0 in VC 0, across its wrap link into +y, around
// the y ring at x = 0 and across its wrap link back into +x), because a class
// says nothing of the other dimension's wrap. (A ring has no other dimension:
// there the construction is Dally and Seitz's dateline, proven deadlock-free.) So
// this reading of the count is refuted; it stays registered (Refuted) so that its throughput can be set beside
// the proven Pn's, in runs that ask for unsafe configurations (docs/seed003.md).
//
// VCs: 2^n on a torus, 2^(n-1) on a mesh.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Pn2n is Pn with 2^n VCs per physical channel on a torus.
type Pn2n struct {
	g    *topology.Grid
	vcs  int
	wrap int // classes per virtual network on a link: 2 on a torus, 1 on a mesh
}

var _ sim.Routing = (*Pn2n)(nil)

func init() {
	Register(Algorithm{
		Name:    "pn2n",
		Summary: "Pn with 2^n VCs on tori, seed 003's count: a virtual network per direction vector, a dateline class per dimension (refuted on tori of two dimensions or more: not deadlock-free)",
		// on a mesh the construction is the direction networks alone, on a ring
		// Dally and Seitz's dateline: both proven deadlock-free (TestPn2nRefuted)
		Refuted: func(net topology.Network) string {
			if g, err := gridOf("pn2n", net, ""); err == nil && (!g.Wrap() || g.Dims() < 2) {
				return ""
			}
			return "the channel dependency graph has a cycle through two wrap links (wormlab deadlock --routing pn2n; docs/seed003.md)"
		},
		MinVCs: func(net topology.Network) (int, error) {
			g, err := gridOf("pn2n", net, "")
			if err != nil {
				return 0, err
			}
			v := 1 << uint(g.Dims()-1)
			if g.Wrap() {
				v *= 2
			}
			return v, nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			g, err := gridOf("pn2n", net, "")
			if err != nil {
				return nil, err
			}
			w := 1
			if g.Wrap() {
				w = 2
			}
			return &Pn2n{g: g, vcs: vcs, wrap: w}, nil
		},
	})
}

// Aux[0] bit i: dimension i goes the - way (as Pn). Class bit i: dimension i's
// wrap link crossed.

func (p *Pn2n) Start(h *sim.Header, r *rand.Rand) {
	h.Class = 0
	h.Aux[0] = (&Pn{g: p.g}).dirs(h, r, 0)
}

// Starts lists every state Start can give a packet.
func (p *Pn2n) Starts(h sim.Header, out []sim.Header) []sim.Header {
	return (&Pn{g: p.g}).Starts(h, out)
}

func (p *Pn2n) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	n := p.g.Dims()
	for i := range n {
		if p.g.Coord(at, i) == p.g.Coord(int(h.Dst), i) {
			continue
		}
		d := 1
		if h.Aux[0]>>uint(i)&1 == 1 {
			d = -1
		}
		// the other dimensions' direction bits, packed below i's position
		dirs := int(h.Aux[0])
		other := dirs&(1<<uint(i)-1) | dirs>>uint(i+1)<<uint(i)
		vc := other * p.wrap
		if p.wrap == 2 && h.Class>>uint(i)&1 == 1 {
			vc++
		}
		out = append(out, sim.Choice{Port: topology.Port(i, d), VCs: 1 << uint(min(vc, p.vcs-1))})
	}
	return out
}

// Advance marks a dimension's wrap link crossed.
func (p *Pn2n) Advance(at int, h *sim.Header, port, vc int) {
	if crossesWrap(p.g, at, port) {
		dim, _ := topology.PortDim(port)
		h.Class |= 1 << uint(dim)
	}
}
