package figure

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"
	"strings"
)

// GridMap is a torus or mesh of 1 to 3 dimensions with a value per node and per
// directed channel, for Heatmap: node v has coordinates (v mod X, v / X mod Y,
// v / (X Y)), dimension 0 across, 1 down, and a 3-D network's slices of constant
// third coordinate side by side.
type GridMap struct {
	Sides []int
	Wrap  bool
	// Node holds each node's value (NaN: none, drawn grey), named NodeLabel with
	// its unit in the legend.
	Node      []float64
	NodeLabel string
	// Links holds each directed channel's value, named LinkLabel.
	Links     []LinkValue
	LinkLabel string
	Title     string
}

// LinkValue is the value of the channel from node From to its neighbour To.
type LinkValue struct {
	From, To int
	Value    float64
}

// HeatmapError says why a network has no heatmap.
type HeatmapError struct{ Msg string }

func (e *HeatmapError) Error() string { return e.Msg }

// Heatmap draws g as SVG: each node a square coloured by its value, each
// channel a bar beside the line joining its ends, on the side of its direction
// (+ above or right, - below or left), coloured by its value, wrap channels as
// stubs at the borders, channels of the third dimension as two small squares in
// the node's corners (+ right, - left); two legends give the colour scales and
// their ranges. Colours: nodes from pale yellow to dark red, channels from pale
// blue to dark blue (both linear between the smallest and largest value drawn).
func Heatmap(w io.Writer, g GridMap) error {
	d := len(g.Sides)
	if d < 1 || d > 3 {
		return &HeatmapError{fmt.Sprintf("a %d-dimensional grid has no 2-D drawing (1 to 3 dimensions)", d)}
	}
	sides := [3]int{1, 1, 1}
	copy(sides[:], g.Sides)
	X, Y, Z := sides[0], sides[1], sides[2]
	n := X * Y * Z
	if len(g.Node) != n {
		return &HeatmapError{fmt.Sprintf("%d node values for %d nodes", len(g.Node), n)}
	}
	cell := math.Max(18, math.Min(64, 640/float64(max(X, Y*Z/max(1, Z)))))
	if Z > 1 {
		cell = math.Max(14, math.Min(64, 900/float64(X*Z+Z)))
	}
	margin := 40.0
	gap := cell // between slices
	sliceW := float64(X) * cell
	width := 2*margin + float64(Z)*sliceW + float64(Z-1)*gap
	width = math.Max(width, 480)
	title := WrapWords(g.Title, int(width/7.5))
	top := 30 + 17*float64(len(title))
	height := top + float64(Y)*cell + margin + 90

	m := startMap(w, width, height, title, g.Node, g.Links)
	p := m.p
	// centre of node v
	at := func(v int) (float64, float64) {
		x, y, z := v%X, v/X%Y, v/(X*Y)
		return margin + float64(z)*(sliceW+gap) + (float64(x)+0.5)*cell, top + (float64(y)+0.5)*cell
	}
	coord := func(v int) [3]int { return [3]int{v % X, v / X % Y, v / (X * Y)} }
	for z := range Z {
		if Z > 1 {
			x0 := margin + float64(z)*(sliceW+gap)
			p(`<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle">z = %d</text>`+"\n", x0+sliceW/2, top-6, z)
		}
	}
	// channels
	node := cell * 0.46 // node square's side
	off := cell * 0.12  // a channel's offset from the line between its ends
	thick := cell * 0.14
	for _, l := range g.Links {
		a, b := coord(l.From), coord(l.To)
		dim, dir := -1, 0
		for i := range 3 {
			if a[i] != b[i] {
				dim = i
				dir = b[i] - a[i]
			}
		}
		if dim < 0 {
			continue
		}
		wrap := dir != 1 && dir != -1
		if wrap { // the wrap channel goes the other way round
			if dir > 0 {
				dir = -1
			} else {
				dir = 1
			}
		}
		col := blues(frac(l.Value, m.llo, m.lhi))
		tip := fmt.Sprintf("%d -> %d: %s %.4g", l.From, l.To, g.LinkLabel, l.Value)
		ax, ay := at(l.From)
		bx, by := at(l.To)
		switch dim {
		case 2:
			// third dimension: a small square in the node's corner
			s := cell * 0.16
			cx := ax + node/2 - s
			if dir < 0 {
				cx = ax - node/2
			}
			p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#333" stroke-width="0.4"><title>%s</title></rect>`+"\n", cx, ay-node/2-s-1, s, s, col, html.EscapeString(tip))
			continue
		case 0:
			y := ay - off*float64(dir) // + above, - below
			x1, x2 := ax+float64(dir)*node/2, bx-float64(dir)*node/2
			if wrap {
				x2 = ax + float64(dir)*(cell/2)
				p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"><title>%s</title></line>`+"\n", bx-float64(dir)*(cell/2), y, bx-float64(dir)*node/2, y, col, thick, html.EscapeString(tip))
			}
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"><title>%s</title></line>`+"\n", x1, y, x2, y, col, thick, html.EscapeString(tip))
		case 1:
			x := ax + off*float64(dir) // + right, - left
			y1, y2 := ay+float64(dir)*node/2, by-float64(dir)*node/2
			if wrap {
				y2 = ay + float64(dir)*(cell/2)
				p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"><title>%s</title></line>`+"\n", x, by-float64(dir)*(cell/2), x, by-float64(dir)*node/2, col, thick, html.EscapeString(tip))
			}
			p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"><title>%s</title></line>`+"\n", x, y1, x, y2, col, thick, html.EscapeString(tip))
		}
	}
	// nodes
	for v := range n {
		cx, cy := at(v)
		col, val := m.nodeFill(g.Node[v])
		p(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" stroke="#333" stroke-width="0.6"><title>node %d: %s %s</title></rect>`+"\n",
			cx-node/2, cy-node/2, node, node, col, v, html.EscapeString(g.NodeLabel), val)
		if cell >= 36 {
			p(`<text x="%.1f" y="%.1f" font-size="%.0f" text-anchor="middle">%d</text>`+"\n", cx, cy+3, math.Min(10, cell/5), v)
		}
	}
	// legends
	ly := top + float64(Y)*cell + 30
	m.legends(margin, ly, g.NodeLabel, g.LinkLabel)
	p(`<text x="%.1f" y="%.1f" font-size="9" fill="#555">channel bars: + direction above / right of the line, - below / left; grey node: no value</text>`+"\n", margin, ly+46)
	p("</svg>\n")
	return m.bw.Flush()
}

