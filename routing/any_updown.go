package routing

// Up*/down* routing on any network (M. D. Schroeder et al., Autonet: a high-speed,
// self-configuring local area network using point-to-point links, IEEE JSAC 9(8),
// 1991): a breadth-first spanning tree from router 0 over the links taken both
// ways gives every router a level; a link is "up" when it leads to a lower level
// (on a tie, to a lower router number) and "down" otherwise. A legal route takes
// up links, then down links, never an up link after a down one; so every cycle of
// links, which has a highest-(level, number) router where it turns from up to down
// ... and back, cannot be a cycle of channel dependencies: one VC is deadlock-free.
// The routing offers, at each router, every port that begins a shortest legal route
// (the table of anyTables over the states (router, went down)) on every VC; the
// selection takes a free one. Routes are shortest among legal ones, not always
// among all.
//
// Header use: Aux[0] is 1 once the packet has taken a down link.

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// AnyUpDown is up*/down* table routing.
type AnyUpDown struct {
	t     *anyTables
	level []int
	vcs   int
}

var _ sim.Routing = (*AnyUpDown)(nil)

func init() {
	Register(Algorithm{
		Name:    "any-updown",
		Summary: "any network: shortest legal up*/down* routes on a breadth-first spanning tree, 1 VC (Schroeder et al. 1991, Autonet)",
		MinVCs: func(net topology.Network) (int, error) {
			_, err := NewAnyUpDown(net, 1)
			return 1, err
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) { return NewAnyUpDown(net, vcs) },
	})
}

// NewAnyUpDown builds up*/down* routing for net with vcs VCs.
func NewAnyUpDown(net topology.Network, vcs int) (*AnyUpDown, error) {
	n := net.Nodes()
	// breadth-first levels from router 0, links taken both ways
	adj := make([][]int, n)
	for r := range n {
		for p := range net.Ports(r) {
			if w, _ := net.Link(r, p); w >= 0 {
				adj[r] = append(adj[r], w)
				adj[w] = append(adj[w], r)
			}
		}
	}
	level := make([]int, n)
	for i := range level {
		level[i] = -1
	}
	level[0] = 0
	for queue := []int{0}; len(queue) > 0; queue = queue[1:] {
		for _, w := range adj[queue[0]] {
			if level[w] < 0 {
				level[w] = level[queue[0]] + 1
				queue = append(queue, w)
			}
		}
	}
	u := &AnyUpDown{level: level, vcs: vcs}
	t, err := newAnyTables("any-updown", net, 2, func(r, ph, port int) int {
		w, _ := net.Link(r, port)
		if level[w] < 0 {
			return -1
		}
		if u.up(r, w) {
			if ph == 1 {
				return -1
			}
			return 0
		}
		return 1
	})
	if err != nil {
		return nil, err
	}
	u.t = t
	return u, nil
}

// up reports whether the link r -> w goes up.
func (u *AnyUpDown) up(r, w int) bool {
	return u.level[w] < u.level[r] || (u.level[w] == u.level[r] && w < r)
}

func (u *AnyUpDown) Start(h *sim.Header, _ *rand.Rand) { h.Aux[0] = 0 }
func (u *AnyUpDown) Starts(h sim.Header, out []sim.Header) []sim.Header {
	h.Aux[0] = 0
	return append(out, h)
}

func (u *AnyUpDown) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	return u.t.next(at, int(h.Aux[0]), int(h.Dst), span(0, u.vcs), out)
}

func (u *AnyUpDown) Advance(at int, h *sim.Header, port, _ int) {
	if w, _ := u.t.net.Link(at, port); !u.up(at, w) {
		h.Aux[0] = 1
	}
}
