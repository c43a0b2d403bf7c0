package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
	"github.com/wormlab/wormlab/fattree"
)

// val is one point over its runs: the maximum latency, the congestion c and
// latency / c, each a mean with its 99% Student-t interval (the paper's error
// bars), and for the FP bounds the means of the bounds and the SAT optimum.
type val struct {
	lat, c, perC study.Est
	per          []float64 // each run's latency / c
	lb, opt      float64   // FP bounds: the best lower bound and the SAT optimum (means)
	cl, d        float64
	solved       int // runs whose optimum is proven
	runs         int
}

// est99 is the mean of xs with its 99% interval.
func est99(xs []float64) study.Est {
	m, h := fattree.MeanCI99(xs)
	if len(xs) == 0 {
		m = math.NaN()
	}
	return study.Est{Mean: m, Half: h, N: len(xs)}
}

// collect is the points by part, label and N.
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
		runs, _ := o.Get("runs")
		v.runs = int(runs)
		var lats, cs, per []float64
		for i := range v.runs {
			l, okl := o.Get(fmt.Sprintf("latencies.%d", i))
			c, okc := o.Get(fmt.Sprintf("congestions.%d", i))
			if okl && okc {
				lats, cs = append(lats, l), append(cs, c)
				if c > 0 {
					per = append(per, l/c)
				}
			}
		}
		v.lat, v.c, v.perC, v.per = est99(lats), est99(cs), est99(per), per
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

	runs := study.Table{Head: []string{"part", "points", "runs a point", "CPU-minutes"}}
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
		runs.Rows = append(runs.Rows, []string{d.name, fmt.Sprint(pts), fmt.Sprint(d.runs), fmt.Sprintf("%.1f", 60*h)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", fmt.Sprintf("%.1f", 60*total)})
	section("runs", runs.String())

	t1 := data["table1"]
	if t1 != nil {
		t := study.Table{Head: []string{"N"}}
		for _, a := range []string{"STORE", "WORM"} {
			for _, p := range patterns {
				t.Head = append(t.Head, a+"-RP-RR "+p)
			}
		}
		t.Head = append(t.Head, "WORM / STORE")
		for _, n := range sizes {
			row := []string{fmt.Sprint(n)}
			var ratios []string
			for _, a := range []string{"STORE", "WORM"} {
				for _, p := range patterns {
					row = append(row, fmtN(t1[a+"-RP-RR "+p], n, 1))
				}
			}
			for _, p := range patterns {
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
		m := table2(data, L)
		if m == nil {
			continue
		}
		t := study.Table{Head: []string{"N", "runs", "mean c", "mean latency / c"}}
		for _, n := range sizes {
			v, ok := m[n]
			if !ok {
				continue
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprint(v.runs), v.c.Fmt(2), v.perC.Fmt(2)})
		}
		text := t.String()
		if f, ok := fit(m); ok {
			lo, hi := fitInterval(m)
			text += fmt.Sprintf("\nFit of latency / c to k log4(N)^p: k = %.2f, p = %.3f (99%% bootstrap interval %.3f to %.3f), RMS log residual %.3f\n",
				f.K, f.P, lo, hi, f.Residual)
		}
		section(fmt.Sprintf("table2-L%d", L), text)
	}

	section("comparisons", comparisons(data).String())

	if data["length"] != nil && t1 != nil {
		t := study.Table{Head: []string{"algorithm"}}
		for _, L := range lengths {
			t.Head = append(t.Head, fmt.Sprintf("L = %d", L))
		}
		t.Head = append(t.Head, "latency / L")
		for _, a := range []string{"STORE", "WORM"} {
			row := []string{a + "-RP-RR"}
			var per []string
			for _, L := range lengths {
				v := atLength(data, a, L)
				row = append(row, v.lat.Fmt(1))
				per = append(per, fmt.Sprintf("%.1f", v.lat.Mean/float64(L)))
			}
			t.Rows = append(t.Rows, append(row, strings.Join(per, ", ")))
		}
		section("length", t.String())
	}
	if q := data["queues"]; q != nil && t1 != nil {
		t := study.Table{Head: []string{"configuration", "N = 256", "N = 4096"}}
		for _, c := range queueConfigs {
			m := queue(data, c)
			t.Rows = append(t.Rows, []string{c, fmtN(m, 256, 1), fmtN(m, 4096, 1)})
		}
		section("queues", t.String())
	}

	// greedy WORM on fixed paths against the bounds and the SAT optimum
	if fb := data["fp-bounds"]["WORM-FP-RR bounds"]; fb != nil {
		t := study.Table{Head: []string{"N", "runs", "c", "d", "c_L", "best lower bound", "WORM-FP-RR q = 2", "WORM / bound"}}
		for _, n := range sizes {
			v, ok := fb[n]
			if !ok {
				continue
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(n), fmt.Sprint(v.runs), fmt.Sprintf("%.2f", v.c.Mean), fmt.Sprintf("%.0f", v.d), fmt.Sprintf("%.1f", v.cl),
				fmt.Sprintf("%.1f", v.lb), v.lat.Fmt(1), fmt.Sprintf("%.2f", v.lat.Mean/v.lb)})
		}
		section("fp-bounds", t.String())
	}
	opt := study.Table{Head: []string{"N", "runs", "optimum proven", "best lower bound", "SAT optimum", "WORM-FP-RR q = 2", "WORM / optimum"}}
	for _, part := range []string{"fp-optimal", "fp-optimal64"} {
		for _, n := range sizes {
			o, ok := data[part]["WORM-FP-RR optimum"][n]
			if !ok {
				continue
			}
			row := []string{fmt.Sprint(n), fmt.Sprint(o.runs), fmt.Sprintf("%d of %d", o.solved, o.runs), fmt.Sprintf("%.1f", o.lb)}
			if o.solved == o.runs {
				row = append(row, fmt.Sprintf("%.1f", o.opt), fmt.Sprintf("%.1f", o.lat.Mean), fmt.Sprintf("%.2f", o.lat.Mean/o.opt))
			} else { // the mean over the proven runs is no mean of the runs
				row = append(row, "—", fmt.Sprintf("%.1f", o.lat.Mean), "—")
			}
			opt.Rows = append(opt.Rows, row)
		}
	}
	if len(opt.Rows) > 0 {
		section("fp-optimal", opt.String())
	}

	if t1 != nil {
		section("claims", claims(data).String())
	}
	return b.String()
}

var patterns = []string{"random", "complement", "many-to-1"}

// table2 is WORM-RP-RR on random instances with L-flit worms.
func table2(data map[string]map[string]map[int]val, L int) map[int]val {
	if L == 16 {
		return data["table1"]["WORM-RP-RR random"]
	}
	return data["table2-L32"]["WORM-RP-RR, L = 32"]
}

// fit is Table II's fit of latency / c to k log4(N)^p over the sizes of m.
func fit(m map[int]val) (fattree.PowerFit, bool) {
	var ns []int
	var ys []float64
	for _, n := range sizes {
		if v, ok := m[n]; ok {
			ns, ys = append(ns, n), append(ys, v.perC.Mean)
		}
	}
	return fattree.FitPower(ns, ys)
}

// fitInterval is the 99% percentile bootstrap interval of fit's p: the runs of
// each N resampled with replacement (a fixed seed, so the report is the same each
// time), 2000 times.
func fitInterval(m map[int]val) (lo, hi float64) {
	r := rand.New(rand.NewPCG(1, 2))
	var ps []float64
	for range 2000 {
		var ns []int
		var ys []float64
		for _, n := range sizes {
			v, ok := m[n]
			if !ok || len(v.per) == 0 {
				continue
			}
			s := 0.0
			for range v.per {
				s += v.per[r.IntN(len(v.per))]
			}
			ns, ys = append(ns, n), append(ys, s/float64(len(v.per)))
		}
		if f, ok := fattree.FitPower(ns, ys); ok {
			ps = append(ps, f.P)
		}
	}
	if len(ps) == 0 {
		return math.NaN(), math.NaN()
	}
	sort.Float64s(ps)
	return ps[len(ps)*5/1000], ps[len(ps)*995/1000-1]
}

// queueConfigs are the rows of the queue table: WORM's queue in flits, STORE's in
// packets.
var queueConfigs = []string{"WORM-RP-RR, q = 1 flit", "WORM-RP-RR, q = 2 flits", "WORM-RP-RR, q = 3 flits",
	"WORM-RP-RR, q = 4 flits", "WORM-RP-RR, q = 8 flits",
	"STORE-RP-RR, 1-packet queues", "STORE-RP-RR, 2-packet queues", "STORE-RP-RR, 4-packet queues"}

// queue is the configuration's points (the defaults, q = 2 and one packet, are
// Table I's).
func queue(data map[string]map[string]map[int]val, c string) map[int]val {
	switch c {
	case "WORM-RP-RR, q = 2 flits":
		return data["table1"]["WORM-RP-RR random"]
	case "STORE-RP-RR, 1-packet queues":
		return data["table1"]["STORE-RP-RR random"]
	case "WORM-RP-RR, q = 1 flit":
		return data["queues"]["WORM-RP-RR, q = 1 flits"]
	}
	return data["queues"][c]
}

// sideWord names how one interval stands to another in the tables: "lower"
// (wholly below), "higher" or "overlap".
func sideWord(s study.Side) string {
	return map[study.Side]string{study.Lower: "lower", study.Higher: "higher", study.Level: "overlap"}[s]
}

// compared are the comparisons the comparisons table and the claims read: A, B.
var compared = []struct{ name, aPart, aLab, bPart, bLab string }{
	{"UNIV with ghosts vs STORE", "fig2", "UNIV with ghosts", "table1", "STORE-RP-RR random"},
	{"UNIV, one-flit ghosts vs STORE", "fig2-flitghosts", "UNIV with one-flit ghosts", "table1", "STORE-RP-RR random"},
	{"UNIV with ghosts, R = 8 vs STORE", "fig2-r8", "UNIV with ghosts, R = 8", "table1", "STORE-RP-RR random"},
	{"UNIV with ghosts, R = 8 vs STORE, R = 8", "fig2-r8", "UNIV with ghosts, R = 8", "delays", "STORE-RP-RR, R = 8"},
	{"UNIV, rank rule alone vs STORE", "fig2", "UNIV (rank rule alone)", "table1", "STORE-RP-RR random"},
	{"UNIV with ghosts vs STORE, complement", "fig2", "UNIV with ghosts complement", "table1", "STORE-RP-RR complement"},
	{"UNIV with ghosts vs STORE, many-to-1", "fig2", "UNIV with ghosts many-to-1", "table1", "STORE-RP-RR many-to-1"},
	{"STORE-FP vs STORE-RP", "fig3", "STORE-FP-RR", "table1", "STORE-RP-RR random"},
	{"STORE-GP vs STORE-RP", "fig3", "STORE-GP-RR", "table1", "STORE-RP-RR random"},
	{"WORM-FP vs WORM-RP", "fig3", "WORM-FP-RR", "table1", "WORM-RP-RR random"},
	{"WORM-GP vs WORM-RP", "fig3", "WORM-GP-RR", "table1", "WORM-RP-RR random"},
	{"STORE-FP-FO vs STORE-RP-FO", "fig3", "STORE-FP-FO", "fig4", "STORE-RP-FO"},
	{"WORM-FP-FO vs WORM-RP-FO", "fig3", "WORM-FP-FO", "fig4", "WORM-RP-FO"},
	{"STORE-GP vs STORE-FP", "fig3", "STORE-GP-RR", "fig3", "STORE-FP-RR"},
	{"WORM-GP vs WORM-FP", "fig3", "WORM-GP-RR", "fig3", "WORM-FP-RR"},
	{"STORE-RR vs STORE-FO", "table1", "STORE-RP-RR random", "fig4", "STORE-RP-FO"},
	{"WORM-RR vs WORM-FO", "table1", "WORM-RP-RR random", "fig4", "WORM-RP-FO"},
	{"STORE-FF vs STORE-FO", "fig4", "STORE-RP-FF", "fig4", "STORE-RP-FO"},
	{"WORM-FF vs WORM-FO", "fig4", "WORM-RP-FF", "fig4", "WORM-RP-FO"},
	{"STORE-FF vs STORE-RR", "fig4", "STORE-RP-FF", "table1", "STORE-RP-RR random"},
	{"WORM-FF vs WORM-RR", "fig4", "WORM-RP-FF", "table1", "WORM-RP-RR random"},
	{"STORE-FF, FO ties vs STORE-FO", "fig4", "STORE-RP-FF, FO ties", "fig4", "STORE-RP-FO"},
	{"WORM-FF, FO ties vs WORM-FO", "fig4", "WORM-RP-FF, FO ties", "fig4", "WORM-RP-FO"},
	{"STORE-RP-RR vs STORE-GP-FO", "table1", "STORE-RP-RR random", "fig4", "STORE-GP-FO"},
	{"WORM-RP-RR vs WORM-GP-FO", "table1", "WORM-RP-RR random", "fig4", "WORM-GP-FO"},
	{"SPLIT-GP-FF vs SPLIT-RP-FO", "fig5", "SPLIT-GP-FF", "fig5", "SPLIT-RP-FO"},
	{"STORE-GP-FF vs STORE-RP-FO", "fig5", "STORE-GP-FF", "fig4", "STORE-RP-FO"},
	{"WORM-RP-RR vs SPLIT-RP-FO", "table1", "WORM-RP-RR random", "fig5", "SPLIT-RP-FO"},
	{"WORM-RP-RR vs SPLIT-GP-FF", "table1", "WORM-RP-RR random", "fig5", "SPLIT-GP-FF"},
	{"SPLIT-RP-RR vs WORM-RP-RR", "fig5", "SPLIT-RP-RR", "table1", "WORM-RP-RR random"},
	{"SPLIT-RP-RR + 1 flit vs WORM-RP-RR", "fig5", "SPLIT-RP-RR, 1 addressing flit", "table1", "WORM-RP-RR random"},
	{"STORE, R = 2 vs none", "delays", "STORE-RP-RR, R = 2", "table1", "STORE-RP-RR random"},
	{"STORE, R = 4 vs none", "delays", "STORE-RP-RR, R = 4", "table1", "STORE-RP-RR random"},
	{"STORE, R = 8 vs none", "delays", "STORE-RP-RR, R = 8", "table1", "STORE-RP-RR random"},
	{"WORM, R = 2 vs none", "delays", "WORM-RP-RR, R = 2", "table1", "WORM-RP-RR random"},
}

// cmp is one comparison at one N: (A - B) / B in percent and how A's interval
// stands to B's; ok false when either is missing.
type cmp struct {
	pct  float64
	side study.Side
	a, b val
	ok   bool
}

func compare(data map[string]map[string]map[int]val, name string, n int) cmp {
	for _, c := range compared {
		if c.name != name {
			continue
		}
		a, oka := data[c.aPart][c.aLab][n]
		b, okb := data[c.bPart][c.bLab][n]
		if !oka || !okb || b.lat.Mean == 0 {
			return cmp{}
		}
		return cmp{100 * (a.lat.Mean - b.lat.Mean) / b.lat.Mean, study.Compare(a.lat, b.lat), a, b, true}
	}
	panic("fattree: no comparison " + name)
}

// comparisons is the table of every comparison at every N.
func comparisons(data map[string]map[string]map[int]val) study.Table {
	t := study.Table{Head: []string{"A against B: (A - B) / B, and A's 99% interval against B's"}}
	for _, n := range sizes {
		t.Head = append(t.Head, fmt.Sprintf("N = %d", n))
	}
	for _, c := range compared {
		row := []string{c.name}
		for _, n := range sizes {
			x := compare(data, c.name, n)
			if !x.ok {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%+.1f%% (%s)", x.pct, sideWord(x.side)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
