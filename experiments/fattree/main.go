// Command fattree re-runs the simulation study of Greenberg and Oh, "Universal
// wormhole routing" (seed 000, section B): STORE, WORM, UNIV (Leighton, Maggs and
// Rao's, with ghosts, and its rank rule alone) and SPLIT on butterfly fat-trees of
// 16 to 4096 processors under static injection, with every path selection and input
// scan, Tables I and II (at L = 16 and L = 32), Figures 2 to 5, the initial
// delays, the worm length, the queue sizes, and greedy against the lower bound and
// the SAT optimum on fixed paths.
//
// Usage: go run ./experiments/fattree [-scale full|test] [-workers N] [-only PARTS]
// [-report] [-wormlab BIN] OUTDIR
//
// Every part is a sweep spec of `wormlab fattree` points (RUNS runs each, 99%
// intervals over them as the paper's error bars) run into OUTDIR/PART.jsonl; the
// report writes OUTDIR/summary.md (the tables docs/fattree-study.md quotes) and the
// figures.
package main

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
	"github.com/wormlab/wormlab/fattree"
)

var sizes = []int{16, 64, 256, 1024, 4096}

// pt is one fattree point: its label and flags.
type pt struct {
	label string
	set   map[string]any
}

func strat(algo, path, scan string, extra ...any) map[string]any {
	m := map[string]any{"algo": algo, "path": path, "scan": scan}
	for i := 0; i < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

type partDef struct {
	name  string
	runs  int
	sizes []int
	pts   []pt
	extra map[string]any
}

func defs(scale string) []partDef {
	ds := []partDef{
		{name: "table1", runs: 20, sizes: sizes, pts: func() []pt {
			var ps []pt
			for _, p := range []string{"random", "complement", "many-to-1"} {
				for _, a := range []string{"store", "worm"} {
					ps = append(ps, pt{strings.ToUpper(a) + "-RP-RR " + p, merge(strat(a, "rp", "rr"), "pattern", p)})
				}
			}
			return ps
		}()},
		{name: "fig2", runs: 20, sizes: sizes, pts: []pt{
			{"UNIV (rank rule alone)", strat("univ", "rp", "rr")},
			{"UNIV with ghosts", strat("univ-ghost", "rp", "rr")},
			{"UNIV with ghosts complement", strat("univ-ghost", "rp", "rr", "pattern", "complement")},
			{"UNIV with ghosts many-to-1", strat("univ-ghost", "rp", "rr", "pattern", "many-to-1")},
		}},
		{name: "fig2-flitghosts", runs: 20, sizes: []int{16, 64, 256, 1024}, pts: []pt{
			{"UNIV with one-flit ghosts", strat("univ-ghost", "rp", "rr", "ghost-hops", 16)},
		}},
		{name: "fig3", runs: 20, sizes: sizes, pts: []pt{
			{"STORE-FP-RR", strat("store", "fp", "rr")}, {"STORE-GP-RR", strat("store", "gp", "rr")},
			{"WORM-FP-RR", strat("worm", "fp", "rr")}, {"WORM-GP-RR", strat("worm", "gp", "rr")},
		}},
		{name: "fig4", runs: 20, sizes: sizes, pts: []pt{
			{"STORE-RP-FO", strat("store", "rp", "fo")}, {"STORE-RP-FF", strat("store", "rp", "ff")},
			{"STORE-RP-FF, FO ties", strat("store", "rp", "ff-fo")}, {"STORE-GP-FO", strat("store", "gp", "fo")},
			{"WORM-RP-FO", strat("worm", "rp", "fo")}, {"WORM-RP-FF", strat("worm", "rp", "ff")},
			{"WORM-RP-FF, FO ties", strat("worm", "rp", "ff-fo")}, {"WORM-GP-FO", strat("worm", "gp", "fo")},
		}},
		{name: "fig5", runs: 20, sizes: sizes, pts: []pt{
			{"SPLIT-RP-FO", strat("split", "rp", "fo")}, {"SPLIT-GP-FF", strat("split", "gp", "ff")},
			{"SPLIT-RP-RR", strat("split", "rp", "rr")}, {"SPLIT-RP-RR, 1 addressing flit", strat("split", "rp", "rr", "overhead", 1)},
		}},
		{name: "delays", runs: 20, sizes: []int{256, 1024}, pts: []pt{
			{"STORE-RP-RR, R = 8", strat("store", "rp", "rr", "delay", 8)},
			{"WORM-RP-RR, R = 2", strat("worm", "rp", "rr", "delay", 2)},
		}},
		{name: "length", runs: 20, sizes: []int{256}, pts: func() []pt {
			var ps []pt
			for _, l := range []int{4, 8, 32, 64} {
				for _, a := range []string{"store", "worm"} {
					ps = append(ps, pt{fmt.Sprintf("%s-RP-RR, L = %d", strings.ToUpper(a), l), strat(a, "rp", "rr", "flits", l)})
				}
			}
			return ps
		}()},
		{name: "table2-L32", runs: 20, sizes: sizes, pts: []pt{{"WORM-RP-RR, L = 32", strat("worm", "rp", "rr", "flits", 32)}}},
		{name: "queues", runs: 20, sizes: []int{256, 4096}, pts: func() []pt {
			var ps []pt
			for _, q := range []int{1, 3, 4, 8} {
				ps = append(ps, pt{fmt.Sprintf("WORM-RP-RR, q = %d flits", q), strat("worm", "rp", "rr", "queue", q)})
			}
			for _, q := range []int{2, 4} {
				ps = append(ps, pt{fmt.Sprintf("STORE-RP-RR, %d-packet queues", q), strat("store", "rp", "rr", "store-queue", q)})
			}
			return ps
		}()},
		{name: "fp-bounds", runs: 10, sizes: sizes, pts: []pt{{"WORM-FP-RR bounds", strat("worm", "fp", "rr", "bounds", true)}}},
		{name: "fp-optimal", runs: 10, sizes: []int{16}, pts: []pt{{"WORM-FP-RR optimum", strat("worm", "fp", "rr", "bounds", true, "optimal", "60s")}}},
		{name: "fp-optimal64", runs: 3, sizes: []int{64}, pts: []pt{{"WORM-FP-RR optimum", strat("worm", "fp", "rr", "bounds", true, "optimal", "60s")}}},
	}
	if scale == "test" {
		var t []partDef
		for _, d := range ds {
			if d.name == "table1" || d.name == "fig2" || d.name == "table2-L32" {
				d.sizes = []int{16, 256}
				t = append(t, d)
			}
		}
		return t
	}
	return ds
}

func merge(m map[string]any, kv ...any) map[string]any {
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func parts(scale string) []study.Part {
	var out []study.Part
	for _, d := range defs(scale) {
		var cases []study.Case
		for _, p := range d.pts {
			for _, n := range d.sizes {
				c := map[string]any{"n": n}
				for k, v := range p.set {
					c[k] = v
				}
				cases = append(cases, study.Case{Name: fmt.Sprintf("%s @%d", p.label, n), Params: c})
			}
		}
		out = append(out, study.Part{Name: d.name, Spec: study.Spec{Command: "fattree", Seed: 1, Timeout: "2h",
			Params: map[string]any{"runs": d.runs}, Axes: map[string]any{"point": cases}}})
	}
	return out
}

func main() {
	study.Main(study.Program{Name: "fattree", Scales: []string{"full", "test"},
		ScaleHelp: "full (N = 16 .. 4096, 20 runs a point), test (N = 16 and 256, Table I, Figure 2 and Table II at L = 32)",
		Parts:     parts, Fields: fields, Report: func(_ context.Context, dir string) error { return Report(dir) }})
}

// val is one point: the mean over its runs of the maximum latency with its 99%
// interval, the mean congestion and latency / c.
type val struct {
	lat     study.Est
	c, perC float64
	lb, opt float64 // FP bounds: the best lower bound and the SAT optimum (means)
	cl, d   float64
	solved  int // runs whose optimum is proven
	runs    int
}

// fields are the values the report reads of a fattree point.
var fields = []string{"max_latency", "max_latency_ci", "runs", "congestion", "latency_per_c",
	"fp_bounds.lower_bound", "fp_bounds.c_l", "fp_bounds.d", "fp_bounds.optimum", "fp_bounds.proven"}

func collect(pts []study.Point) map[string]map[string]map[int]val {
	out := map[string]map[string]map[int]val{}
	for _, pt := range pts {
		if len(pt.Obs) == 0 || pt.Obs[0].Failed != "" {
			continue
		}
		o := pt.Obs[0] // one replication: the runs are inside the point
		label, _, _ := strings.Cut(pt.Name, " @")
		n := int(pt.P("n"))
		if out[pt.Part] == nil {
			out[pt.Part] = map[string]map[int]val{}
		}
		if out[pt.Part][label] == nil {
			out[pt.Part][label] = map[int]val{}
		}
		v := val{}
		v.lat.Mean, _ = o.Get("max_latency")
		v.lat.Half, _ = o.Get("max_latency_ci")
		runs, _ := o.Get("runs")
		v.runs = int(runs)
		v.lat.N = v.runs
		v.c, _ = o.Get("congestion")
		v.perC, _ = o.Get("latency_per_c")
		v.lb, _ = o.Get("fp_bounds.lower_bound")
		v.cl, _ = o.Get("fp_bounds.c_l")
		v.d, _ = o.Get("fp_bounds.d")
		if x, ok := o.Get("fp_bounds.optimum"); ok {
			v.opt = x
			p, _ := o.Get("fp_bounds.proven")
			v.solved = int(p)
		}
		out[pt.Part][label][n] = v
	}
	return out
}

// Report writes summary.md and the figures of the points in dir/points.jsonl.
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
	if err := figures(dir, data); err != nil {
		return err
	}
	return study.WriteFile(dir, "summary.md", []byte(Summary(data, cpu)))
}

func curve(label string, m map[int]val) study.Curve {
	c := study.Curve{Name: label}
	ns := make([]int, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		c.X = append(c.X, math.Log(float64(n))/math.Log(4))
		c.Y = append(c.Y, m[n].lat)
	}
	return c
}

var figKeys = []string{"STORE-RP-RR", "WORM-RP-RR", "UNIV (rank rule alone)", "UNIV with ghosts", "UNIV with one-flit ghosts",
	"STORE-FP-RR", "STORE-GP-RR", "WORM-FP-RR", "WORM-GP-RR", "STORE-RP-FO", "STORE-RP-FF", "STORE-RP-FF, FO ties", "STORE-GP-FO",
	"WORM-RP-FO", "WORM-RP-FF", "WORM-RP-FF, FO ties", "WORM-GP-FO", "SPLIT-RP-FO", "SPLIT-GP-FF", "SPLIT-RP-RR", "SPLIT-RP-RR, 1 addressing flit"}

func figures(dir string, data map[string]map[string]map[int]val) error {
	t1 := data["table1"]
	base := func(a string) study.Curve { return curve(a+"-RP-RR", t1[a+"-RP-RR random"]) }
	x := "log4 N (N processors: 16 to 4096)"
	y := "maximum latency, mean of runs (flit-steps; bars: 99% interval)"
	type fig struct {
		file, title string
		curves      []study.Curve
		logY        bool
	}
	var fs []fig
	if t1 != nil {
		f2 := []study.Curve{base("STORE")}
		for _, l := range []string{"UNIV (rank rule alone)", "UNIV with ghosts"} {
			f2 = append(f2, curve(l, data["fig2"][l]))
		}
		f2 = append(f2, curve("UNIV with one-flit ghosts", data["fig2-flitghosts"]["UNIV with one-flit ghosts"]))
		fs = append(fs, fig{"fig2.svg", "Figure 2: STORE against UNIV (RP, RR), random, L = 16", f2, true})
		f3 := []study.Curve{base("STORE"), base("WORM")}
		for _, l := range []string{"STORE-FP-RR", "STORE-GP-RR", "WORM-FP-RR", "WORM-GP-RR"} {
			f3 = append(f3, curve(l, data["fig3"][l]))
		}
		fs = append(fs, fig{"fig3.svg", "Figure 3: path selection FP, RP, GP (RR scan), random", f3, false})
		f4 := []study.Curve{base("STORE"), base("WORM")}
		for _, l := range []string{"STORE-RP-FO", "STORE-RP-FF", "STORE-RP-FF, FO ties", "STORE-GP-FO", "WORM-RP-FO", "WORM-RP-FF", "WORM-RP-FF, FO ties", "WORM-GP-FO"} {
			f4 = append(f4, curve(l, data["fig4"][l]))
		}
		fs = append(fs, fig{"fig4.svg", "Figure 4: input scan FO, RR, FF (RP), random", f4, false})
		f5 := []study.Curve{base("WORM")}
		for _, l := range []string{"SPLIT-RP-FO", "SPLIT-GP-FF", "SPLIT-RP-RR", "SPLIT-RP-RR, 1 addressing flit"} {
			f5 = append(f5, curve(l, data["fig5"][l]))
		}
		fs = append(fs, fig{"fig5.svg", "Figure 5: WORM against SPLIT, random", f5, false})
	}
	for _, f := range fs {
		if err := study.Plot(dir, f.file, f.title, x, y, figKeys, f.curves, f.logY); err != nil {
			return err
		}
	}
	// latency against L at N = 256
	if l := data["length"]; l != nil && t1 != nil {
		var cs []study.Curve
		for _, a := range []string{"STORE", "WORM"} {
			c := study.Curve{Name: a + "-RP-RR"}
			pts := map[int]study.Est{16: t1[a+"-RP-RR random"][256].lat}
			for _, L := range []int{4, 8, 32, 64} {
				pts[L] = l[fmt.Sprintf("%s-RP-RR, L = %d", a, L)][256].lat
			}
			for _, L := range []int{4, 8, 16, 32, 64} {
				c.X, c.Y = append(c.X, float64(L)), append(c.Y, pts[L])
			}
			cs = append(cs, c)
		}
		if err := study.Plot(dir, "length.svg", "Latency against L, N = 256, RP, RR, random", "worm length L (flits)", y, figKeys, cs, false); err != nil {
			return err
		}
	}
	return nil
}

func fmtN(m map[int]val, n int, prec int) string {
	v, ok := m[n]
	if !ok {
		return "—"
	}
	return v.lat.Fmt(prec)
}

// Summary is summary.md: each table after a line "`NAME`".
func Summary(data map[string]map[string]map[int]val, cpu map[string]float64) string {
	var b strings.Builder
	b.WriteString("# Seed 000 (fat-tree study) re-run: tables\n\nWritten by `go run ./experiments/fattree`; docs/fattree-study.md quotes them.\n")
	section := func(name, text string) { fmt.Fprintf(&b, "\n`%s`\n\n%s", name, text) }

	runs := study.Table{Head: []string{"part", "points", "runs a point", "CPU-hours"}}
	total := 0.0
	for _, d := range defs("full") {
		if data[d.name] == nil {
			continue
		}
		pts := 0
		for _, m := range data[d.name] {
			pts += len(m)
		}
		h := study.CPUHours(cpu, d.name)
		total += h
		runs.Rows = append(runs.Rows, []string{d.name, fmt.Sprint(pts), fmt.Sprint(d.runs), fmt.Sprintf("%.2f", h)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", fmt.Sprintf("%.2f", total)})
	section("runs", runs.String())

	t1 := data["table1"]
	if t1 != nil {
		t := study.Table{Head: []string{"N"}}
		for _, a := range []string{"STORE", "WORM"} {
			for _, p := range []string{"random", "complement", "many-to-1"} {
				t.Head = append(t.Head, a+"-RP-RR "+p)
			}
		}
		t.Head = append(t.Head, "WORM / STORE")
		for _, n := range sizes {
			row := []string{fmt.Sprint(n)}
			var ratios []string
			for _, a := range []string{"STORE", "WORM"} {
				for _, p := range []string{"random", "complement", "many-to-1"} {
					row = append(row, fmtN(t1[a+"-RP-RR "+p], n, 1))
				}
			}
			for _, p := range []string{"random", "complement", "many-to-1"} {
				s, w := t1["STORE-RP-RR "+p][n], t1["WORM-RP-RR "+p][n]
				if s.lat.Mean > 0 {
					ratios = append(ratios, fmt.Sprintf("%.2f", w.lat.Mean/s.lat.Mean))
				}
			}
			t.Rows = append(t.Rows, append(row, strings.Join(ratios, ", ")))
		}
		section("table1", t.String())
	}

	for _, L := range []int{16, 32} {
		m := t1["WORM-RP-RR random"]
		if L == 32 {
			m = data["table2-L32"]["WORM-RP-RR, L = 32"]
		}
		if m == nil {
			continue
		}
		t := study.Table{Head: []string{"N", "runs", "mean c", "mean latency / c"}}
		var ns []int
		var ys []float64
		for _, n := range sizes {
			v, ok := m[n]
			if !ok {
				continue
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprint(v.runs), fmt.Sprintf("%.2f", v.c), fmt.Sprintf("%.2f", v.perC)})
			ns, ys = append(ns, n), append(ys, v.perC)
		}
		text := t.String()
		if f, ok := fattree.FitPower(ns, ys); ok {
			text += fmt.Sprintf("\nFit of latency / c to k log4(N)^p: k = %.2f, p = %.3f, RMS log residual %.3f\n", f.K, f.P, f.Residual)
		}
		section(fmt.Sprintf("table2-L%d", L), text)
	}

	// the figures' comparisons at every N, (A - B) / B in percent with a's and b's intervals
	cmpRow := func(t *study.Table, name string, a, b map[int]val) {
		row := []string{name}
		for _, n := range sizes {
			x, okx := a[n]
			y, oky := b[n]
			if !okx || !oky || y.lat.Mean == 0 {
				row = append(row, "—")
				continue
			}
			word := ""
			switch {
			case x.lat.Hi() < y.lat.Lo():
				word = "lower"
			case x.lat.Lo() > y.lat.Hi():
				word = "higher"
			default:
				word = "overlap"
			}
			row = append(row, fmt.Sprintf("%+.1f%% (%s)", 100*(x.lat.Mean-y.lat.Mean)/y.lat.Mean, word))
		}
		t.Rows = append(t.Rows, row)
	}
	ct := study.Table{Head: []string{"A against B: (A - B) / B, and A's 99% interval against B's"}}
	for _, n := range sizes {
		ct.Head = append(ct.Head, fmt.Sprintf("N = %d", n))
	}
	rs, rw := t1["STORE-RP-RR random"], t1["WORM-RP-RR random"]
	g := func(part, label string) map[int]val { return data[part][label] }
	cmpRow(&ct, "UNIV with ghosts vs STORE", g("fig2", "UNIV with ghosts"), rs)
	cmpRow(&ct, "UNIV, one-flit ghosts vs STORE", g("fig2-flitghosts", "UNIV with one-flit ghosts"), rs)
	cmpRow(&ct, "UNIV, rank rule alone vs STORE", g("fig2", "UNIV (rank rule alone)"), rs)
	cmpRow(&ct, "UNIV with ghosts vs STORE, complement", g("fig2", "UNIV with ghosts complement"), t1["STORE-RP-RR complement"])
	cmpRow(&ct, "UNIV with ghosts vs STORE, many-to-1", g("fig2", "UNIV with ghosts many-to-1"), t1["STORE-RP-RR many-to-1"])
	cmpRow(&ct, "STORE-FP vs STORE-RP", g("fig3", "STORE-FP-RR"), rs)
	cmpRow(&ct, "STORE-GP vs STORE-RP", g("fig3", "STORE-GP-RR"), rs)
	cmpRow(&ct, "WORM-FP vs WORM-RP", g("fig3", "WORM-FP-RR"), rw)
	cmpRow(&ct, "WORM-GP vs WORM-RP", g("fig3", "WORM-GP-RR"), rw)
	cmpRow(&ct, "STORE-FO vs STORE-RR", g("fig4", "STORE-RP-FO"), rs)
	cmpRow(&ct, "WORM-FO vs WORM-RR", g("fig4", "WORM-RP-FO"), rw)
	cmpRow(&ct, "STORE-FF vs STORE-FO", g("fig4", "STORE-RP-FF"), g("fig4", "STORE-RP-FO"))
	cmpRow(&ct, "WORM-FF vs WORM-FO", g("fig4", "WORM-RP-FF"), g("fig4", "WORM-RP-FO"))
	cmpRow(&ct, "STORE-FF, FO ties vs STORE-FO", g("fig4", "STORE-RP-FF, FO ties"), g("fig4", "STORE-RP-FO"))
	cmpRow(&ct, "WORM-FF, FO ties vs WORM-FO", g("fig4", "WORM-RP-FF, FO ties"), g("fig4", "WORM-RP-FO"))
	cmpRow(&ct, "STORE-GP-FO vs STORE-RP-RR", g("fig4", "STORE-GP-FO"), rs)
	cmpRow(&ct, "WORM-GP-FO vs WORM-RP-RR", g("fig4", "WORM-GP-FO"), rw)
	cmpRow(&ct, "SPLIT-GP-FF vs SPLIT-RP-FO", g("fig5", "SPLIT-GP-FF"), g("fig5", "SPLIT-RP-FO"))
	cmpRow(&ct, "WORM-RP-RR vs SPLIT-RP-FO", rw, g("fig5", "SPLIT-RP-FO"))
	cmpRow(&ct, "WORM-RP-RR vs SPLIT-GP-FF", rw, g("fig5", "SPLIT-GP-FF"))
	cmpRow(&ct, "SPLIT-RP-RR vs WORM-RP-RR", g("fig5", "SPLIT-RP-RR"), rw)
	cmpRow(&ct, "SPLIT-RP-RR + 1 flit vs WORM-RP-RR", g("fig5", "SPLIT-RP-RR, 1 addressing flit"), rw)
	cmpRow(&ct, "STORE, R = 8 vs none", g("delays", "STORE-RP-RR, R = 8"), rs)
	cmpRow(&ct, "WORM, R = 2 vs none", g("delays", "WORM-RP-RR, R = 2"), rw)
	section("comparisons", ct.String())

	// latency against L (N = 256) and queue sizes
	if l := data["length"]; l != nil && t1 != nil {
		t := study.Table{Head: []string{"algorithm", "L = 4", "L = 8", "L = 16", "L = 32", "L = 64", "latency / L, L = 4 to 64"}}
		for _, a := range []string{"STORE", "WORM"} {
			row := []string{a + "-RP-RR"}
			var per []string
			for _, L := range []int{4, 8, 16, 32, 64} {
				v := t1[a+"-RP-RR random"][256]
				if L != 16 {
					v = l[fmt.Sprintf("%s-RP-RR, L = %d", a, L)][256]
				}
				row = append(row, v.lat.Fmt(1))
				per = append(per, fmt.Sprintf("%.1f", v.lat.Mean/float64(L)))
			}
			t.Rows = append(t.Rows, append(row, strings.Join(per, ", ")))
		}
		section("length", t.String())
	}
	if q := data["queues"]; q != nil && t1 != nil {
		t := study.Table{Head: []string{"configuration", "N = 256", "N = 4096"}}
		add := func(label string, m map[int]val) {
			t.Rows = append(t.Rows, []string{label, fmtN(m, 256, 1), fmtN(m, 4096, 1)})
		}
		add("WORM-RP-RR, q = 1 flit", q["WORM-RP-RR, q = 1 flits"])
		add("WORM-RP-RR, q = 2 flits", rw)
		for _, n := range []int{3, 4, 8} {
			add(fmt.Sprintf("WORM-RP-RR, q = %d flits", n), q[fmt.Sprintf("WORM-RP-RR, q = %d flits", n)])
		}
		add("STORE-RP-RR, 1-packet queues", rs)
		for _, n := range []int{2, 4} {
			add(fmt.Sprintf("STORE-RP-RR, %d-packet queues", n), q[fmt.Sprintf("STORE-RP-RR, %d-packet queues", n)])
		}
		section("queues", t.String())
	}

	// greedy WORM on fixed paths against the bounds
	if fb := data["fp-bounds"]["WORM-FP-RR bounds"]; fb != nil {
		t := study.Table{Head: []string{"N", "runs", "c", "d", "c_L", "best lower bound", "SAT optimum (proven)", "WORM-FP-RR q = 2"}}
		for _, n := range sizes {
			v, ok := fb[n]
			if !ok {
				continue
			}
			opt := ""
			for _, part := range []string{"fp-optimal", "fp-optimal64"} {
				if o, ok := data[part]["WORM-FP-RR optimum"][n]; ok && o.solved > 0 {
					opt = fmt.Sprintf("%.1f (%d of %d)", o.opt, o.solved, o.runs)
				}
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprint(v.runs), fmt.Sprintf("%.2f", v.c), fmt.Sprintf("%.0f", v.d), fmt.Sprintf("%.1f", v.cl),
				fmt.Sprintf("%.1f", v.lb), opt, fmt.Sprintf("%.1f", v.lat.Mean)})
		}
		section("fp-bounds", t.String())
	}
	return b.String()
}
