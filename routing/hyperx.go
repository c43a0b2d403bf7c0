package routing

// What the HyperX routings share (Ahn, Binkert, Davis, McLaren and Schreiber,
// HyperX, SC 2009, section 4): a packet's unaligned dimensions (where its router's
// coordinate differs from its destination's), and the ports of a hop in one
// dimension (K parallel links: every copy is offered and the selection takes a
// free one).

import (
	"fmt"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// hyperxOf returns net as a HyperX (or flattened butterfly), or an error naming the
// algorithm.
func hyperxOf(name string, net topology.Network) (*topology.HyperX, error) {
	x, ok := net.(*topology.HyperX)
	if !ok {
		return nil, fmt.Errorf("%s routes on HyperX and flattened butterflies, not on %s", name, net)
	}
	return x, nil
}

func hyperxVCs(name string, n int) func(topology.Network) (int, error) {
	return func(net topology.Network) (int, error) {
		if _, err := hyperxOf(name, net); err != nil {
			return 0, err
		}
		return n, nil
	}
}

// hxHop appends the choices of every copy of at's link to coordinate c in
// dimension k, on VCs vcs with priority pri.
func hxHop(x *topology.HyperX, at, k, c int, vcs uint64, pri int, out []sim.Choice) []sim.Choice {
	for m := range x.Mult(k) {
		out = append(out, sim.Choice{Port: x.PortTo(at, k, c, m), VCs: vcs, Pri: pri})
	}
	return out
}

// hxFirst is the lowest dimension in which at and dst differ, -1 when none.
func hxFirst(x *topology.HyperX, at, dst int) int {
	for k := range x.Dims() {
		if x.Coord(at, k) != x.Coord(dst, k) {
			return k
		}
	}
	return -1
}