// mapFrame is what Heatmap and Graph draw alike: the SVG's head and title, the
// ranges of the node and channel values, and the two legends of their colours.
type mapFrame struct {
	bw                 *bufio.Writer
	nlo, nhi, llo, lhi float64
}

// startMap writes the SVG's head and the title's lines to w and takes the ranges
// of the node and channel values.
func startMap(w io.Writer, width, height float64, title []string, node []float64, links []LinkValue) *mapFrame {
	m := &mapFrame{bw: bufio.NewWriter(w)}
	m.nlo, m.nhi = rangeOf(node)
	lv := make([]float64, len(links))
	for i, l := range links {
		lv[i] = l.Value
	}
	m.llo, m.lhi = rangeOf(lv)
	m.p(`<?xml version="1.0"?>` + "\n")
	m.p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="'Liberation Sans',Arial,Helvetica,sans-serif">`+"\n", width, height, width, height)
	m.p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	for i, line := range title {
		m.p(`<text x="%.1f" y="%.0f" font-size="13" text-anchor="middle">%s</text>`+"\n", width/2, 20+17*float64(i), html.EscapeString(line))
	}
	return m
}

func (m *mapFrame) p(format string, a ...any) { fmt.Fprintf(m.bw, format, a...) }

// nodeFill is a node's colour on the nodes' scale and its value as its tooltip
// says it: grey and "none" for NaN (no value).
func (m *mapFrame) nodeFill(x float64) (col, val string) {
	if math.IsNaN(x) {
		return "#cccccc", "none"
	}
	return reds(frac(x, m.nlo, m.nhi)), strconv.FormatFloat(x, 'g', 5, 64)
}

// legends draws the nodes' colour scale at x and the channels' 240 to its right,
// their labels at height y.
func (m *mapFrame) legends(x, y float64, nodeLabel, linkLabel string) {
	legend := func(x float64, label string, lo, hi float64, scale func(float64) string) {
		m.p(`<text x="%.1f" y="%.1f" font-size="11">%s</text>`+"\n", x, y, html.EscapeString(label))
		const steps, bar = 20, 180.0
		for i := range steps {
			m.p(`<rect x="%.1f" y="%.1f" width="%.2f" height="12" fill="%s"/>`+"\n", x+float64(i)*bar/steps, y+6, bar/steps+0.3, scale(float64(i)/(steps-1)))
		}
		m.p(`<rect x="%.1f" y="%.1f" width="%.1f" height="12" fill="none" stroke="#333" stroke-width="0.5"/>`+"\n", x, y+6, bar)
		m.p(`<text x="%.1f" y="%.1f" font-size="10">%s</text>`+"\n", x, y+30, fmtTick(lo))
		m.p(`<text x="%.1f" y="%.1f" font-size="10" text-anchor="end">%s</text>`+"\n", x+bar, y+30, fmtTick(hi))
	}
	legend(x, "nodes: "+nodeLabel, m.nlo, m.nhi, reds)
	legend(x+240, "channels: "+linkLabel, m.llo, m.lhi, blues)
}

func fmtTick(x float64) string {
	if math.IsNaN(x) {
		return "none"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// rangeOf is the smallest and largest value that is not NaN.
func rangeOf(xs []float64) (lo, hi float64) {
	lo, hi = math.NaN(), math.NaN()
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		if math.IsNaN(lo) || x < lo {
			lo = x
		}
		if math.IsNaN(hi) || x > hi {
			hi = x
		}
	}
	return lo, hi
}

func frac(x, lo, hi float64) float64 {
	if !(hi > lo) {
		return 0.5
	}
	return (x - lo) / (hi - lo)
}

// ramp interpolates between colour stops (RGB) at t in [0, 1].
func ramp(t float64, stops [][3]float64) string {
	t = math.Max(0, math.Min(1, t))
	f := t * float64(len(stops)-1)
	i := min(int(f), len(stops)-2)
	u := f - float64(i)
	var c [3]int
	for k := range 3 {
		c[k] = int(math.Round(stops[i][k] + u*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

func reds(t float64) string {
	return ramp(t, [][3]float64{{255, 247, 188}, {254, 196, 79}, {236, 112, 20}, {153, 52, 4}})
}

func blues(t float64) string {
	return ramp(t, [][3]float64{{222, 235, 247}, {158, 202, 225}, {66, 146, 198}, {8, 48, 107}})
}

// WrapWords breaks text into lines of at most width bytes at spaces (a word longer
// than width stands alone on its line).
func WrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
