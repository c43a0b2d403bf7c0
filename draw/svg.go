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
	// conflicts drawn are marked in the diagram whatever the bound.
	MaxNotes int
	// Messages, when not nil, draws only these messages (by instance index);
	// Edges, when not nil, only these edges' rows; From and To, when positive, only
	// the time steps From..To (bars are clipped to the window).
	Messages map[int]bool
	Edges    map[int]bool
	From, To int
	// MaxBars caps the bars drawn (default DefaultMaxBars): beyond it the diagram
	// keeps the first messages in instance order whose bars fit, and says which it
	// left out (Drawn.LeftOut and a note in the picture).
	MaxBars int
}

// DefaultMaxBars is the default cap on the bars of one diagram: about 4 MB of SVG.
const DefaultMaxBars = 20000

// Drawn says what a diagram shows of the schedule: bars and messages drawn out of
// those selected, and a sentence naming what was left out ("" when nothing was).
type Drawn struct {
	Bars, BarsTotal         int
	Messages, MessagesTotal int
	LeftOut                 string
}

// Layout constants, in pixels.
const (
	rowH      = 26
	barPad    = 4
	top       = 64
	pad       = 12
	charW     = 7.2 // width of one character of the 12px monospace font
	maxPlotW  = 1400
	minBar    = 1.0 // the narrowest bar or mark drawn
	maxUnit   = 32.0
	legendRow = 18
)

// MaxMarks is the most conflicts a drawing marks and lists (verify.AllLimit): n
// worms crossing one edge at once conflict n^2 / 2 times, which would take
// gigabytes to mark; the title says when there are more.
const MaxMarks = 1000

// diagram is everything SVG needs, computed before any output.
type diagram struct {
	in      *model.Instance
	s       *model.Schedule
	opt     Options
	hs      []verify.Holding
	vs      []verify.Violation
	more    int       // conflicts found beyond the first MaxMarks, neither marked nor listed
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
	waits   [][][2]int // per message: the steps [a, b] in which its head waits
	shown   []bool     // per message: drawn
	cells   map[int][][2]float64
	drawn   Drawn
	from    int // first time step shown
}

// SVG writes the space-time diagram of s for in to w.
func SVG(w io.Writer, in *model.Instance, s *model.Schedule, opt Options) error {
	_, err := Render(w, in, s, opt)
	return err
}

// Render writes the space-time diagram of s for in to w and says what it drew.
func Render(w io.Writer, in *model.Instance, s *model.Schedule, opt Options) (*Drawn, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if opt.MaxNotes <= 0 {
		opt.MaxNotes = 20
	}
	if opt.MaxBars <= 0 {
		opt.MaxBars = DefaultMaxBars
	}
	if opt.From > 0 && opt.To > 0 && opt.From > opt.To {
		return nil, fmt.Errorf("draw: time window %d:%d is empty", opt.From, opt.To)
	}
	d := &diagram{in: in, s: s, opt: opt}
	d.vs, d.more = verify.AllLimit(in, s, MaxMarks)
	d.selectBars(verify.Holdings(in, s))
	d.layout()
	bw := bufio.NewWriter(w)
	d.write(bw)
	return &d.drawn, bw.Flush()
}

// selectBars keeps the holdings of the selected messages, edges and time window,
// clipped to the window, and then the first messages whose bars fit MaxBars.
func (d *diagram) selectBars(all []verify.Holding) {
	o := d.opt
	n := len(d.in.Messages)
	per := make([]int, n)
	var sel []verify.Holding
	for _, h := range all {
		if o.Messages != nil && !o.Messages[h.Msg] || o.Edges != nil && !o.Edges[h.Edge] {
			continue
		}
		if o.From > 0 && h.To < o.From || o.To > 0 && h.From > o.To {
			continue
		}
		if o.From > 0 {
			h.From = max(h.From, o.From)
		}
		if o.To > 0 {
			h.To = min(h.To, o.To)
		}
		sel = append(sel, h)
		per[h.Msg]++
	}
	d.shown = make([]bool, n)
	selected := 0
	for i := range per {
		if per[i] > 0 {
			selected++
		}
	}
	d.drawn.BarsTotal, d.drawn.MessagesTotal = len(sel), selected
	budget, last := o.MaxBars, -1
	for i := range per {
		if per[i] == 0 {
			continue
		}
		if per[i] > budget {
			break
		}
		budget -= per[i]
		d.shown[i] = true
		d.drawn.Messages++
		last = i
	}
	for _, h := range sel {
		if d.shown[h.Msg] {
			d.hs = append(d.hs, h)
		}
	}
	d.drawn.Bars = len(d.hs)
	if d.drawn.Messages < selected {
		d.drawn.LeftOut = fmt.Sprintf("drew %d of %d bars: the first %d of %d messages (to %q); %d messages left out (cap %d bars; select with --messages, --edges, --time)",
			d.drawn.Bars, d.drawn.BarsTotal, d.drawn.Messages, selected, idOr(d.in, last), selected-d.drawn.Messages, o.MaxBars)
	}
	// Where the head waits: between crossings t_k and t_{k+1} > t_k + 1 it sits in
	// the buffer at the head of e_k and the whole worm stands still.
	d.waits = make([][][2]int, n)
	idx := d.in.Index()
	for _, t := range d.s.Messages {
		i, ok := idx[t.ID]
		if !ok || !d.shown[i] {
			continue
		}
		for k := 1; k < len(t.Cross); k++ {
			if t.Cross[k] > t.Cross[k-1]+1 {
				d.waits[i] = append(d.waits[i], [2]int{t.Cross[k-1] + 1, t.Cross[k] - 1})
			}
		}
	}
}

