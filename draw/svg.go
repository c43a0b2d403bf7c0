package draw

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Options tune the diagram; the zero value is fine.
type Options struct {
	// Title replaces the default title (instance name, model, makespan, verdict).
	Title string
	// MaxNotes bounds the violations listed under the diagram (default 20); all
	// conflicts are marked in the diagram whatever the bound.
	MaxNotes int
}

// Layout constants, in pixels.
const (
	rowH      = 26
	barPad    = 4
	top       = 48
	pad       = 12
	charW     = 7.2 // width of one character of the 12px monospace font
	maxPlotW  = 1400
	minBar    = 1.0 // the narrowest bar or mark drawn
	maxUnit   = 32.0
	legendRow = 18
)

// diagram is everything SVG needs, computed before any output.
type diagram struct {
	in      *model.Instance
	s       *model.Schedule
	opt     Options
	hs      []verify.Holding
	vs      []verify.Violation
	rows    []int     // edges, top to bottom
	row     []int     // edge -> row (-1 for an edge no message uses)
	rowY    []float64 // top of each row, and the bottom of the last one
	lane    []int     // per holding: its lane in its row (overlapping bars stack)
	horizon int       // last time shown
	unit    float64   // pixels per time step
	left    float64   // x of time 0
	plotW   float64
	red     map[[2]int]bool // (edge, msg) holdings in a conflict
	colors  []string
}

// SVG writes the space-time diagram of s for in to w.
func SVG(w io.Writer, in *model.Instance, s *model.Schedule, opt Options) error {
	if err := in.Validate(); err != nil {
		return err
	}
	if opt.MaxNotes <= 0 {
		opt.MaxNotes = 20
	}
	d := &diagram{in: in, s: s, opt: opt, hs: verify.Holdings(in, s), vs: verify.All(in, s)}
	d.layout()
	bw := bufio.NewWriter(w)
	d.write(bw)
	return bw.Flush()
}

func (d *diagram) layout() {
	d.row = make([]int, len(d.in.Net.Edges))
	for e := range d.row {
		d.row[e] = -1
	}
	for i := range d.in.Messages {
		for _, e := range d.in.Messages[i].Path {
			d.row[e] = 0
		}
	}
	labelW := 0
	for e, r := range d.row {
		if r == 0 {
			d.row[e] = len(d.rows)
			d.rows = append(d.rows, e)
			labelW = max(labelW, len(d.in.Net.EdgeName(e)))
		}
	}
	// Lanes: a legal schedule needs one per row; holdings that overlap (conflicts)
	// go to further lanes, so both bars stay visible.
	d.lane = make([]int, len(d.hs))
	lanes := make([]int, len(d.rows))
	var ends []int // per lane of the current edge: the last time it is held
	for k, h := range d.hs {
		if k == 0 || d.hs[k-1].Edge != h.Edge {
			ends = ends[:0]
		}
		l := 0
		for l < len(ends) && ends[l] >= h.From {
			l++
		}
		if l == len(ends) {
			ends = append(ends, h.To)
		} else {
			ends[l] = h.To
		}
		d.lane[k] = l
		lanes[d.row[h.Edge]] = max(lanes[d.row[h.Edge]], l+1)
	}
	d.rowY = make([]float64, len(d.rows)+1)
	d.rowY[0] = top
	for r := range d.rows {
		d.rowY[r+1] = d.rowY[r] + float64(rowH*max(1, lanes[r]))
	}
	d.horizon = max(1, d.s.Makespan)
	for _, h := range d.hs {
		d.horizon = max(d.horizon, h.To)
	}
	// The plot is never wider than maxPlotW: a long schedule is compressed (bars at
	// least minBar wide), so even times near verify.MaxTime draw in O(H) elements.
	d.unit = math.Min(maxUnit, float64(maxPlotW)/float64(d.horizon))
	d.left = pad + float64(labelW)*charW + 10
	d.plotW = d.unit * float64(d.horizon)
	d.red = map[[2]int]bool{}
	idx := d.in.Index()
	for _, v := range d.vs {
		if v.Rule == verify.RuleConflict {
			d.red[[2]int{v.Edge, idx[v.Msg]}] = true
			d.red[[2]int{v.Edge, idx[v.Other]}] = true
		}
	}
	d.colors = make([]string, len(d.in.Messages))
	for i := range d.colors {
		d.colors[i] = color(i)
	}
}

