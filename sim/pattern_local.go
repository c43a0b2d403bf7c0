package sim

// Local traffic of seed 003 (Boppana and Chalasani): destinations within a radius.

import (
	"fmt"
	"math/rand/v2"
)

// Local sends to a node drawn uniformly among those at grid distance 1 .. Radius
// from the source (minimal-route distance, wrap links counted on a torus).
type Local struct {
	Ball [][]int32 // Ball[s]: the destinations of s
}

var _ Pattern = Local{}

func init() {
	RegisterPattern("local", func(p PatternParams) (Pattern, error) {
		g, err := gridOf("local", p.Net)
		if err != nil {
			return nil, err
		}
		rad := p.Radius
		if rad == 0 {
			rad = 1
		}
		if rad < 1 {
			return nil, fmt.Errorf("traffic local: radius %d below 1", rad)
		}
		n := g.Nodes()
		l := Local{Ball: make([][]int32, n)}
		for s := range n {
			for d := range n {
				if h := g.Distance(s, d); h >= 1 && h <= rad {
					l.Ball[s] = append(l.Ball[s], int32(d))
				}
			}
		}
		return lift(g, l), nil
	})
}

func (l Local) Dest(src int, r *rand.Rand) int {
	b := l.Ball[src]
	return int(b[r.IntN(len(b))])
}
