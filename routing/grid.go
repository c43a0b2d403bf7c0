package routing

// Helpers the grid routings share: the grid behind a topology, VC masks, the
// productive directions of a minimal route, and the dateline rule that needs no
// per-packet state.

import (
	"fmt"

	"github.com/wormlab/wormlab/topology"
)

// gridOf returns net as a grid, or an error naming the algorithm; wrap says which
// kinds it accepts: "torus", "mesh" or "" (both).
func gridOf(name string, net topology.Network, kind string) (*topology.Grid, error) {
	g, ok := net.(*topology.Grid)
	if !ok {
		return nil, fmt.Errorf("%s routes on tori and meshes, not on %s", name, net)
	}
	if kind == "torus" && !g.Wrap() {
		return nil, fmt.Errorf("%s routes on tori, not on the mesh %s", name, net)
	}
	if kind == "mesh" && g.Wrap() {
		return nil, fmt.Errorf("%s routes on meshes, not on the torus %s", name, net)
	}
	return g, nil
}

// gridVCs is the MinVCs of a routing on tori and meshes that needs torus VCs on a
// torus and mesh VCs on a mesh.
func gridVCs(name string, torus, mesh int) func(topology.Network) (int, error) {
	return func(net topology.Network) (int, error) {
		g, err := gridOf(name, net, "")
		if err != nil {
			return 0, err
		}
		if g.Wrap() {
			return torus, nil
		}
		return mesh, nil
	}
}

// span is the VC mask of VCs lo .. hi-1 (empty when hi <= lo).
func span(lo, hi int) uint64 {
	if hi <= lo {
		return 0
	}
	m := uint64(1)<<uint(hi-lo) - 1
	if hi-lo == 64 {
		m = ^uint64(0)
	}
	return m << uint(lo)
}

// dirOf is the direction (+1 or -1) of the minimal route from at to dst in
// dimension i, + on a tie; 0 when the coordinate is corrected.
func dirOf(g *topology.Grid, at, dst, i int) int {
	off := g.Offset(at, dst, i)
	switch {
	case off > 0:
		return 1
	case off < 0:
		return -1
	}
	return 0
}

// wrapAhead reports whether the minimal route from at to dst going dir in
// dimension i still crosses that ring's wrap link (between k-1 and 0).
func wrapAhead(g *topology.Grid, at, dst, i, dir int) bool {
	if !g.Wrap() {
		return false
	}
	x, y := g.Coord(at, i), g.Coord(dst, i)
	if dir > 0 {
		return x > y
	}
	return x < y
}

// crossesWrap reports whether the hop from at by port is a wrap link.
func crossesWrap(g *topology.Grid, at, port int) bool {
	if !g.Wrap() {
		return false
	}
	dim, dir := topology.PortDim(port)
	x := g.Coord(at, dim)
	return (dir > 0 && x == g.Side(dim)-1) || (dir < 0 && x == 0)
}

// escapeDOR is the dimension-order hop from at to dst with the dateline class that
// needs no state: class 1 while the ring's wrap link is still ahead, class 0 after
// it (and on routes that never cross it). Class 1 chains end at the wrap link and
// class 0 chains never cross it, so neither class has a cycle (Dally and Seitz's
// argument with the classes the other way round). It returns the port and the
// class; port -1 when at == dst.
func escapeDOR(g *topology.Grid, at, dst int) (port int, class int) {
	for i := range g.Dims() {
		if d := dirOf(g, at, dst, i); d != 0 {
			if wrapAhead(g, at, dst, i, d) {
				class = 1
			}
			return topology.Port(i, d), class
		}
	}
	return -1, 0
}

// productive appends the ports of every minimal direction from at to dst (both
// ways round on a tie).
func productive(g *topology.Grid, at, dst int, out []int) []int {
	for i := range g.Dims() {
		off, tie := g.CoordOffset(g.Coord(at, i), g.Coord(dst, i), i)
		switch {
		case off == 0:
		case tie:
			out = append(out, topology.Port(i, 1), topology.Port(i, -1))
		case off > 0:
			out = append(out, topology.Port(i, 1))
		default:
			out = append(out, topology.Port(i, -1))
		}
	}
	return out
}

// colour is the parity of the sum of v's coordinates: the two colours of a
// bipartite grid (a mesh, or a torus of even sides).
func colour(g *topology.Grid, v int) int {
	s := 0
	for i := range g.Dims() {
		s += g.Coord(v, i)
	}
	return s & 1
}

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }
