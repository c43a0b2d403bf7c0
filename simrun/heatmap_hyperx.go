package simrun

import (
	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/topology"
)

// hyperxLayout draws a 2-D HyperX (a flattened butterfly of two router
// dimensions) as a grid of routers, dimension 0 across and 1 down: each row and
// each column is fully connected, the channels bending apart.
type hyperxLayout struct{}

func (hyperxLayout) place(net topology.Network) ([]figure.XY, string) {
	x, ok := net.(*topology.HyperX)
	if !ok || x.Dims() != 2 {
		return nil, ""
	}
	pos := make([]figure.XY, net.Nodes())
	for r := range pos {
		pos[r] = figure.XY{X: (float64(x.Coord(r, 0)) + 0.5) / float64(x.Side(0)), Y: (float64(x.Coord(r, 1)) + 0.5) / float64(x.Side(1))}
	}
	return pos, "routers by their coordinates, dimension 0 across and 1 down; every row and every column is fully connected"
}
