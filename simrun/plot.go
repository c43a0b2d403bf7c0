package simrun

import (
	"encoding/json"
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
	opt := figure.Options{X: "offered", Y: "latency", Series: series, ShowNull: true, Title: strings.Join(figure.WrapWords(g.Head(), 80), "\n")}
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
