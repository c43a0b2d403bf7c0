package simrun

import (
	"math"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/topology"
)

// circleLayout places any network's routers on a circle in their numbering's
// order, router 0 at the right, counter-clockwise: tori and meshes of more than
// 3 dimensions, HyperX of other than 2 dimensions, networks from files.
type circleLayout struct{}

func (circleLayout) place(net topology.Network) ([]figure.XY, string) {
	n := net.Nodes()
	pos := make([]figure.XY, n)
	for v := range pos {
		a := 2 * math.Pi * float64(v) / float64(n)
		pos[v] = figure.XY{X: 0.5 + 0.46*math.Cos(a), Y: 0.5 - 0.46*math.Sin(a)}
	}
	return pos, "routers on a circle in their order, router 0 at the right, counter-clockwise"
}
