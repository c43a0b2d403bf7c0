package topology

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// MaxNodes bounds the routers of a generated network (a 2^22-router torus already
// needs gigabytes of simulator state).
const MaxNodes = 1 << 22

// MaxLatency bounds a link latency a network sets (a file's, a dragonfly's), in
// cycles: far above any channel's (BookSim2's dragonfly takes 100), and far below
// int32's range, in which networks keep their latencies and the simulator adds
// its pipeline's delays to them.
const MaxLatency = 1 << 20

// MaxLinks bounds the output ports of a generated grid in all (issue 26: a mesh of
// 2^22 nodes in 22 dimensions took 2.9 GB before anything checked its size; a
// 2048x2048 torus has 2^24).
const MaxLinks = 1 << 25

// Grid is a k-ary n-cube torus (Wrap) or a mesh, with sides of any size at least 2
// per dimension and unidirectional links both ways between neighbours.
type Grid struct {
	table
	sides  []int
	stride []int
	// shift is per dimension log2 of its stride where the stride and the side
	// are powers of two (Coord then shifts and masks), else -1
	shift []int8
	wrap  bool
	conc  int // terminals per router on a concentrated mesh (0: one)
}

var _ Network = (*Grid)(nil)

// The concentrated mesh (Dally and Towles, Principles and Practices of
// Interconnection Networks, 2004, section 7.1; BookSim2's cmesh
// without its express channels) is a mesh whose routers have c terminals each:
// "cmesh:4x4,c=4", router r's terminals r*c .. r*c+c-1.
func init() {
	registerKind("cmesh", "cmesh:4x4,c=4", func(arg string) (Network, error) {
		sides, c, err := parseCMesh(arg)
		if err != nil {
			return nil, err
		}
		return NewCMesh(sides, c)
	})
}

// parseCMesh reads "4x4,c=4": the sides and the terminals per router.
func parseCMesh(arg string) (sides []int, c int, err error) {
	ps, err := parseParams(arg)
	if err != nil {
		return nil, 0, err
	}
	if ps.lead == "" {
		return nil, 0, &SpecError{Field: "sides", Msg: "missing (want cmesh:KxK,c=C)"}
	}
	if sides, err = parseSides(ps.lead); err != nil {
		return nil, 0, err
	}
	if c, err = ps.int("c", 4, 1); err != nil {
		return nil, 0, err
	}
	return sides, c, ps.done()
}

// NewCMesh builds the mesh with the given sides and c terminals per router.
func NewCMesh(sides []int, c int) (*Grid, error) {
	g, err := NewGrid(sides, false)
	if err != nil {
		return nil, &SpecError{Field: "sides", Msg: err.Error()}
	}
	if c > MaxNodes/g.Nodes() { // g.Nodes()*c > MaxNodes, without overflow
		return nil, &SpecError{Field: "c", Msg: fmt.Sprintf("more than %d terminals", MaxNodes)}
	}
	g.conc = c
	g.setTerminals(concentrated(uniformConc(g.Nodes(), c)))
	return g, nil
}

// gridOf is the strides and the routers of a grid of these sides, or the error
// NewGrid gives for them (SizeOf refuses what it refuses).
func gridOf(sides []int) (stride []int, n int, err error) {
	if len(sides) == 0 {
		return nil, 0, fmt.Errorf("no sides given")
	}
	n = 1
	stride = make([]int, len(sides))
	for i, s := range sides {
		if s < 2 {
			return nil, 0, fmt.Errorf("side %d of dimension %d is below 2", s, i)
		}
		if s > MaxNodes || n*s > MaxNodes {
			return nil, 0, fmt.Errorf("more than %d nodes", MaxNodes)
		}
		stride[i] = n
		n *= s
	}
	if n*2*len(sides) > MaxLinks {
		return nil, 0, fmt.Errorf("%d nodes of %d ports each: more than %d links", n, 2*len(sides), MaxLinks)
	}
	return stride, n, nil
}

// NewGrid builds a torus (wrap) or a mesh with the given sides.
func NewGrid(sides []int, wrap bool) (*Grid, error) {
	stride, n, err := gridOf(sides)
	if err != nil {
		return nil, err
	}
	g := &Grid{sides: append([]int(nil), sides...), stride: stride, shift: pow2Shifts(sides, stride), wrap: wrap}
	dims := len(sides)
	g.out = make([][]link, n)
	g.inPorts = make([]int32, n)
	g.terminal = make([]bool, n)
	links := make([]link, n*2*dims)
	for v := range n {
		g.out[v] = links[v*2*dims : (v+1)*2*dims : (v+1)*2*dims]
		g.inPorts[v] = int32(2 * dims)
		g.terminal[v] = true
		for i := range dims {
			for dir := 0; dir < 2; dir++ {
				p := 2*i + dir
				next := g.step(v, i, 1-2*dir)
				g.out[v][p] = link{int32(next), int32(2*i + 1 - dir)}
				if next < 0 {
					g.out[v][p].in = -1
				}
			}
		}
	}
	return g, nil
}

