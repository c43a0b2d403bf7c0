package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Formats are the output formats Draw knows, by file extension.
var Formats = []string{"svg", "png", "pdf", "eps"}

// Default size of a figure: a single column of a two-column paper, enlarged.
const (
	DefaultWidth  = 6 * vg.Inch
	DefaultHeight = 4 * vg.Inch
)

// Draw renders the figure in format (one of Formats) at the given size.
//
// Each series is a line through its points with a glyph at each point, a look of
// its own (colour, glyph and dashes; distinct for up to Looks series), and vertical error bars where a point has an error; a
// legend names the series when there is more than one or when it has a name. On a log
// y axis an error bar's lower end is clipped at a tenth of the point's y (a bar below
// zero has no place on that axis).
//
// With Legend "outside" the legend stands to the right of the plot area, in a
// strip as wide as its longest entry, so that it never covers a point.
func Draw(w io.Writer, f *Figure, format string, width, height vg.Length) error {
	if err := checkSize(width, height); err != nil {
		return err
	}
	p, leg, err := makePlot(f)
	if err != nil {
		return err
	}
	if leg == nil {
		wt, err := p.WriterTo(width, height, format)
		if err != nil {
			return err
		}
		return writeFixed(w, wt, format)
	}
	c, err := draw.NewFormattedCanvas(width, height, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	r := leg.Rectangle(dc)
	gap := vg.Points(8)
	strip := r.Max.X - r.Min.X + 2*gap
	if strip > width/2 {
		strip = width / 2
	}
	area := dc
	area.Max.X -= strip
	p.Draw(area)
	la := dc
	la.Min.X = area.Max.X + gap
	// level with the top of the plot area, below the title
	top := vg.Points(0)
	if p.Title.Text != "" {
		top = p.Title.TextStyle.Rectangle(p.Title.Text).Max.Y + p.Title.Padding
	}
	la.Max.Y -= top + gap
	leg.Draw(la)
	return writeFixed(w, c, format)
}

// DrawColumn renders figures one above the other, each width x height, their
// plot areas aligned, in format (one of Formats).
func DrawColumn(w io.Writer, figs []*Figure, format string, width, height vg.Length) error {
	if err := checkSize(width, height); err != nil {
		return err
	}
	plots := make([][]*plot.Plot, len(figs))
	for i, f := range figs {
		if f.Legend == "outside" {
			return fmt.Errorf("figure: legend outside is not drawn in a column; use another position")
		}
		p, _, err := makePlot(f)
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{p}
	}
	c, err := draw.NewFormattedCanvas(width, height*vg.Length(len(figs)), format)
	if err != nil {
		return err
	}
	tiles := draw.Tiles{Rows: len(figs), Cols: 1, PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
	cv := plot.Align(plots, tiles, draw.New(c))
	for i := range plots {
		plots[i][0].Draw(cv[i][0])
	}
	return writeFixed(w, c, format)
}

// writeFixed writes a rendered figure; an SVG names fonts of the same metrics as
// the one gonum measured the text with, Liberation Sans (Arial, Helvetica), before
// any sans-serif, or the legends' text would not fit their boxes.
func writeFixed(w io.Writer, wt io.WriterTo, format string) error {
	if format != "svg" {
		_, err := wt.WriteTo(w)
		return err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return err
	}
	_, err := w.Write(bytes.ReplaceAll(b.Bytes(), []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")))
	return err
}

// makePlot builds the gonum plot of f, and the legend to draw beside it when f's
// legend goes outside (nil otherwise: the plot holds its legend).
func makePlot(f *Figure) (*plot.Plot, *plot.Legend, error) {
	p := plot.New()
	for _, st := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		st.Font.Typeface, st.Font.Variant = "Liberation", "Sans"
	}
	p.Title.Text = f.Title
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel
	// round numbers on every axis (roundTicks, logRoundTicks)
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{}, roundTicks{}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logRoundTicks{}
	}
	if f.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logRoundTicks{}
	}
	if f.Categories != nil {
		ticks := make(plot.ConstantTicks, len(f.Categories))
		for i, c := range f.Categories {
			ticks[i] = plot.Tick{Value: float64(i), Label: c}
		}
		p.X.Tick.Marker = ticks
		// Room on both sides so the first and last category are not on the frame.
		p.X.Min, p.X.Max = -0.5, float64(len(f.Categories))-0.5
	}
	p.Add(plotter.NewGrid())
	legend := f.Legend != "none" && (len(f.Series) > 1 || (len(f.Series) == 1 && f.Series[0].Name != ""))
	var outside *plot.Legend
	if f.Legend == "outside" {
		l := plot.NewLegend()
		l.TextStyle = p.Legend.TextStyle
		l.Top, l.Left = true, true
		outside = &l
	}
	addLegend := func(name string, thumbs ...plot.Thumbnailer) {
		if outside != nil {
			outside.Add(name, thumbs...)
		} else {
			p.Legend.Add(name, thumbs...)
		}
	}
	looks := make([]look, len(f.Series))
	for i, k := range places(f) {
		looks[i] = lookOf(k)
	}
	p.Legend.Top = !strings.HasPrefix(f.Legend, "bottom")
	p.Legend.Left = !strings.HasSuffix(f.Legend, "right")
	p.Legend.XOffs = vg.Points(8)
	if !p.Legend.Left {
		p.Legend.XOffs = -vg.Points(8)
	}
	p.Legend.YOffs = -vg.Points(4)
	if !p.Legend.Top {
		p.Legend.YOffs = vg.Points(4)
	}
	for i, s := range f.Series {
		if len(s.Points) == 0 {
			continue // marks only
		}
		xys := make(plotter.XYs, len(s.Points))
		errs := make(plotter.YErrors, len(s.Points))
		hasErr := false
		for j, pt := range s.Points {
			xys[j] = plotter.XY{X: pt.X, Y: pt.Y}
			lo := pt.Err
			if f.LogY {
				lo = math.Min(lo, 0.9*pt.Y)
			}
			errs[j] = struct{ Low, High float64 }{lo, pt.Err}
			hasErr = hasErr || pt.Err > 0
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, nil, fmt.Errorf("series %q: %v", s.Name, err)
		}
		lk := looks[i]
		c := lk.colour
		line.Color = c
		line.Width = vg.Points(1.2)
		line.Dashes = lk.dashes
		points.Color = c
		points.Shape = lk.glyph
		points.Radius = vg.Points(2.5)
		p.Add(line, points)
		if hasErr {
			bars, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{xys, errs})
			if err != nil {
				return nil, nil, fmt.Errorf("series %q: %v", s.Name, err)
			}
			bars.Color = c
			bars.CapWidth = vg.Points(4)
			p.Add(bars)
		}
		if legend {
			name := s.Name
			switch {
			case name == "":
				name = "(none)"
			case f.SeriesField != "" && !isLabel(name):
				name = f.SeriesField + " = " + name // a bare number or boolean says nothing
			}
			addLegend(name, line, points)
		}
	}
	var marked bool
	for _, s := range f.Series {
		for _, x := range s.Marks {
			p.X.Min, p.X.Max = math.Min(p.X.Min, x), math.Max(p.X.Max, x)
			marked = true
		}
	}
	xr, yr := [2]float64{p.X.Min, p.X.Max}, [2]float64{p.Y.Min, p.Y.Max}
	pad(&p.X, f.LogX, f.Categories != nil)
	pad(&p.Y, f.LogY, false)
	for _, ax := range []struct {
		name  string
		a     *plot.Axis
		log   bool
		shown [2]float64
	}{{"x", &p.X, f.LogX, xr}, {"y", &p.Y, f.LogY, yr}} {
		if !axisFits(ax.a, ax.log) {
			return nil, nil, fmt.Errorf("figure: the %s values run from %g to %g, a range wider than the largest float64 (%.4g): no point can be placed on that axis; scale the field",
				ax.name, ax.shown[0], ax.shown[1], math.MaxFloat64)
		}
	}
	if marked {
		// Rows without a y (saturated points) as stars along the top, in their
		// series' colour; the legend says what a star is.
		for i, s := range f.Series {
			if len(s.Marks) == 0 {
				continue
			}
			// one row of stars per series, from the top down, so that the
			// series' marks at one x do not hide each other
			y := p.Y.Max - float64(i)*0.03*(p.Y.Max-p.Y.Min)
			if f.LogY {
				y = p.Y.Max / math.Pow(p.Y.Max/p.Y.Min, 0.03*float64(i))
			}
			xys := make(plotter.XYs, len(s.Marks))
			for j, x := range s.Marks {
				xys[j] = plotter.XY{X: x, Y: y}
			}
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, nil, fmt.Errorf("series %q: %v", s.Name, err)
			}
			sc.Color = looks[i].colour
			sc.Shape = satMark
			sc.Radius = vg.Points(4)
			p.Add(sc)
		}
		key, _ := plotter.NewScatter(plotter.XYs{{X: p.X.Min, Y: p.Y.Max}})
		key.Shape, key.Radius, key.Color = satMark, vg.Points(4), color.Black
		if f.Legend != "none" {
			addLegend("saturated (no latency)", key)
		}
	}
	// Within two decades, log ticks would label one power of ten or none.
	// A log x axis over a sweep's few values within three decades (8, 16, 32, 64)
	// is labelled at them.
	if xs := distinctX(f); f.LogX && len(xs) <= 12 && xs[len(xs)-1]/xs[0] <= 1000 {
		ticks := make(plot.ConstantTicks, len(xs))
		for i, x := range xs {
			ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', -1, 64)}
		}
		p.X.Tick.Marker = ticks
	}
	return p, outside, nil
}

