package sim

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// Neighbor moves every coordinate one step up its ring (mod k, as BookSim2's
// neighbor: on a mesh the last node of a row sends to the first).
type Neighbor struct{ G *topology.Grid }

var _ Pattern = Neighbor{}

func init() {
	RegisterPattern("neighbor", func(p PatternParams) (Pattern, error) {
		g, err := gridOf("neighbor", p.Net)
		if err != nil {
			return nil, err
		}
		return lift(g, Neighbor{g}), nil
	})
}

func (n Neighbor) Dest(src int, _ *rand.Rand) int {
	return shiftAll(n.G, src, func(int) int { return 1 })
}
