package simrun

// (The file is not heatmap_dragonfly.go: Go would build that on DragonFly BSD only.)

import (
	"math"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/topology"
)

// dragonflyLayout places a dragonfly's groups on a circle (group 0 at the right,
// counter-clockwise) and each group's routers on a small ring round its place:
// local channels stay within a ring, global channels cross the circle.
type dragonflyLayout struct{}

func (dragonflyLayout) place(net topology.Network) ([]figure.XY, string) {
	d, ok := net.(*topology.Dragonfly)
	if !ok {
		return nil, ""
	}
	g, a := d.G(), d.A()
	// rings of neighbouring groups at least a ring apart, all within the square
	ring := math.Min(0.08, 0.45*math.Sin(math.Pi/float64(g))/2)
	R := 0.47 - ring
	pos := make([]figure.XY, net.Nodes())
	for r := range pos {
		G, i := d.Group(r), d.Index(r)
		ga := 2 * math.Pi * float64(G) / float64(g)
		cx, cy := 0.5+R*math.Cos(ga), 0.5-R*math.Sin(ga)
		ra := ga + 2*math.Pi*float64(i)/float64(a)
		pos[r] = figure.XY{X: cx + ring*math.Cos(ra), Y: cy - ring*math.Sin(ra)}
	}
	return pos, "groups on a circle (group 0 at the right, counter-clockwise), each group's routers on a ring (router 0 of the group outermost)"
}
