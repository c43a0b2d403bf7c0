package sim

// Local traffic of seed 003 in a square: the paper sends each packet to a node
// drawn uniformly from a submesh centred on its source (its hop-class weights,
// three pairs of classes weighing 1, 2 and 3, are those of a 7x7 square: radius
// 3). wormlab's local pattern is the diamond of grid distance 1 .. radius.

import (
	"fmt"
	"math/rand/v2"
)

// LocalSquare sends to a node drawn uniformly among those whose coordinates all
// lie within Radius of the source's (Chebyshev distance 1 .. Radius, wrap links
// counted on a torus): a (2 Radius + 1)^n submesh without the source.
type LocalSquare struct {
	g      gridCoords
	radius int
	side   int // 2 radius + 1
	cells  int // side^n - 1
}

// gridCoords is what LocalSquare needs of a grid: its dimensions, sides, wrap
// and node numbering.
type gridCoords interface {
	Dims() int
	Side(i int) int
	Wrap() bool
	Coord(v, i int) int
	Node(coords []int) int
}

var _ Pattern = LocalSquare{}

func init() {
	RegisterPattern("localsq", func(p PatternParams) (Pattern, error) {
		g, err := gridOf("localsq", p.Net)
		if err != nil {
			return nil, err
		}
		rad := p.Radius
		if rad == 0 {
			rad = 1
		}
		side := 2*rad + 1
		cells := 1
		for i := range g.Dims() {
			if rad < 1 || side > g.Side(i) {
				return nil, fmt.Errorf("traffic localsq: radius %d outside 1..%d (a square of side 2 radius + 1 must fit in %s)", rad, (g.Side(i)-1)/2, g)
			}
			if !g.Wrap() {
				return nil, fmt.Errorf("traffic localsq needs a torus (a square centred on a mesh's corner leaves the mesh), not %s", g)
			}
			cells *= side
		}
		return lift(g, LocalSquare{g: g, radius: rad, side: side, cells: cells - 1}), nil
	}, ParamRadius)
}

// Dest draws a cell of the square other than the centre and maps it to a node.
func (l LocalSquare) Dest(src int, r *rand.Rand) int {
	c := r.IntN(l.cells)
	if c >= l.cells/2 { // skip the centre, cell cells/2 of side^n
		c++
	}
	n := l.g.Dims()
	var buf [8]int
	co := buf[:0]
	if n > len(buf) {
		co = make([]int, 0, n)
	}
	for i := range n {
		off := c%l.side - l.radius
		c /= l.side
		k := l.g.Side(i)
		co = append(co, ((l.g.Coord(src, i)+off)%k+k)%k)
	}
	return l.g.Node(co)
}
