package figure

import (
	"fmt"
	"html"
	"io"
	"math"
)

// XY is a place in the unit square, y downwards.
type XY struct{ X, Y float64 }

// GraphMap is any network with a value per node and per directed channel, its
// nodes placed by the caller (a layout), for Graph.
type GraphMap struct {
	// Pos places every node in the unit square.
	Pos []XY
	// Node holds each node's value (NaN: none, drawn grey), named NodeLabel.
	Node      []float64
	NodeLabel string
	// Links holds each directed channel's value, named LinkLabel.
	Links     []LinkValue
	LinkLabel string
	Title     string
	// Note says how to read the layout (one line under the legends).
	Note string
}

// Graph draws g as SVG: each node a disc at its place coloured by its value,
// each directed channel a curve from its tail to its head bending to the right of
// its direction (so the two directions of a link, and links along one line, stay
// apart), coloured by its value; the legends are Heatmap's.
func Graph(w io.Writer, g GraphMap) error {
	n := len(g.Pos)
	if len(g.Node) != n {
		return &HeatmapError{fmt.Sprintf("%d node values for %d nodes", len(g.Node), n)}
	}
	if n == 0 {
		return &HeatmapError{"no nodes to draw"}
	}
	const side, margin = 620.0, 40.0
	width := side + 2*margin
	title := WrapWords(g.Title, int(width/7.5))
	top := 30 + 17*float64(len(title))
	height := top + side + margin + 100
	r := math.Max(2.5, math.Min(14, 180/math.Sqrt(float64(n))))
	stroke := math.Max(0.5, math.Min(3, r*0.35))

	m := startMap(w, width, height, title, g.Node, g.Links)
	p := m.p
	at := func(v int) (float64, float64) {
		return margin + g.Pos[v].X*side, top + g.Pos[v].Y*side
	}
	for _, l := range g.Links {
		if l.From < 0 || l.From >= n || l.To < 0 || l.To >= n {
			return &HeatmapError{fmt.Sprintf("channel %d -> %d: no such node (%d nodes)", l.From, l.To, n)}
		}
		ax, ay := at(l.From)
		bx, by := at(l.To)
		dx, dy := bx-ax, by-ay
		d := math.Hypot(dx, dy)
		if d == 0 {
			continue
		}
		// the control point: the middle, moved to the right of the direction
		bend := 0.08*d + 1.2*stroke
		cx, cy := (ax+bx)/2-dy/d*bend, (ay+by)/2+dx/d*bend
		tip := fmt.Sprintf("%d -> %d: %s %.4g", l.From, l.To, g.LinkLabel, l.Value)
		p(`<path d="M%.1f %.1f Q%.1f %.1f %.1f %.1f" fill="none" stroke="%s" stroke-width="%.2f"><title>%s</title></path>`+"\n",
			ax, ay, cx, cy, bx, by, blues(frac(l.Value, m.llo, m.lhi)), stroke, html.EscapeString(tip))
	}
	for v := range n {
		cx, cy := at(v)
		col, val := m.nodeFill(g.Node[v])
		p(`<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#333" stroke-width="0.6"><title>node %d: %s %s</title></circle>`+"\n",
			cx, cy, r, col, v, html.EscapeString(g.NodeLabel), val)
		if r >= 9 {
			p(`<text x="%.1f" y="%.1f" font-size="%.0f" text-anchor="middle">%d</text>`+"\n", cx, cy+3, math.Min(10, r*0.8), v)
		}
	}
	ly := top + side + 30
	m.legends(margin, ly, g.NodeLabel, g.LinkLabel)
	p(`<text x="%.1f" y="%.1f" font-size="9" fill="#555">a channel bends to the right of its direction; grey node: no value</text>`+"\n", margin, ly+46)
	for i, line := range WrapWords(g.Note, int(width/5.5)) {
		p(`<text x="%.1f" y="%.1f" font-size="9" fill="#555">%s</text>`+"\n", margin, ly+60+12*float64(i), html.EscapeString(line))
	}
	p("</svg>\n")
	return m.bw.Flush()
}