func idOr(in *model.Instance, i int) string {
	if i < 0 {
		return ""
	}
	return in.Messages[i].ID
}

func (d *diagram) layout() {
	d.row = make([]int, len(d.in.Net.Edges))
	for e := range d.row {
		d.row[e] = -1
	}
	for _, h := range d.hs {
		d.row[h.Edge] = 0
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
	d.from = 1
	d.horizon = max(1, d.s.Makespan)
	for _, h := range d.hs {
		d.horizon = max(d.horizon, h.To)
	}
	if d.opt.From > 0 {
		d.from = d.opt.From
	}
	if d.opt.To > 0 {
		d.horizon = d.opt.To
	}
	d.horizon = max(d.horizon, d.from)
	// The plot is never wider than maxPlotW: a long schedule is compressed (bars at
	// least minBar wide), so even times near verify.MaxTime draw in O(H) elements.
	d.unit = math.Min(maxUnit, float64(maxPlotW)/float64(d.horizon-d.from+1))
	d.left = pad + float64(labelW)*charW + 10
	d.plotW = d.unit * float64(d.horizon-d.from+1)
	d.red = map[[2]int]bool{}
	idx := d.in.Index()
	for _, v := range d.vs {
		if v.Rule == verify.RuleConflict {
			d.red[[2]int{v.Edge, idx[v.Msg]}] = true
			d.red[[2]int{v.Edge, idx[v.Other]}] = true
		}
	}
	d.colors = colorsFor(len(d.in.Messages), d.hs)
}

// palette is the colours bars take: 8 hues 45 degrees apart in 3 lightness bands,
// 24 colours any two of which differ by at least 45 degrees of hue or a band of
// lightness, ordered so that consecutive entries differ in both.
var palette = func() []string {
	p := make([]string, 24)
	for i := range p {
		p[i] = hsl(float64((i*3)%8)*45+10, 0.65, []float64{0.74, 0.58, 0.86}[i%3])
	}
	return p
}()

// colorsFor gives each message a colour of the palette so that messages whose bars
// touch or stack in one row (neighbours in time on a shared edge) differ clearly: a
// greedy colouring in message order over that graph that takes the colour farthest
// (largest smallest RGB channel difference) from the neighbours' colours so far,
// the least used on a tie. Deterministic.
func colorsFor(n int, hs []verify.Holding) []string {
	adj := make([][]int, n)
	for k := 1; k < len(hs); k++ {
		a, b := hs[k-1], hs[k]
		if a.Edge == b.Edge && a.Msg != b.Msg {
			adj[a.Msg] = append(adj[a.Msg], b.Msg)
			adj[b.Msg] = append(adj[b.Msg], a.Msg)
		}
	}
	col := make([]int, n)
	for i := range col {
		col[i] = -1
	}
	used := make([]int, len(palette))
	for i := 0; i < n; i++ {
		best, bestScore := -1, -1
		for c := range palette {
			score := 1 << 10
			for _, j := range adj[i] {
				if col[j] >= 0 {
					score = min(score, paletteDist[c][col[j]])
				}
			}
			if score > bestScore || score == bestScore && used[c] < used[best] {
				best, bestScore = c, score
			}
		}
		col[i] = best
		used[best]++
	}
	out := make([]string, n)
	for i, c := range col {
		out[i] = palette[c]
	}
	return out
}

// paletteDist[a][b] is the largest channel difference of palette colours a and b.
var paletteDist = func() [][]int {
	rgb := func(s string) [3]int {
		var v [3]int
		fmt.Sscanf(s, "#%02x%02x%02x", &v[0], &v[1], &v[2])
		return v
	}
	d := make([][]int, len(palette))
	for a := range palette {
		d[a] = make([]int, len(palette))
		for b := range palette {
			x, y := rgb(palette[a]), rgb(palette[b])
			for k := range x {
				d[a][b] = max(d[a][b], x[k]-y[k], y[k]-x[k])
			}
		}
	}
	return d
}()

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
func (d *diagram) x(t int) float64 { return d.left + float64(t-d.from)*d.unit }

func (d *diagram) y(row int) float64 { return d.rowY[row] }

// maxLegend bounds the legend's entries (the bars keep their tooltips).
const maxLegend = 400

func (d *diagram) write(w *bufio.Writer) {
	plotBottom := d.y(len(d.rows))
	axisH := 34.0
	var legendIDs []int
	for i, ok := range d.shown {
		if ok && len(legendIDs) < maxLegend {
			legendIDs = append(legendIDs, i)
		}
	}
	// Legend: as many ids per line as fit in the plot's width.
	cellW := 0.0
	for _, i := range legendIDs {
		cellW = math.Max(cellW, float64(len(d.in.Messages[i].ID))*charW+26)
	}
	width := math.Max(d.left+d.plotW+pad, 480)
	perLine := max(1, int((width-2*pad)/math.Max(cellW, 1)))
	legendLines := (len(legendIDs) + perLine - 1) / perLine
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
	// The hatch of a waiting head: the worm stands still in these steps.
	fmt.Fprintf(w, `<defs><pattern id="wait" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="white" fill-opacity="0.35"/><line x1="0" y1="0" x2="0" y2="6" stroke="#222" stroke-width="1.6"/></pattern></defs>`+"\n")
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

	// Time axes above and below the rows, with gridlines between them, so that a
	// tall diagram can be read at its top as at its bottom.
	step := tickStep(d.unit, float64(len(fmt.Sprint(d.horizon)))*charW+12)
	fmt.Fprintf(w, `<g class="axis" stroke="#888">`+"\n")
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", d.left, plotBottom, d.left+d.plotW, plotBottom)
	fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", d.left, float64(top), d.left+d.plotW, float64(top))
	for j := (d.from + step - 1) / step; j <= d.horizon/step; j++ {
		t := j * step
		if t < d.from {
			continue
		}
		xc := d.x(t) + d.unit/2
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", xc, float64(top), xc, plotBottom)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", xc, plotBottom, xc, plotBottom+5)
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" stroke="none">%d</text>`+"\n", xc, plotBottom+17, t)
		fmt.Fprintf(w, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>`+"\n", xc, float64(top)-5, xc, float64(top))
		fmt.Fprintf(w, `<text class="top" x="%.1f" y="%.1f" text-anchor="middle" stroke="none">%d</text>`+"\n", xc, float64(top)-8, t)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="end" stroke="none">time</text>`+"\n", d.left+d.plotW, plotBottom+31)
	fmt.Fprintf(w, "</g>\n")

	// Bars, one per holding; the steps in which the worm waits hatched over them.
	fmt.Fprintf(w, `<g class="bars">`+"\n")
	type label struct {
		x, y float64
		id   string
	}
	var labels []label
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
		for _, wt := range d.waits[h.Msg] {
			a, b := max(wt[0], h.From), min(wt[1], h.To)
			if a > b {
				continue
			}
			fmt.Fprintf(w, `<rect class="wait" data-msg="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="url(#wait)" stroke="none"><title>%s waits: times %d..%d</title></rect>`+"\n",
				esc(m.ID), d.x(a), y0, math.Max(minBar, float64(b-a+1)*d.unit), bh, esc(m.ID), a, b)
		}
		if lx, ok := d.labelSpot(h, k, x0, bw, float64(len(m.ID))*charW+4); ok {
			labels = append(labels, label{lx, y0 + bh/2 + 4, m.ID})
		}
	}
	fmt.Fprintf(w, "</g>\n")

	// Conflict marks under the labels, so that no id is crossed out.
	if len(d.vs) > 0 {
		d.marks(w)
	}
	fmt.Fprintf(w, `<g class="labels" stroke="white" stroke-width="3" paint-order="stroke" stroke-linejoin="round">`+"\n")
	for _, l := range labels {
		fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" pointer-events="none">%s</text>`+"\n", l.x, l.y, esc(l.id))
	}
	fmt.Fprintf(w, "</g>\n")
	d.legend(w, legendIDs, legendTop, cellW, perLine)
	// Notes: the violations in red, and what was left out.
	if len(notes) > 0 {
		fmt.Fprintf(w, `<g class="notes" fill="red">`+"\n")
		for k, n := range notes {
			fmt.Fprintf(w, `<text x="%d" y="%.1f">%s</text>`+"\n", pad, notesTop+float64(k)*16+10, esc(n))
		}
		fmt.Fprintf(w, "</g>\n")
	}
	fmt.Fprintf(w, "</svg>\n")
}

