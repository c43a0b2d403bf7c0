package sim

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// Tornado moves every coordinate ceil(k/2)-1 steps up its ring (3 of 8: the
// longest one-way distance that is still minimal without a tie).
type Tornado struct{ G *topology.Grid }

var _ Pattern = Tornado{}

func init() {
	RegisterPattern("tornado", func(p PatternParams) (Pattern, error) {
		g, err := gridOf("tornado", p.Net)
		if err != nil {
			return nil, err
		}
		return lift(g, Tornado{g}), nil
	})
}

func (t Tornado) Dest(src int, _ *rand.Rand) int {
	return shiftAll(t.G, src, func(k int) int { return (k+1)/2 - 1 })
}

// shiftAll moves every coordinate of v by off(k) steps mod k.
func shiftAll(g *topology.Grid, v int, off func(k int) int) int {
	d, stride := 0, 1
	for i := range g.Dims() {
		k := g.Side(i)
		d += (g.Coord(v, i) + off(k)) % k * stride
		stride *= k
	}
	return d
}
