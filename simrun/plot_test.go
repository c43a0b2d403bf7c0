package simrun

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/sim"
)

func fptr(x float64) *float64 { return &x }

// The latency-load figure has one series per routing, a saturated point as a mark
// (not dropped), the latency's interval as the error bar; the accepted-offered
// figure keeps every point; several seeds are replications of one series.
func TestFigures(t *testing.T) {
	g := &Grid{Base: Default()}
	require.NoError(t, g.SetAxis("routing", []string{"dor", "duato"}))
	require.NoError(t, g.SetAxis("rate", []string{"0.1", "0.5"}))
	pts, err := g.Points()
	require.NoError(t, err)
	outs := make([]Outcome, len(pts))
	for i, p := range pts {
		r := &sim.Result{Offered: p.Run.Rate, Accepted: p.Run.Rate * 0.9, Latency: fptr(50 + float64(i)), LatencyCI: fptr(1)}
		if p.Run.Rate == 0.5 && p.Run.Routing == "dor" {
			r.Latency, r.LatencyCI, r.Saturated = nil, nil, true
		}
		outs[i] = Outcome{Point: p, Result: r, Done: true}
	}
	figs, err := Figures(g, outs)
	require.NoError(t, err)
	require.Len(t, figs, 2)
	lat, acc := figs[0], figs[1]
	require.Equal(t, "dor", lat.Series[0].Name)
	require.Equal(t, []float64{0.5}, lat.Series[0].Marks)
	require.Len(t, lat.Series[0].Points, 1)
	require.Equal(t, 1.0, lat.Series[0].Points[0].Err)
	require.Len(t, lat.Series[1].Points, 2)
	require.Len(t, acc.Series[0].Points, 2)
	require.Equal(t, "latency (cycles)", lat.YLabel)
	require.Equal(t, "accepted load (flits/node/cycle)", acc.YLabel)
	var b bytes.Buffer
	require.NoError(t, figure.DrawColumn(&b, figs, "svg", figure.DefaultWidth, figure.DefaultHeight))
	require.Contains(t, b.String(), "saturated (no latency)")

	require.NoError(t, g.SetAxis("seed", []string{"1", "2"}))
	pts, err = g.Points()
	require.NoError(t, err)
	outs = outs[:0]
	for i, p := range pts {
		outs = append(outs, Outcome{Point: p, Result: &sim.Result{Offered: p.Run.Rate, Accepted: p.Run.Rate, Latency: fptr(50 + float64((i/2)%2))}, Done: true})
	}
	figs, err = Figures(g, outs)
	require.NoError(t, err)
	require.Len(t, figs[0].Series, 2, "the seed is not a series")
	require.Equal(t, 2, figs[0].Series[0].Points[0].N, "two seeds, one point")
	require.Greater(t, figs[0].Series[0].Points[0].Err, 0.0)

	// every point saturated: the accepted-offered figure alone, with the title
	for i := range outs {
		outs[i].Result.Latency, outs[i].Result.LatencyCI, outs[i].Result.Saturated = nil, nil, true
	}
	figs, err = Figures(g, outs)
	require.NoError(t, err)
	require.Len(t, figs, 1)
	require.Equal(t, "accepted load (flits/node/cycle)", figs[0].YLabel)
	require.NotEmpty(t, figs[0].Title)
	b.Reset()
	require.NoError(t, figure.DrawColumn(&b, figs, "svg", figure.DefaultWidth, figure.DefaultHeight))
}

// Rows of wormlab sim plot offered load against latency by default, a series per
// parameter that varies (a parameter left out of a row is at its default; seeds
// are replications, and with several the latency's own interval is not the
// error bar); other rows have no default axes.
func TestDefaultAxes(t *testing.T) {
	read := func(text string) []figure.Row {
		rows, err := figure.ReadRows(strings.NewReader(text))
		require.NoError(t, err)
		return rows
	}
	rows := read(`{"routing":"xy","vcs":2,"seed":1,"offered":0.1,"latency":20,"latency_ci":1}
{"routing":"westfirst","vcs":2,"seed":1,"offered":0.1,"latency":21,"latency_ci":1}
{"routing":"xy","seed":1,"offered":0.1,"latency":19,"latency_ci":1}
`)
	a, ok := DefaultAxes(rows)
	require.True(t, ok)
	require.Equal(t, Axes{X: "offered", Y: "latency", Err: "latency_ci", Vary: []string{"routing", "vcs"}, Series: "routing+vcs"}, a)
	a.SeriesField(rows)
	var names []string
	for _, r := range rows {
		names = append(names, r.Fields["routing+vcs"].(string))
	}
	require.Equal(t, []string{"routing=xy vcs=2", "routing=westfirst vcs=2", "routing=xy vcs=4"}, names)

	rows = read("routing,seed,offered,latency,latency_ci\nxy,1,0.1,20,1\nxy,2,0.1,,\n")
	a, ok = DefaultAxes(rows)
	require.True(t, ok)
	require.Equal(t, Axes{X: "offered", Y: "latency"}, a, "seeds are replications")
	rows = read("routing,seed,offered,latency,latency_ci\nxy,1,0.1,20,1\nxy,2,0.2,22,1\n")
	a, ok = DefaultAxes(rows)
	require.True(t, ok)
	require.Equal(t, Axes{X: "offered", Y: "latency", Err: "latency_ci"}, a, "a seed for each load (a sweep's points): no replications")

	rows = read(`{"routing":"xy","vcs":2,"offered":0.1,"latency":20}
{"routing":"xy","offered":0.2,"latency":22}
`)
	a, ok = DefaultAxes(rows)
	require.True(t, ok)
	require.Equal(t, "vcs", a.Series)
	a.SeriesField(rows)
	require.Equal(t, "4", rows[1].Fields["vcs"], "the default filled in")

	_, ok = DefaultAxes(read(`{"rate":0.1,"latency":10}`))
	require.False(t, ok)
}

// A figure drawn from points cut short (Ctrl-C, --timeout) says so in its
// title, as the rows it is drawn from are marked: their figures are those of
// the cycles run.
func TestFiguresInterrupted(t *testing.T) {
	g := &Grid{Base: Default()}
	require.NoError(t, g.SetAxis("rate", []string{"0.1", "0.2", "0.3"}))
	pts, err := g.Points()
	require.NoError(t, err)
	outs := make([]Outcome, len(pts))
	for i, p := range pts {
		outs[i] = Outcome{Point: p, Result: &sim.Result{Offered: p.Run.Rate, Accepted: p.Run.Rate, Latency: fptr(50)}, Done: true}
	}
	figs, err := Figures(g, outs)
	require.NoError(t, err)
	require.NotContains(t, figs[0].Title, "interrupted")
	outs[2].Done = false
	figs, err = Figures(g, outs)
	require.NoError(t, err)
	require.Contains(t, figs[0].Title, "interrupted: 1 of 3 points cut short")
	for i := range outs {
		outs[i].Result.Latency = nil // every point saturated: the one figure has the title
	}
	figs, err = Figures(g, outs)
	require.NoError(t, err)
	require.Len(t, figs, 1)
	require.Contains(t, figs[0].Title, "interrupted: 1 of 3 points cut short")
}
