package simrun

import (
	"bytes"
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
