package simrun

import (
	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/topology"
)

// levelLayout draws a multistage network by rows: a k-ary n-fly's stages from
// the top (stage 0, where packets enter) down, a fat-tree's levels from the root
// at the top to the processors at the bottom; within a row, routers in the
// order of their switch number or address.
type levelLayout struct{}

func (levelLayout) place(net topology.Network) ([]figure.XY, string) {
	n := net.Nodes()
	row, col := make([]int, n), make([]int, n)
	rows := 0
	var note string
	switch t := net.(type) {
	case *topology.Fly:
		for r := range n {
			row[r], col[r] = t.Stage(r), t.Switch(r)
		}
		rows = t.N()
		note = "stages from the top (stage 0, where packets enter) down; switches in their order"
	case *topology.FatTree:
		for v := range n {
			row[v], col[v] = t.Height()-t.Level(v), t.Addr(v)
		}
		rows = t.Height() + 1
		note = "levels from the root at the top to the processors at the bottom; nodes in the order of their address"
	default:
		return nil, ""
	}
	width := make([]int, rows)
	for v := range n {
		if row[v] < 0 || row[v] >= rows {
			return nil, "" // not the numbering this layout reads
		}
		width[row[v]] = max(width[row[v]], col[v]+1)
	}
	pos := make([]figure.XY, n)
	for v := range n {
		pos[v] = figure.XY{X: (float64(col[v]) + 0.5) / float64(width[row[v]]), Y: (float64(row[v]) + 0.5) / float64(rows)}
	}
	return pos, note
}