// places are the series' places, which fix their looks (lookOf): a series's name's
// place in f.Keys, or, for a series whose name Keys lacks, the places after Keys in
// the order of Series; without Keys, each series's own place. No two series of f
// share a place.
func places(f *Figure) []int {
	out := make([]int, len(f.Series))
	next := len(f.Keys)
	for i, s := range f.Series {
		if k := slices.Index(f.Keys, s.Name); k >= 0 && !slices.Contains(out[:i], k) {
			out[i] = k
			continue
		}
		out[i] = next
		next++
	}
	return out
}

// Legends are the legend positions Draw knows; the first is the default.
// "outside" puts it to the right of the plot area.
var Legends = []string{"top-left", "top-right", "bottom-left", "bottom-right", "outside", "none"}

// isLabel reports a series name that names itself: not a number or a boolean.
func isLabel(name string) bool {
	if name == "true" || name == "false" {
		return false
	}
	_, err := strconv.ParseFloat(name, 64)
	return err != nil
}

// distinctX lists the x values of every point, ascending.
func distinctX(f *Figure) []float64 {
	var xs []float64
	for _, s := range f.Series {
		for _, p := range s.Points {
			xs = append(xs, p.X)
		}
	}
	sort.Float64s(xs)
	return slices.Compact(xs)
}