// markCells returns, per row, the x-intervals of the conflict marks drawn in it.
func (d *diagram) markCells() map[int][][2]float64 {
	out := map[int][][2]float64{}
	for _, v := range d.vs {
		if v.Rule != verify.RuleConflict || d.row[v.Edge] < 0 || v.Time < d.from || v.Time > d.horizon {
			continue
		}
		x0 := d.x(v.Time)
		out[d.row[v.Edge]] = append(out[d.row[v.Edge]], [2]float64{x0, x0 + math.Max(minBar, d.unit)})
	}
	return out
}

// labelSpot returns the x at which to centre a label of width lw on bar k (from x0,
// bw wide): the middle of the longest stretch of the bar that no conflict mark
// covers, so that marks never cross out an id; false when the label fits nowhere.
func (d *diagram) labelSpot(h verify.Holding, k int, x0, bw, lw float64) (float64, bool) {
	if d.cells == nil {
		d.cells = d.markCells()
	}
	free := [][2]float64{{x0, x0 + bw}}
	for _, c := range d.cells[d.row[h.Edge]] {
		var next [][2]float64
		for _, f := range free {
			if c[1] <= f[0] || c[0] >= f[1] {
				next = append(next, f)
				continue
			}
			if c[0] > f[0] {
				next = append(next, [2]float64{f[0], c[0]})
			}
			if c[1] < f[1] {
				next = append(next, [2]float64{c[1], f[1]})
			}
		}
		free = next
	}
	best := -1
	for i, f := range free {
		if best < 0 || f[1]-f[0] > free[best][1]-free[best][0] {
			best = i
		}
	}
	if best < 0 || free[best][1]-free[best][0] < lw {
		return 0, false
	}
	return (free[best][0] + free[best][1]) / 2, true
}