// color gives message i a light colour; hues advance by the golden angle so that
// neighbours in the list differ strongly.
func color(i int) string {
	h := math.Mod(float64(i)*137.508, 360)
	l := []float64{0.72, 0.62, 0.80}[i%3]
	return hsl(h, 0.65, l)
}

// hsl converts a colour to #rrggbb (h in degrees, s and l in [0, 1]).
func hsl(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	to := func(v float64) int { return int(math.Round((v + m) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", to(r), to(g), to(b))
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// x returns the left edge of time step t's column (the column of "at time t").
func (d *diagram) x(t int) float64 { return d.left + float64(t-1)*d.unit }

func (d *diagram) y(row int) float64 { return d.rowY[row] }

func (d *diagram) write(w *bufio.Writer) {
	plotBottom := d.y(len(d.rows))
	axisH := 34.0
	// Legend: as many ids per line as fit in the plot's width.
	cellW := 0.0
	for i := range d.in.Messages {
		cellW = math.Max(cellW, float64(len(d.in.Messages[i].ID))*charW+26)
	}
	width := math.Max(d.left+d.plotW+pad, 480)
	perLine := max(1, int((width-2*pad)/math.Max(cellW, 1)))
	legendLines := (len(d.in.Messages) + perLine - 1) / perLine
	legendTop := plotBottom + axisH + 10
	notes := d.notes()
	notesTop := legendTop + float64(legendLines)*legendRow + 14
	height := notesTop + float64(len(notes))*16 + pad
	for _, n := range notes {
		width = math.Max(width, 2*pad+float64(len(n))*charW)
	}
	width = math.Max(width, 2*pad+float64(len(d.title()))*charW*14/12)

	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="monospace" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(w, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	titleFill := "black"
	if len(d.vs) > 0 {
		titleFill = "red"
	}
	fmt.Fprintf(w, `<text x="%d" y="22" font-size="14" font-weight="bold" fill="%s">%s</text>`+"\n", pad, titleFill, esc(d.title()))

	// Rows: label and a light band.
	fmt.Fprintf(w, `<g class="rows">`+"\n")
	for r, e := range d.rows {
		y := d.y(r)
		if r%2 == 0 {
			fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f3f3f3"/>`+"\n", d.left, y, d.plotW, d.y(r+1)-y)
		}
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", d.left-6, (y+d.y(r+1))/2+4, esc(d.in.Net.EdgeName(e)))
	}
	fmt.Fprintf(w, "</g>\n")

	// Time axis with ticks every step, labels every few steps.
	step := tickStep(d.unit, float64(len(fmt.Sprint(d.horizon)))*charW+12)
	fmt.Fprintf(w, `<g class="axis" stroke="#888">`+"\n")
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", d.left, plotBottom, d.left+d.plotW, plotBottom)
	for j := 1; j <= d.horizon/step; j++ {
		t := j * step
		xc := d.x(t) + d.unit/2
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", xc, plotBottom, xc, plotBottom+5)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", xc, float64(top), xc, plotBottom)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" stroke="none">%d</text>`+"\n", xc, plotBottom+17, t)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" stroke="none">time</text>`+"\n", d.left+d.plotW, plotBottom+31)
	fmt.Fprintf(w, "</g>\n")

	// Bars, one per holding.
	fmt.Fprintf(w, `<g class="bars">`+"\n")
	for k, h := range d.hs {
		m := &d.in.Messages[h.Msg]
		x0, y0 := d.x(h.From), d.y(d.row[h.Edge])+float64(d.lane[k]*rowH)+barPad
		bw, bh := math.Max(minBar, float64(h.To-h.From+1)*d.unit), float64(rowH-2*barPad)
		stroke := `stroke="#333" stroke-width="0.8"`
		class := "bar"
		if d.red[[2]int{h.Edge, h.Msg}] {
			stroke = `stroke="red" stroke-width="2.5"`
			class = "bar conflict"
		}
		fmt.Fprintf(w, `<rect class="%s" data-msg="%s" data-edge="%d" x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="3" fill="%s" fill-opacity="0.85" %s><title>%s on %s: times %d..%d</title></rect>`+"\n",
			class, esc(m.ID), h.Edge, x0, y0, bw, bh, d.colors[h.Msg], stroke, esc(m.ID), esc(d.in.Net.EdgeName(h.Edge)), h.From, h.To)
		if float64(len(m.ID))*charW+4 <= bw {
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" pointer-events="none">%s</text>`+"\n", x0+bw/2, y0+bh/2+4, esc(m.ID))
		}
	}
	fmt.Fprintf(w, "</g>\n")

	// Conflict marks: a red cross over the cell (edge, first common time).
	if len(d.vs) > 0 {
		d.marks(w)
	}
	d.legend(w, legendTop, cellW, perLine)
	// Notes: the violations, in red.
	if len(notes) > 0 {
		fmt.Fprintf(w, `<g class="notes" fill="red">`+"\n")
		for k, n := range notes {
			fmt.Fprintf(w, `<text x="%d" y="%.1f">%s</text>`+"\n", pad, notesTop+float64(k)*16+10, esc(n))
		}
		fmt.Fprintf(w, "</g>\n")
	}
	fmt.Fprintf(w, "</svg>\n")
}

// marks crosses out, in red, the cell (edge, time) of each conflict's first collision.
func (d *diagram) marks(w *bufio.Writer) {
	fmt.Fprintf(w, `<g class="violations" stroke="red" stroke-width="2.5">`+"\n")
	for _, v := range d.vs {
		if v.Rule != verify.RuleConflict {
			continue
		}
		r := d.row[v.Edge]
		if r < 0 {
			continue
		}
		x0, y0 := d.x(v.Time), d.y(r)+1
		x1, y1 := x0+math.Max(minBar, d.unit), d.y(r+1)-1
		fmt.Fprintf(w, `<g class="mark"><title>%s</title><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/></g>`+"\n",
			esc(v.Error()), x0, y0, x1, y1, x0, y1, x1, y0)
	}
	fmt.Fprintf(w, "</g>\n")
}

func (d *diagram) legend(w *bufio.Writer, legendTop, cellW float64, perLine int) {
	fmt.Fprintf(w, `<g class="legend">`+"\n")
	for i := range d.in.Messages {
		x := pad + float64(i%perLine)*cellW
		y := legendTop + float64(i/perLine)*legendRow
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="14" height="12" fill="%s" stroke="#333" stroke-width="0.8"/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			x, y, d.colors[i], x+18, y+10, esc(d.in.Messages[i].ID))
	}
	fmt.Fprintf(w, "</g>\n")
}

func (d *diagram) title() string {
	if d.opt.Title != "" {
		return d.opt.Title
	}
	name := d.in.Name
	if name == "" {
		name = "schedule"
	}
	verdict := "legal"
	if len(d.vs) > 0 {
		verdict = fmt.Sprintf("ILLEGAL (%d violations)", len(d.vs))
		if len(d.vs) == 1 {
			verdict = "ILLEGAL (1 violation)"
		}
	}
	return fmt.Sprintf("%s: %s, makespan %d, %d messages, %s", name, d.s.Model, d.s.Makespan, len(d.in.Messages), verdict)
}

// notes lists the violations to print under the diagram, at most MaxNotes of them.
func (d *diagram) notes() []string {
	var out []string
	for k, v := range d.vs {
		if k == d.opt.MaxNotes {
			out = append(out, fmt.Sprintf("... and %d more (wormlab verify --all lists them)", len(d.vs)-k))
			break
		}
		out = append(out, v.Error())
	}
	return out
}

// tickStep returns the time between labelled ticks, 1, 2, 5, 10, 20, 50, ..., so
// that labels are at least gap pixels apart.
func tickStep(unit, gap float64) int {
	for s := 1; s < math.MaxInt/50; s *= 10 {
		for _, k := range []int{1, 2, 5} {
			if float64(s*k)*unit >= gap {
				return s * k
			}
		}
	}
	return math.MaxInt / 50
}
