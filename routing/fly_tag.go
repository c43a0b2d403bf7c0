package routing

// Destination-tag routing on the k-ary n-fly (Dally and Towles, Principles and
// Practices of Interconnection Networks, 2004, sections 4.1 and 8.4): at stage s the packet
// leaves by the port named by digit n-1-s of its destination terminal's address,
// most significant first (topology.Fly.DestPort). Channels run from stage s to
// stage s+1 only, so the channel dependency graph is acyclic with one VC; every
// VC is offered.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// FlyTag is destination-tag routing on a butterfly.
type FlyTag struct {
	f   *topology.Fly
	vcs int
}

var _ sim.Routing = (*FlyTag)(nil)

func flyOf(net topology.Network) (*topology.Fly, error) {
	f, ok := net.(*topology.Fly)
	if !ok {
		return nil, fmt.Errorf("fly-tag routes on k-ary n-fly butterflies, not on %s", net)
	}
	return f, nil
}

func init() {
	Register(Algorithm{
		Name:    "fly-tag",
		Summary: "butterfly destination-tag routing: the destination's digits pick each stage's port (Dally and Towles 2004)",
		MinVCs: func(net topology.Network) (int, error) {
			_, err := flyOf(net)
			return 1, err
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			f, err := flyOf(net)
			if err != nil {
				return nil, err
			}
			return &FlyTag{f, vcs}, nil
		},
	})
}

func (r *FlyTag) Start(*sim.Header, *rand.Rand)                      {}
func (r *FlyTag) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (r *FlyTag) Advance(int, *sim.Header, int, int)                 {}

func (r *FlyTag) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	return append(out, sim.Choice{Port: r.f.DestPort(at, int(h.Dst)), VCs: span(0, r.vcs)})
}