// marks crosses out, in red, the cell (edge, time) of each conflict's first
// collision that is drawn.
func (d *diagram) marks(w *bufio.Writer) {
	fmt.Fprintf(w, `<g class="violations" stroke="red" stroke-width="2.5">`+"\n")
	for _, v := range d.vs {
		if v.Rule != verify.RuleConflict {
			continue
		}
		r := d.row[v.Edge]
		if r < 0 || v.Time < d.from || v.Time > d.horizon {
			continue
		}
		x0, y0 := d.x(v.Time), d.y(r)+1
		x1, y1 := x0+math.Max(minBar, d.unit), d.y(r+1)-1
		fmt.Fprintf(w, `<g class="mark"><title>%s</title><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/><line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/></g>`+"\n",
			esc(v.Error()), x0, y0, x1, y1, x0, y1, x1, y0)
	}
	fmt.Fprintf(w, "</g>\n")
}

func (d *diagram) legend(w *bufio.Writer, ids []int, legendTop, cellW float64, perLine int) {
	fmt.Fprintf(w, `<g class="legend">`+"\n")
	for k, i := range ids {
		x := pad + float64(k%perLine)*cellW
		y := legendTop + float64(k/perLine)*legendRow
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
		verdict = fmt.Sprintf("ILLEGAL (%d violations)", len(d.vs)+d.more)
		if len(d.vs)+d.more == 1 {
			verdict = "ILLEGAL (1 violation)"
		}
	}
	if d.more > 0 {
		verdict += fmt.Sprintf("; the first %d conflicts marked", MaxMarks)
	}
	return fmt.Sprintf("%s: %s, makespan %d, %d messages, %s", name, d.s.Model, d.s.Makespan, len(d.in.Messages), verdict)
}

// notes lists the violations to print under the diagram, at most MaxNotes of them,
// after a line on what was left out.
func (d *diagram) notes() []string {
	var out []string
	if d.drawn.LeftOut != "" {
		out = append(out, d.drawn.LeftOut)
	}
	if shown := d.drawn.Messages; shown > maxLegend {
		out = append(out, fmt.Sprintf("legend: the first %d of %d messages drawn", maxLegend, shown))
	}
	for k, v := range d.vs {
		if k == d.opt.MaxNotes {
			out = append(out, fmt.Sprintf("... and %d more (wormlab verify --all lists them)", len(d.vs)+d.more-k))
			break
		}
		out = append(out, v.Error())
	}
	if len(d.vs) <= d.opt.MaxNotes && d.more > 0 {
		out = append(out, fmt.Sprintf("... and %d more conflicts (wormlab verify --all counts them)", d.more))
	}
	return out
}

// tickStep returns the time between labelled ticks, 1, 2, 5, 10, 20, 50, ..., so
// that labels are at least gap pixels apart.
// Steps run up to 5 * 10^18, so that even a plot of the whole range of int (up
// to 9.2 * 10^18 steps in maxPlotW pixels) has labels at round times.
func tickStep(unit, gap float64) int {
	for s := 1; ; s *= 10 {
		for _, k := range []int{1, 2, 5} {
			if float64(s*k)*unit >= gap {
				return s * k
			}
		}
		if s > math.MaxInt/50 { // s * 10 * 5 would overflow
			return 5 * s
		}
	}
}
