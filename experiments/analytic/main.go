// Command analytic sets seed 004's analytic model (Quaglia, Ciciani and Colajanni,
// Parallel Computing 28, 2002; package analytic) beside the paper's Tables 1 and 2
// and wormlab's simulator, fits the rate factor that would reconcile the model with
// the paper's Model column, draws the paper's Figures 3 and 4 (blocking time per
// hop against k, latency against message length: deterministic against adaptive)
// from the adaptive model and wormlab's deterministic counterpart
// (analytic.SolveDeterministic) and from the simulator (dimension order against
// Duato's protocol, 4 VCs each), and measures where the model stops being accurate
// beyond the paper.
//
// Usage: go run ./experiments/analytic [-scale full|test] [-workers N] [-only PARTS]
// [-report] [-wormlab BIN] OUTDIR
package main

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/analytic"
	"github.com/wormlab/wormlab/experiments/internal/study"
)

// the simulator's set-up of the paper's: 4 VCs, Duato's protocol (minimal fully
// adaptive, dimension-order escape), X before Y with the first free VC, Poisson
// sources, uniform destinations, one cycle per flit per link
func simParams(k, flits int) map[string]any {
	return map[string]any{"topology": fmt.Sprintf("torus:%dx%d", k, k), "vcs": 4, "select": "first", "process": "poisson",
		"pipeline": "ideal", "traffic": "uniform", "flits": flits, "min-cycles": 20000, "max-cycles": 60000, "rel": 0.01}
}

// taus are Figures 3 and 4's message generation times (cycles between a node's
// messages): low, medium and high traffic.
var taus = []float64{1000, 500, 300}

var fig3K = []int{4, 8, 12, 16, 20, 24, 28, 32}
var fig3SimK = []int{4, 8, 12, 16}
var fig4L = []int{4, 8, 12, 16, 24, 32, 48, 64}
var fig4SimL = []int{4, 8, 16, 32, 64}

// beyond: k, L and the loads as fractions of the model's saturation rate
var beyondK = []int{4, 8, 16}
var beyondL = []int{4, 16, 64}
var beyondF = []float64{0.1, 0.5, 0.8, 0.95, 1.25, 2, 3}

// modelSat is the model's first saturated rate on a grid of 1/200 of the
// zero-load bound 4/(k L) (messages/node/cycle).
func modelSat(k, L int) float64 {
	step := 4 / float64(k*L) / 200
	r, _ := analytic.Saturation(k, L, analytic.Paper, step)
	return r
}

func round(x float64) float64 { return math.Round(x*1e9) / 1e9 }

func parts(scale string) []study.Part {
	var ps []study.Part
	add := func(name string, reps int, cases []study.Case) {
		ps = append(ps, study.Part{Name: name, Spec: study.Spec{Command: "sim", Seed: 4, Replications: reps, Timeout: "1h",
			Params: map[string]any{}, Axes: map[string]any{"point": cases}}})
	}
	// Tables 1 and 2, and a few rates past them
	var tc []study.Case
	extra := []analytic.Entry{{K: 16, Rate: 0.008}, {K: 16, Rate: 0.009}, {K: 16, Rate: 0.01}, {K: 12, Rate: 0.01}, {K: 12, Rate: 0.011}, {K: 12, Rate: 0.012}}
	for _, e := range append(analytic.Tables(), extra...) {
		if scale == "test" && !(e.Rate == 0.001 || e.Rate == 0.005) {
			continue
		}
		c := simParams(e.K, analytic.TableL)
		c["routing"], c["msg-rate"] = "duato", e.Rate
		tc = append(tc, study.Case{Name: fmt.Sprintf("k=%d rate=%g", e.K, e.Rate), Params: c})
	}
	add("tables", 3, tc)
	if scale == "test" {
		return ps
	}
	// Figures 3 and 4 by simulation
	var f3, f4 []study.Case
	for _, alg := range []string{"dor", "duato"} {
		for _, tau := range taus {
			for _, k := range fig3SimK {
				c := simParams(k, 12)
				c["routing"], c["msg-rate"] = alg, round(1/tau)
				f3 = append(f3, study.Case{Name: fmt.Sprintf("%s k=%d tau=%g", alg, k, tau), Params: c})
			}
			for _, L := range fig4SimL {
				c := simParams(12, L)
				c["routing"], c["msg-rate"] = alg, round(1/tau)
				f4 = append(f4, study.Case{Name: fmt.Sprintf("%s L=%d tau=%g", alg, L, tau), Params: c})
			}
		}
	}
	add("fig3", 3, f3)
	add("fig4", 3, f4)
	// beyond the paper
	var bc []study.Case
	for _, k := range beyondK {
		for _, L := range beyondL {
			m := modelSat(k, L)
			for _, f := range beyondF {
				c := simParams(k, L)
				c["routing"], c["msg-rate"] = "duato", round(f*m)
				bc = append(bc, study.Case{Name: fmt.Sprintf("k=%d L=%d f=%g", k, L, f), Params: c})
			}
		}
	}
	add("beyond", 3, bc)
	return ps
}

