package simrun

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/figure"
)

// Figures are a grid's latency-load curves and accepted-offered curves: one series
// per combination of the varying parameters other than the load and the seed
// (several seeds are replications: their mean, with a 95% interval), a saturated
// point (no latency) marked along the top of the latency plot. With one seed the
// latency's error bar is its own interval (latency_ci). When every point is
// saturated there is no latency to draw the marks against, and the accepted-offered
// figure (with the title) is the only one.
func Figures(g *Grid, outs []Outcome) ([]*figure.Figure, error) {
	var keys []string
	for _, a := range g.Axes {
		if !isLoad(a.Param) && a.Param != "seed" {
			keys = append(keys, a.Param)
		}
	}
	seeds := false
	for _, a := range g.Axes {
		seeds = seeds || a.Param == "seed"
	}
	rows := make([]figure.Row, 0, len(outs))
	for i, o := range outs {
		b, err := json.Marshal(o.Result)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		var name []string
		for _, k := range keys {
			v := o.Point.Run.Get(k)
			if len(keys) > 1 {
				v = k + "=" + v
			}
			name = append(name, v)
		}
		m["series"] = strings.Join(name, " ")
		rows = append(rows, figure.Row{Line: i + 1, Fields: m})
	}
	series := ""
	if len(keys) > 0 {
		series = "series"
	}
	title := strings.Join(figure.WrapWords(g.Head(), 80), "\n")
	cut := 0
	for _, o := range outs {
		if !o.Done {
			cut++
		}
	}
	if cut > 0 {
		// as their rows are marked (Ctrl-C, --timeout)
		title += fmt.Sprintf("\ninterrupted: %d of %d points cut short, their figures those of the cycles run", cut, len(outs))
	}
	opt := figure.Options{X: "offered", Y: "latency", Series: series, ShowNull: true, Title: title}
	if !seeds {
		opt.Err = "latency_ci"
	}
	latencies := false
	for _, o := range outs {
		latencies = latencies || o.Result.Latency != nil
	}
	accOpt := figure.Options{X: "offered", Y: "accepted", Series: series}
	if !latencies {
		accOpt.Title = opt.Title
		acc, err := buildFigure(rows, accOpt, keys)
		if err != nil {
			return nil, err
		}
		return []*figure.Figure{acc}, nil
	}
	lat, err := buildFigure(rows, opt, keys)
	if err != nil {
		return nil, err
	}
	acc, err := buildFigure(rows, accOpt, keys)
	if err != nil {
		return nil, err
	}
	return []*figure.Figure{lat, acc}, nil
}

func buildFigure(rows []figure.Row, o figure.Options, keys []string) (*figure.Figure, error) {
	f, err := figure.Build(rows, o)
	if err != nil {
		return nil, err
	}
	if len(keys) == 1 {
		f.SeriesField = keys[0]
	} else {
		f.SeriesField = ""
	}
	return f, nil
}

// Axes are the axes wormlab plot takes by default for rows of wormlab sim (or of
// a sweep of it): the offered load against the latency, one series per
// combination of the parameters whose values differ among the rows (the load
// aside, and the seed: rows of one series at one load are replications, drawn
// as their mean and its interval), and without replications the latency's own
// 95% interval as the error bar.
type Axes struct {
	X, Y, Err string
	// Vary are the parameters that differ among the rows; Series is the field
	// naming a row's series: Vary's one parameter, or with several a field
	// SeriesField adds ("routing=dor vcs=2"); "" with none.
	Vary   []string
	Series string
}

// DefaultAxes are the default axes of rows: ok is false unless a row has both
// an offered load and a latency field (rows of wormlab sim).
func DefaultAxes(rows []figure.Row) (a Axes, ok bool) {
	for _, r := range rows {
		_, off := r.Lookup("offered")
		_, lat := r.Lookup("latency")
		if off && lat {
			ok = true
			break
		}
	}
	if !ok {
		return Axes{}, false
	}
	a = Axes{X: "offered", Y: "latency"}
	for _, p := range Params() {
		if p.Load || p.Name == "seed" {
			continue
		}
		seen := map[string]bool{}
		for _, r := range rows {
			seen[rowValue(r, p)] = true
		}
		if len(seen) > 1 {
			a.Vary = append(a.Vary, p.Name)
		}
	}
	// replications: two rows of one series at one load (several seeds; a sweep's
	// points, each with a seed of its own, are not)
	seeds := false
	at := map[string]bool{}
	for _, r := range rows {
		off, _ := r.Lookup("offered")
		key := rowText(off)
		for _, k := range a.Vary {
			key += "\x00" + rowValue(r, byName[k])
		}
		seeds = seeds || at[key]
		at[key] = true
	}
	switch len(a.Vary) {
	case 0:
	case 1:
		a.Series = a.Vary[0]
	default:
		a.Series = strings.Join(a.Vary, "+")
	}
	if !seeds {
		for _, r := range rows {
			if _, ok := r.Lookup("latency_ci"); ok {
				a.Err = "latency_ci"
				break
			}
		}
	}
	return a, true
}

// SeriesField adds to every row the field a.Series names: with one parameter
// varying its value where the row leaves it at its default, with several their
// values, name=value each ("routing=dor vcs=2").
func (a Axes) SeriesField(rows []figure.Row) {
	if len(a.Vary) == 1 {
		for _, r := range rows {
			if _, ok := r.Lookup(a.Series); !ok {
				r.Fields[a.Series] = rowValue(r, byName[a.Series])
			}
		}
		return
	}
	for _, r := range rows {
		var name []string
		for _, k := range a.Vary {
			name = append(name, k+"="+rowValue(r, byName[k]))
		}
		r.Fields[a.Series] = strings.Join(name, " ")
	}
}

// rowValue is a parameter's value in a row as text: the default's when the row
// has no such field (wormlab sim writes the parameters set away from their
// defaults).
func rowValue(r figure.Row, p *Param) string {
	v, ok := r.Lookup(p.Name)
	if !ok {
		d := Default()
		return p.get(&d)
	}
	return rowText(v)
}

// rowText is a field's value as text.
func rowText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
