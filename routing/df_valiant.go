package routing

// Valiant's algorithm on the dragonfly's groups (Kim, Dally, Scott and Abts, ISCA
// 2008, section 4.1; L. G. Valiant, A scheme for fast parallel communication, SIAM J.
// Computing 11(2), 1982): every packet goes minimally to a group drawn uniformly at
// the source, then minimally to its destination; a packet whose draw is its own
// group or its destination's goes minimally. Three VC classes (dragonfly.go): a
// non-minimal route takes 0 in the source group and on the first global hop, 1 in
// the intermediate group and on the second, 2 in the destination group; a minimal
// one 1, 1, 2. With two VCs classes 1 and 2 share a VC, and a packet's local hop in
// an intermediate group may wait on another's local hop in its destination group:
// the checker finds the cycle.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DFValiant is Valiant's routing on a dragonfly's groups.
type DFValiant struct{ dfPaths }

var _ sim.Routing = (*DFValiant)(nil)

func init() {
	Register(Algorithm{
		Name:    "df-valiant",
		Summary: "dragonfly Valiant: minimally to a random group, then to the destination; 3 VC classes (Kim et al. 2008)",
		MinVCs:  dragonflyVCs("df-valiant", 3),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			d, err := dragonflyOf("df-valiant", net)
			if err != nil {
				return nil, err
			}
			return &DFValiant{dfPaths{d: d, cls: dfClasses{vcs, 3}, valiant: true}}, nil
		},
	})
}

func (r *DFValiant) Start(h *sim.Header, rr *rand.Rand)                 { r.draw(h, rr) }
func (r *DFValiant) Starts(h sim.Header, out []sim.Header) []sim.Header { return r.starts(h, out) }

func (r *DFValiant) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if r.phase1(h) {
		return append(out, r.minChoice(at, h))
	}
	return append(out, r.nonminChoice(at, h))
}

func (r *DFValiant) Advance(_ int, h *sim.Header, port, _ int) { r.advance(h, port) }