func main() {
	study.Main(study.Program{Name: "analytic", Scales: []string{"full", "test"},
		ScaleHelp: "full, test (the tables' rates 0.001 and 0.005 only)",
		Parts:     parts, Fields: fields, Report: func(_ context.Context, dir string) error { return Report(dir) }})
}

// simPoint is the simulator at one case over its seeds: the latency when every seed
// is steady, the accepted load, and how many seeds saturated.
type simPoint struct {
	lat, acc  study.Est
	saturated int
	failed    int
	seeds     int
}

// fields are the values the report reads of a sim point.
var fields = []string{"latency", "accepted"}

func collect(pts []study.Point) map[string]map[string]simPoint {
	out := map[string]map[string]simPoint{}
	for _, pt := range pts {
		if out[pt.Part] == nil {
			out[pt.Part] = map[string]simPoint{}
		}
		p := simPoint{seeds: len(pt.Obs), acc: pt.Est("accepted")}
		for _, o := range pt.Obs {
			if o.Failed != "" {
				p.failed++
			} else if _, ok := o.Get("latency"); !ok {
				p.saturated++
			}
		}
		if pt.All("latency") {
			p.lat = pt.Est("latency")
		}
		out[pt.Part][pt.Name] = p
	}
	return out
}

func model(k, L int, rate float64, det bool) (float64, bool) {
	p := analytic.Params{K: k, L: L, Rate: rate}
	if det {
		r, err := analytic.SolveDeterministic(p, analytic.Paper)
		if err != nil || r.Saturated {
			return math.NaN(), false
		}
		return r.Latency, true
	}
	r, err := analytic.Solve(p, analytic.Paper)
	if err != nil || r.Saturated {
		return math.NaN(), false
	}
	return r.Latency, true
}

