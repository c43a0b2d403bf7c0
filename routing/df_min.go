package routing

// Minimal routing on the dragonfly (Kim, Dally, Scott and Abts, ISCA 2008, section
// 4.1; dragonfly.go has the route), with BookSim2's VC assignment
// (src/networks/dragonfly.cpp, min_dragonflynew): class 0 on the local hop of the
// source group, class 1 on the global hop and in the destination group, its
// ejection port included (sim.Ejecting: BookSim names the phase's VC there too;
// with any VC at ejection the 72-terminal dragonfly saturates 5% above BookSim's
// 0.513 flits/terminal/cycle, with the rule 1% above: docs/dragonfly.md). A class 0
// channel leads only to class 0 channels of its group's routers' global ports or to
// class 1, and class 1 chains are a global hop then at most one local hop: two VCs
// make it deadlock-free. With one VC, a local hop of one group waits on a global
// channel into the next group, whose local channel waits on a global channel out of
// it, and so round the groups: a cycle the deadlock checker names.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DFMin is minimal routing on a dragonfly.
type DFMin struct{ dfPaths }

var _ sim.Routing = (*DFMin)(nil)

func init() {
	Register(Algorithm{
		Name:    "df-min",
		Summary: "dragonfly minimal: local, global, local; VC 0 before the global hop, 1 from it (Kim et al. 2008; BookSim2's min)",
		MinVCs:  dragonflyVCs("df-min", 2),
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			d, err := dragonflyOf("df-min", net)
			if err != nil {
				return nil, err
			}
			return &DFMin{dfPaths{d: d, cls: dfClasses{vcs, 2}}}, nil
		},
	})
}

func (r *DFMin) Start(h *sim.Header, rr *rand.Rand)                 { r.draw(h, rr) }
func (r *DFMin) Starts(h sim.Header, out []sim.Header) []sim.Header { return r.starts(h, out) }

// Route takes the minimal route's next hop: class 1 on a global channel and after
// one, else class 0.
func (r *DFMin) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	port := r.d.MinPort(at, int(h.Dst), int(h.Aux[2]))
	c := 0
	if h.Class > 0 || r.d.Global(port) {
		c = 1
	}
	return append(out, sim.Choice{Port: port, VCs: r.cls.mask(c)})
}

func (r *DFMin) Advance(_ int, h *sim.Header, port, _ int) { r.advance(h, port) }

// EjectVCs is BookSim2's rule at the destination: the packet ejects on its class's
// VCs (1 after a global channel, 0 within its source group), as on every hop.
func (r *DFMin) EjectVCs(h *sim.Header) uint64 { return r.cls.mask(min(int(h.Class), 1)) }

var _ sim.Ejecting = (*DFMin)(nil)
