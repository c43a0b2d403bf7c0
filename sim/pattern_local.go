package sim

// Local traffic of seed 003 (Boppana and Chalasani): destinations within a radius.

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// maxLocalEntries bounds the destinations local lists in all (4 bytes each).
const maxLocalEntries = 1 << 26

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
		if rad < 1 || rad > g.Diameter() {
			return nil, &ConfigError{"radius", fmt.Sprintf("traffic local: radius %d outside 1..%d (the diameter of %s)", rad, g.Diameter(), g)}
		}
		n := g.Nodes()
		l := Local{Ball: make([][]int32, n)}
		// each ball by a breadth-first search to depth rad: O(n |ball| degree),
		// not the O(n^2) of testing every pair (a 1024x1024 torus took hours)
		dist := make([]int32, n)
		for i := range dist {
			dist[i] = -1
		}
		var queue []int32
		entries := 0
		for s := range n {
			queue = append(queue[:0], int32(s))
			dist[s] = 0
			for k := 0; k < len(queue); k++ {
				v := int(queue[k])
				if int(dist[v]) == rad {
					continue
				}
				for p := range g.Ports(v) {
					if w, _ := g.Link(v, p); w >= 0 && dist[w] < 0 {
						dist[w] = dist[v] + 1
						queue = append(queue, int32(w))
					}
				}
			}
			if entries += len(queue) - 1; entries > maxLocalEntries {
				return nil, &ConfigError{"radius", fmt.Sprintf("traffic local: radius %d on %s lists more than %d destinations in all", rad, g, maxLocalEntries)}
			}
			ball := make([]int32, 0, len(queue)-1)
			for _, v := range queue {
				dist[v] = -1
				if int(v) != s {
					ball = append(ball, v)
				}
			}
			slices.Sort(ball)
			l.Ball[s] = ball
		}
		return lift(g, l), nil
	}, ParamRadius)
}

func (l Local) Dest(src int, r *rand.Rand) int {
	b := l.Ball[src]
	return int(b[r.IntN(len(b))])
}