// pad widens an axis by 4% of its range on each side (by a factor on a log axis) so
// that no point sits on the frame; categorical axes keep their half-step margins.
func pad(a *plot.Axis, log, categorical bool) {
	if categorical {
		return
	}
	if log {
		f := math.Pow(a.Max/a.Min, 0.04)
		if f <= 1 || math.IsNaN(f) || math.IsInf(f, 0) {
			f = 1.1
		}
		a.Min, a.Max = a.Min/f, a.Max*f
		return
	}
	d := 0.04 * (a.Max - a.Min)
	if d == 0 {
		d = math.Max(0.5, 0.1*math.Abs(a.Max))
	}
	a.Min, a.Max = a.Min-d, a.Max+d
}

// axisFits reports whether gonum can place points on the axis a, whose ends
// pad has set: a margin that passes the largest float64 is cut there, and then
// the width must be finite too on a linear axis (gonum divides by it: an
// infinite width put every point at one end, outside the frame, and the plot
// came out empty).
func axisFits(a *plot.Axis, log bool) bool {
	a.Min, a.Max = max(a.Min, -math.MaxFloat64), min(a.Max, math.MaxFloat64)
	w := a.Max - a.Min
	return !math.IsNaN(w) && (log || !math.IsInf(w, 0))
}

// MaxSize bounds a figure's width and height: 100 inches (a PNG of 100 x 100
// inches at gonum's 96 dpi is 92 million pixels).
const MaxSize = 100 * vg.Inch

// checkSize refuses a width or height that is not a positive finite length up to
// MaxSize (NaN wrote width="NaNpt" into an SVG and panicked in a PNG).
func checkSize(width, height vg.Length) error {
	for _, d := range []struct {
		name string
		v    vg.Length
	}{{"width", width}, {"height", height}} {
		if !(d.v > 0 && d.v <= MaxSize) {
			return fmt.Errorf("figure: %s %g pt outside (0, %g]", d.name, float64(d.v), float64(MaxSize))
		}
	}
	return nil
}

// satMark is the glyph of a saturated point's mark.
var satMark draw.GlyphDrawer = satGlyph{}

// satGlyph marks a saturated point: a plus and a cross drawn over each other, eight
// arms, a shape no series takes (the series' glyphs, lookOf, include a plus and a
// cross, each alone).
type satGlyph struct{}

func (satGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	draw.PlusGlyph{}.DrawGlyph(c, sty, pt)
	draw.CrossGlyph{}.DrawGlyph(c, sty, pt)
}