func fmt3(x float64) string {
	if math.IsNaN(x) {
		return "saturated"
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

func f2(x float64) string {
	if math.IsNaN(x) {
		return "saturated"
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}

// Report writes summary.md and the figures of the points in dir/points.jsonl.gz.
func Report(dir string) error {
	pts, err := study.ReadPoints(dir)
	if err != nil {
		return err
	}
	data := collect(pts)
	cpu, err := study.ReadCPU(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# Seed 004 re-run: tables\n\nWritten by `go run ./experiments/analytic`; docs/analytic-model.md quotes them.\n")
	section := func(name, text string) { fmt.Fprintf(&b, "\n`%s`\n\n%s", name, text) }

	runs := study.Table{Head: []string{"part", "cases", "seeds", "saturated or failed (cases)", "CPU-minutes"}}
	total := 0.0
	for _, p := range parts("full") {
		m := data[p.Name]
		if m == nil {
			continue
		}
		bad := 0
		for _, sp := range m {
			if sp.saturated+sp.failed > 0 {
				bad++
			}
		}
		h := study.CPUHours(cpu, p.Name)
		total += h
		runs.Rows = append(runs.Rows, []string{p.Name, fmt.Sprint(len(m)), fmt.Sprint(p.Spec.Replications), fmt.Sprint(bad), fmt.Sprintf("%.1f", h*60)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", "", fmt.Sprintf("%.1f", total*60)})
	section("runs", runs.String())

	// Tables 1 and 2 beside the model and the simulator
	tt := study.Table{Head: []string{"torus", "rate", "paper sim", "wormlab sim (3 seeds, 95%)", "sim vs paper %", "paper model", "wormlab model", "model vs paper %"}}
	var curves = map[int][]study.Curve{}
	for _, k := range []int{4, 8, 12, 16} {
		ps, ws, pm, wm := study.Curve{Name: "paper simulation"}, study.Curve{Name: "wormlab simulation"}, study.Curve{Name: "paper model"}, study.Curve{Name: "wormlab model"}
		for _, e := range analytic.Tables() {
			if e.K != k {
				continue
			}
			sp := data["tables"][fmt.Sprintf("k=%d rate=%g", e.K, e.Rate)]
			m, _ := model(e.K, analytic.TableL, e.Rate, false)
			simVs := "—"
			if sp.lat.N > 0 {
				simVs = fmt.Sprintf("%+.1f", 100*(sp.lat.Mean-e.Sim)/e.Sim)
			}
			tt.Rows = append(tt.Rows, []string{fmt.Sprintf("%dx%d", k, k), fmt.Sprint(e.Rate), f2(e.Sim), sp.lat.Fmt(2), simVs, f2(e.Model), f2(m), fmt.Sprintf("%+.1f", 100*(m-e.Model)/e.Model)})
			ps.X, ps.Y = append(ps.X, e.Rate), append(ps.Y, study.Est{Mean: e.Sim, N: 1})
			pm.X, pm.Y = append(pm.X, e.Rate), append(pm.Y, study.Est{Mean: e.Model, N: 1})
			ws.X, ws.Y = append(ws.X, e.Rate), append(ws.Y, sp.lat)
			wm.X, wm.Y = append(wm.X, e.Rate), append(wm.Y, study.Est{Mean: m, N: 1})
		}
		curves[k] = []study.Curve{ps, ws, pm, wm}
	}
	for _, e := range []analytic.Entry{{K: 16, Rate: 0.008}, {K: 16, Rate: 0.009}, {K: 16, Rate: 0.01}, {K: 12, Rate: 0.01}, {K: 12, Rate: 0.011}, {K: 12, Rate: 0.012}} {
		sp := data["tables"][fmt.Sprintf("k=%d rate=%g", e.K, e.Rate)]
		m, _ := model(e.K, analytic.TableL, e.Rate, false)
		lat := sp.lat.Fmt(2)
		if sp.saturated > 0 {
			lat = fmt.Sprintf("saturated in %d of %d seeds", sp.saturated, sp.seeds)
		}
		tt.Rows = append(tt.Rows, []string{fmt.Sprintf("%dx%d", e.K, e.K), fmt.Sprint(e.Rate), "—", lat, "—", "—", f2(m), "—"})
	}
	section("tables", tt.String())
	keys := []string{"paper simulation", "wormlab simulation", "paper model", "wormlab model"}
	for _, k := range []int{4, 8, 12, 16} {
		if err := study.Plot(dir, fmt.Sprintf("torus-%dx%d.svg", k, k), fmt.Sprintf("seed 004, %dx%d torus, 12-flit messages", k, k),
			"generation rate (messages/node/cycle)", "mean latency (cycles)", keys, curves[k], false); err != nil {
			return err
		}
	}

	// the rate factor
	ft := study.Table{Head: []string{"torus", "max / mean error at factor 1 (%)", "at 12/11 (%)", "best factor", "RMS error at the best factor (%)"}}
	for _, k := range []int{4, 8, 12, 16} {
		m1, a1 := analytic.FactorScore(k, analytic.Paper, 1)
		m2, a2 := analytic.FactorScore(k, analytic.Paper, 12.0/11)
		f, rms := analytic.BestFactor(k, analytic.Paper, 1, 1.4, 0.001)
		ft.Rows = append(ft.Rows, []string{fmt.Sprintf("%dx%d", k, k), fmt.Sprintf("%.2f / %.2f", m1, a1), fmt.Sprintf("%.2f / %.2f", m2, a2), fmt.Sprintf("%.3f", f), fmt.Sprintf("%.3f", rms)})
	}
	section("factor", ft.String())

	// Figure 3: blocking time per hop against k
	f3 := study.Table{Head: []string{"k", "tau_E", "adaptive model", "deterministic model", "adaptive sim (duato)", "deterministic sim (dor)"}}
	var f3c []study.Curve
	for _, tau := range taus {
		am, dm := study.Curve{Name: fmt.Sprintf("adaptive model, tau %g", tau)}, study.Curve{Name: fmt.Sprintf("deterministic model, tau %g", tau)}
		for _, k := range fig3K {
			a, _ := model(k, 12, 1/tau, false)
			d, _ := model(k, 12, 1/tau, true)
			ab, db := analytic.Blocking(a, k, 12), analytic.Blocking(d, k, 12)
			row := []string{fmt.Sprint(k), fmt.Sprint(tau), fmt3(ab), fmt3(db), "", ""}
			if !math.IsNaN(a) {
				am.X, am.Y = append(am.X, float64(k)), append(am.Y, study.Est{Mean: ab, N: 1})
			}
			if !math.IsNaN(d) {
				dm.X, dm.Y = append(dm.X, float64(k)), append(dm.Y, study.Est{Mean: db, N: 1})
			}
			for i, alg := range []string{"duato", "dor"} {
				sp, ok := data["fig3"][fmt.Sprintf("%s k=%d tau=%g", alg, k, tau)]
				if ok && sp.lat.N > 0 {
					row[4+i] = blockFmt(sp.lat, k, 12)
				}
			}
			f3.Rows = append(f3.Rows, row)
		}
		f3c = append(f3c, am, dm)
	}
	section("fig3", f3.String())
	var f3keys []string
	for _, c := range f3c {
		f3keys = append(f3keys, c.Name)
	}
	if err := study.Plot(dir, "fig3.svg", "Figure 3: blocking time per hop, 12-flit messages (models)", "torus side k (k x k nodes)",
		"mean blocking time per hop (cycles)", f3keys, f3c, false); err != nil {
		return err
	}
	// Figure 4: latency against L on the 12x12 torus
	f4 := study.Table{Head: []string{"L", "tau_E", "adaptive model", "deterministic model", "adaptive sim (duato)", "deterministic sim (dor)"}}
	var f4c []study.Curve
	for _, tau := range taus {
		am, dm := study.Curve{Name: fmt.Sprintf("adaptive model, tau %g", tau)}, study.Curve{Name: fmt.Sprintf("deterministic model, tau %g", tau)}
		for _, L := range fig4L {
			a, _ := model(12, L, 1/tau, false)
			d, _ := model(12, L, 1/tau, true)
			row := []string{fmt.Sprint(L), fmt.Sprint(tau), f2(a), f2(d), "", ""}
			if !math.IsNaN(a) {
				am.X, am.Y = append(am.X, float64(L)), append(am.Y, study.Est{Mean: a, N: 1})
			}
			if !math.IsNaN(d) {
				dm.X, dm.Y = append(dm.X, float64(L)), append(dm.Y, study.Est{Mean: d, N: 1})
			}
			for i, alg := range []string{"duato", "dor"} {
				sp, ok := data["fig4"][fmt.Sprintf("%s L=%d tau=%g", alg, L, tau)]
				switch {
				case ok && sp.lat.N > 0:
					row[4+i] = sp.lat.Fmt(2)
				case ok:
					row[4+i] = fmt.Sprintf("saturated (%d of %d)", sp.saturated+sp.failed, sp.seeds)
				}
			}
			f4.Rows = append(f4.Rows, row)
		}
		f4c = append(f4c, am, dm)
	}
	section("fig4", f4.String())
	if err := study.Plot(dir, "fig4.svg", "Figure 4: latency on the 12x12 torus (models)", "message length L (flits)",
		"mean latency (cycles)", f3keys, f4c, true); err != nil {
		return err
	}

	// beyond the paper: the model's relative error against the simulation
	bt := study.Table{Head: []string{"k", "L", "model saturation (messages/node/cycle)"}}
	for _, f := range beyondF {
		bt.Head = append(bt.Head, fmt.Sprintf("%g", f))
	}
	var bcurves []study.Curve
	for _, k := range beyondK {
		for _, L := range beyondL {
			m := modelSat(k, L)
			row := []string{fmt.Sprint(k), fmt.Sprint(L), fmt.Sprintf("%.5g", m)}
			c := study.Curve{Name: fmt.Sprintf("k=%d L=%d", k, L)}
			for _, f := range beyondF {
				sp, ok := data["beyond"][fmt.Sprintf("k=%d L=%d f=%g", k, L, f)]
				mod, mok := model(k, L, round(f*m), false)
				switch {
				case !ok:
					row = append(row, "")
				case sp.lat.N == 0:
					row = append(row, fmt.Sprintf("sim saturated (%d of %d)", sp.saturated+sp.failed, sp.seeds))
				case !mok:
					row = append(row, "model saturated")
				default:
					e := 100 * (mod - sp.lat.Mean) / sp.lat.Mean
					row = append(row, fmt.Sprintf("%+.1f", e))
					c.X, c.Y = append(c.X, f), append(c.Y, study.Est{Mean: e, N: 1})
				}
			}
			bt.Rows = append(bt.Rows, row)
			bcurves = append(bcurves, c)
		}
	}
	section("beyond", "Relative error of the model against the simulation, percent, at each fraction of the model's saturation rate:\n\n"+bt.String())
	var bkeys []string
	for _, c := range bcurves {
		bkeys = append(bkeys, c.Name)
	}
	sort.Strings(bkeys)
	if err := study.Plot(dir, "beyond-error.svg", "seed 004's model against wormlab's simulator beyond the paper", "rate / the model's saturation rate",
		"(model - simulation) / simulation (%)", bkeys, bcurves, false); err != nil {
		return err
	}
	return study.WriteFile(dir, "summary.md", []byte(b.String()))
}

// blockFmt is a simulated latency as blocking time per hop, with its interval.
func blockFmt(lat study.Est, k, L int) string {
	h := analytic.Hops(k)
	return fmt.Sprintf("%.3f ± %.3f", analytic.Blocking(lat.Mean, k, L), lat.Half/h)
}
