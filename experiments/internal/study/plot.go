package study

import (
	"bytes"
	"math"

	"github.com/wormlab/wormlab/figure"
)

// Curve is one series of a study's figure: at each X the estimate over the
// replications (the bar its 95% interval), and the X of points without a value
// (a saturated point's latency), marked along the top.
type Curve struct {
	Name  string
	X     []float64
	Y     []Est
	Marks []float64
}

// Plot draws curves to dir/file (SVG): keys fix each series's colour and glyph
// across the study's figures, the legend stands outside the plot area, and the
// labels say the units.
func Plot(dir, file, title, xlabel, ylabel string, keys []string, curves []Curve, logY bool) error {
	f := &figure.Figure{Title: title, XLabel: xlabel, YLabel: ylabel, Keys: keys, Legend: "outside", LogY: logY}
	for _, c := range curves {
		s := figure.Series{Name: c.Name, Marks: c.Marks}
		for i, x := range c.X {
			y := c.Y[i]
			if y.N == 0 || math.IsNaN(y.Mean) {
				continue
			}
			s.Points = append(s.Points, figure.Point{X: x, Y: y.Mean, Err: y.Half, N: y.N})
		}
		if len(s.Points) > 0 || len(s.Marks) > 0 {
			f.Series = append(f.Series, s)
		}
	}
	points := 0
	for _, s := range f.Series {
		points += len(s.Points)
	}
	if points == 0 { // nothing measured yet (every run failed or none ran): no figure
		return nil
	}
	var b bytes.Buffer
	if err := figure.Draw(&b, f, "svg", figure.DefaultWidth+2*72, figure.DefaultHeight); err != nil {
		return err
	}
	return WriteFile(dir, file, b.Bytes())
}