// step is the node one hop from v in dimension i, direction d (+1 or -1), or -1
// off a mesh's edge.
func (g *Grid) step(v, i, d int) int {
	x := g.Coord(v, i)
	y := x + d
	if y < 0 || y >= g.sides[i] {
		if !g.wrap {
			return -1
		}
		y = (y + g.sides[i]) % g.sides[i]
	}
	return v + (y-x)*g.stride[i]
}

// Dims is the number of dimensions n.
func (g *Grid) Dims() int { return len(g.sides) }

// Side is k_i, the number of nodes along dimension i.
func (g *Grid) Side(i int) int { return g.sides[i] }

// Wrap reports whether g is a torus.
func (g *Grid) Wrap() bool { return g.wrap }

// Coord is node v's coordinate in dimension i.
func (g *Grid) Coord(v, i int) int {
	if s := g.shift[i]; s >= 0 {
		return v >> uint(s) & (g.sides[i] - 1) // two divisions were 40% of routing a head on a torus
	}
	return v / g.stride[i] % g.sides[i]
}

// pow2Shifts is Grid.shift for the given sides and strides.
func pow2Shifts(sides, stride []int) []int8 {
	sh := make([]int8, len(sides))
	for i := range sides {
		sh[i] = -1
		if k, d := sides[i], stride[i]; k&(k-1) == 0 && d&(d-1) == 0 {
			sh[i] = int8(bits.TrailingZeros(uint(d)))
		}
	}
	return sh
}

// Coords returns all of node v's coordinates.
func (g *Grid) Coords(v int) []int {
	c := make([]int, len(g.sides))
	for i := range c {
		c[i] = g.Coord(v, i)
	}
	return c
}

// Node is the node with the given coordinates (one per dimension, each in range).
func (g *Grid) Node(coords []int) int {
	v := 0
	for i, c := range coords {
		v += c * g.stride[i]
	}
	return v
}

// Port is the output port of dimension i in direction dir (+1 or -1).
func Port(i, dir int) int {
	if dir > 0 {
		return 2 * i
	}
	return 2*i + 1
}

// PortDim returns the dimension and direction (+1 or -1) of a grid port (output or
// input: an input port's direction is where its link comes from).
func PortDim(port int) (dim, dir int) { return port / 2, 1 - 2*(port%2) }

// Offset returns, for dimension i, the signed number of hops a minimal route from
// src to dst takes: positive for the + direction. On a torus ring whose two ways
// round are equally long (even side, distance k/2), it is +k/2; Tie reports those.
func (g *Grid) Offset(src, dst, i int) int {
	off, _ := g.CoordOffset(g.Coord(src, i), g.Coord(dst, i), i)
	return off
}

// Tie reports whether both directions of dimension i are minimal from src to dst
// (a torus of even side, the nodes k/2 apart).
func (g *Grid) Tie(src, dst, i int) bool {
	_, tie := g.CoordOffset(g.Coord(src, i), g.Coord(dst, i), i)
	return tie
}

// CoordOffset is Offset and Tie of dimension i from coordinate cur to coordinate
// dst (Coord's), for a caller that has read them (dimension-order routing reads
// them for its class too): no division.
func (g *Grid) CoordOffset(cur, dst, i int) (off int, tie bool) {
	off = dst - cur
	if !g.wrap {
		return off, false
	}
	k := g.sides[i]
	if off < 0 { // (dst - cur) mod k, both in [0, k)
		off += k
	}
	tie = 2*off == k
	if 2*off > k {
		off -= k
	}
	return off, tie
}

// Distance is the length of a minimal route from src to dst.
func (g *Grid) Distance(src, dst int) int {
	h := 0
	for i := range g.sides {
		d := g.Offset(src, dst, i)
		if d < 0 {
			d = -d
		}
		h += d
	}
	return h
}

// Diameter is the largest Distance over all pairs.
func (g *Grid) Diameter() int {
	h := 0
	for _, k := range g.sides {
		if g.wrap {
			h += k / 2
		} else {
			h += k - 1
		}
	}
	return h
}

// NodeName is "c0,c1,...": the coordinates of v.
func (g *Grid) NodeName(v int) string {
	var b strings.Builder
	for i := range g.sides {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(g.Coord(v, i)))
	}
	return b.String()
}

func (g *Grid) String() string {
	var b strings.Builder
	if g.conc > 0 {
		b.WriteString("c")
	}
	if g.wrap {
		b.WriteString("torus:")
	} else {
		b.WriteString("mesh:")
	}
	for i, s := range g.sides {
		if i > 0 {
			b.WriteByte('x')
		}
		b.WriteString(strconv.Itoa(s))
	}
	if g.conc > 0 {
		b.WriteString(",c=" + strconv.Itoa(g.conc))
	}
	return b.String()
}

// Concentration is the number of terminals per router: c on a concentrated mesh,
// else 1.
func (g *Grid) Concentration() int { return max(g.conc, 1) }
