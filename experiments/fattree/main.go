// Command fattree re-runs the simulation study of Greenberg and Oh, "Universal
// wormhole routing" (seed 000, section B): STORE, WORM, UNIV (Leighton, Maggs and
// Rao's, with ghosts, and its rank rule alone) and SPLIT on butterfly fat-trees of
// 16 to 4096 processors under static injection, with every path selection and input
// scan, Tables I and II (at L = 16 and L = 32), Figures 2 to 5, the initial
// delays, the worm length, the queue sizes, and greedy against the lower bound and
// the SAT optimum on fixed paths.
//
// Usage: go run ./experiments/fattree [-scale full|test] [-workers N] [-only PARTS]
// [-report] [-doc PAGE] [-wormlab BIN] OUTDIR
//
// Every part is a sweep spec of `wormlab fattree` points (RUNS runs each, 99%
// intervals over them as the paper's error bars) run into OUTDIR/sweeps/PART.jsonl;
// the report writes OUTDIR/points.jsonl.gz (each run's latency and congestion),
// OUTDIR/summary.md (the tables docs/fattree-study.md quotes, the claims of
// section B.3 with their verdicts among them) and the figures.
package main

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
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
		{name: "table2-L32", runs: 20, sizes: sizes, pts: []pt{{"WORM-RP-RR, L = 32", strat("worm", "rp", "rr", "flits", 32)}}},
		{name: "fig3", runs: 20, sizes: sizes, pts: []pt{
			{"STORE-FP-RR", strat("store", "fp", "rr")}, {"STORE-GP-RR", strat("store", "gp", "rr")},
			{"WORM-FP-RR", strat("worm", "fp", "rr")}, {"WORM-GP-RR", strat("worm", "gp", "rr")},
			{"STORE-FP-FO", strat("store", "fp", "fo")}, {"WORM-FP-FO", strat("worm", "fp", "fo")},
		}},
		{name: "fig4", runs: 20, sizes: sizes, pts: []pt{
			{"STORE-RP-FO", strat("store", "rp", "fo")}, {"STORE-RP-FF", strat("store", "rp", "ff")},
			{"STORE-RP-FF, FO ties", strat("store", "rp", "ff-fo")}, {"STORE-GP-FO", strat("store", "gp", "fo")},
			{"WORM-RP-FO", strat("worm", "rp", "fo")}, {"WORM-RP-FF", strat("worm", "rp", "ff")},
			{"WORM-RP-FF, FO ties", strat("worm", "rp", "ff-fo")}, {"WORM-GP-FO", strat("worm", "gp", "fo")},
		}},
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
		{name: "delays", runs: 20, sizes: sizes, pts: []pt{
			{"STORE-RP-RR, R = 2", strat("store", "rp", "rr", "delay", 2)},
			{"STORE-RP-RR, R = 4", strat("store", "rp", "rr", "delay", 4)},
			{"STORE-RP-RR, R = 8", strat("store", "rp", "rr", "delay", 8)},
			{"WORM-RP-RR, R = 2", strat("worm", "rp", "rr", "delay", 2)},
		}},
		{name: "length", runs: 20, sizes: []int{256}, pts: func() []pt {
			var ps []pt
			for _, l := range []int{2, 4, 8, 32, 64, 128} {
				for _, a := range []string{"store", "worm"} {
					ps = append(ps, pt{fmt.Sprintf("%s-RP-RR, L = %d", strings.ToUpper(a), l), strat(a, "rp", "rr", "flits", l)})
				}
			}
			return ps
		}()},
		{name: "fig5", runs: 10, sizes: sizes, pts: []pt{
			{"SPLIT-RP-FO", strat("split", "rp", "fo")}, {"SPLIT-GP-FF", strat("split", "gp", "ff")},
			{"SPLIT-RP-RR", strat("split", "rp", "rr")}, {"SPLIT-RP-RR, 1 addressing flit", strat("split", "rp", "rr", "overhead", 1)},
			{"STORE-GP-FF", strat("store", "gp", "ff")},
		}},
		{name: "fig2", runs: 20, sizes: sizes, pts: []pt{
			{"UNIV (rank rule alone)", strat("univ", "rp", "rr")},
			{"UNIV with ghosts", strat("univ-ghost", "rp", "rr")},
			{"UNIV with ghosts complement", strat("univ-ghost", "rp", "rr", "pattern", "complement")},
			{"UNIV with ghosts many-to-1", strat("univ-ghost", "rp", "rr", "pattern", "many-to-1")},
		}},
		{name: "fig2-r8", runs: 20, sizes: sizes, pts: []pt{
			{"UNIV with ghosts, R = 8", strat("univ-ghost", "rp", "rr", "delay", 8)},
		}},
		{name: "fig2-flitghosts", runs: 20, sizes: []int{16, 64, 256, 1024}, pts: []pt{
			{"UNIV with one-flit ghosts", strat("univ-ghost", "rp", "rr", "ghost-hops", 16)},
		}},
		{name: "fp-bounds", runs: 10, sizes: sizes, pts: []pt{{"WORM-FP-RR bounds", strat("worm", "fp", "rr", "bounds", true)}}},
		{name: "fp-optimal", runs: 10, sizes: []int{16}, pts: []pt{{"WORM-FP-RR optimum", strat("worm", "fp", "rr", "bounds", true, "optimal", "60s")}}},
		{name: "fp-optimal64", runs: 3, sizes: []int{64}, pts: []pt{{"WORM-FP-RR optimum", strat("worm", "fp", "rr", "bounds", true, "optimal", "60s")}}},
	}
	if scale == "test" { // every part at N = 16 and 256, where it has them
		var t []partDef
		for _, d := range ds {
			var small []int
			for _, n := range d.sizes {
				if n == 16 || n == 256 {
					small = append(small, n)
				}
			}
			if len(small) > 0 {
				d.sizes = small
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
		ScaleHelp: "full (N = 16 .. 4096, 20 runs a point; 10 for Figure 5 and the FP bounds), test (every part at N = 16 and 256 where it has them)",
		Parts:     parts, Fields: fields, Report: func(_ context.Context, dir string) error { return Report(dir) }})
}

// maxRuns is the most runs a point of any part has: the report reads each run's
// latency and congestion (latencies.I, congestions.I) for the intervals of c and
// latency / c.
const maxRuns = 20

// fields are the values the report reads of a fattree point.
var fields = func() []string {
	f := []string{"max_latency", "max_latency_ci", "runs", "congestion", "latency_per_c",
		"fp_bounds.lower_bound", "fp_bounds.c_l", "fp_bounds.d", "fp_bounds.optimum", "fp_bounds.proven"}
	for i := range maxRuns {
		f = append(f, fmt.Sprintf("latencies.%d", i), fmt.Sprintf("congestions.%d", i))
	}
	return f
}()

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

// style is each series's colour and glyph (plotutil's seven, by index): a series
// keeps its style in every figure it is in, and the series of one figure have
// styles of their own.
var style = map[string]int{
	"STORE-RP-RR": 0, "WORM-RP-RR": 1,
	"STORE-FP-RR": 2, "STORE-GP-RR": 3, "WORM-FP-RR": 4, "WORM-GP-RR": 5,
	"UNIV (rank rule alone)": 2, "UNIV with ghosts": 3, "UNIV with one-flit ghosts": 4, "UNIV with ghosts, R = 8": 5,
	"STORE-RP-FO": 2, "STORE-RP-FF": 3, "STORE-RP-FF, FO ties": 4, "STORE-GP-FO": 5,
	"WORM-RP-FO": 2, "WORM-RP-FF": 3, "WORM-RP-FF, FO ties": 4, "WORM-GP-FO": 5,
	"SPLIT-RP-FO": 2, "SPLIT-GP-FF": 3, "SPLIT-RP-RR": 4, "SPLIT-RP-RR, 1 addressing flit": 5, "STORE-GP-FF": 6,
}

// keys places each curve's name at its style's index (study.Plot colours a series
// by its index in the keys).
func keys(cs []study.Curve) []string {
	k := make([]string, 7)
	for _, c := range cs {
		k[style[c.Name]] = c.Name
	}
	return k
}

// fig is one figure of the study.
type fig struct {
	file, title, xlabel string
	curves              []study.Curve
	logY                bool
}

// figs are the study's figures: Figures 2 to 5 against log4 N, and latency
// against L.
func figs(data map[string]map[string]map[int]val) []fig {
	t1 := data["table1"]
	if t1 == nil {
		return nil
	}
	base := func(a string) study.Curve { return curve(a+"-RP-RR", t1[a+"-RP-RR random"]) }
	g := func(part, label string) study.Curve { return curve(label, data[part][label]) }
	x := "log4 N (N = 16, 64, 256, 1024, 4096 processors)"
	fs := []fig{
		{"fig2.svg", "Figure 2: STORE against UNIV (RP, RR), random, L = 16", x, []study.Curve{base("STORE"),
			g("fig2", "UNIV (rank rule alone)"), g("fig2", "UNIV with ghosts"), g("fig2-flitghosts", "UNIV with one-flit ghosts"),
			g("fig2-r8", "UNIV with ghosts, R = 8")}, true},
		{"fig3.svg", "Figure 3: path selection FP, RP, GP (RR scan), random, L = 16", x, []study.Curve{base("STORE"), base("WORM"),
			g("fig3", "STORE-FP-RR"), g("fig3", "STORE-GP-RR"), g("fig3", "WORM-FP-RR"), g("fig3", "WORM-GP-RR")}, false},
		{"fig4-store.svg", "Figure 4, STORE: input scan FO, RR, FF, random, L = 16", x, []study.Curve{base("STORE"),
			g("fig4", "STORE-RP-FO"), g("fig4", "STORE-RP-FF"), g("fig4", "STORE-RP-FF, FO ties"), g("fig4", "STORE-GP-FO")}, false},
		{"fig4-worm.svg", "Figure 4, WORM: input scan FO, RR, FF, random, L = 16", x, []study.Curve{base("WORM"),
			g("fig4", "WORM-RP-FO"), g("fig4", "WORM-RP-FF"), g("fig4", "WORM-RP-FF, FO ties"), g("fig4", "WORM-GP-FO")}, false},
		{"fig5.svg", "Figure 5: WORM against SPLIT, random, L = 16", x, []study.Curve{base("WORM"),
			g("fig5", "SPLIT-RP-FO"), g("fig5", "SPLIT-GP-FF"), g("fig5", "SPLIT-RP-RR"), g("fig5", "SPLIT-RP-RR, 1 addressing flit")}, false},
	}
	if data["length"] != nil {
		var cs []study.Curve
		for _, a := range []string{"STORE", "WORM"} {
			c := study.Curve{Name: a + "-RP-RR"}
			for _, L := range lengths {
				c.X, c.Y = append(c.X, float64(L)), append(c.Y, atLength(data, a, L).lat)
			}
			cs = append(cs, c)
		}
		fs = append(fs, fig{"length.svg", "Latency against L, N = 256, RP, RR, random", "worm length L (flits)", cs, false})
	}
	return fs
}

func figures(dir string, data map[string]map[string]map[int]val) error {
	y := "max. latency (flit-steps; bars: 99%)"
	for _, f := range figs(data) {
		if err := study.Plot(dir, f.file, f.title, f.xlabel, y, keys(f.curves), f.curves, f.logY); err != nil {
			return err
		}
	}
	return nil
}

// lengths are the worm lengths of the length part and Table I's (16).
var lengths = []int{2, 4, 8, 16, 32, 64, 128}

// atLength is a-RP-RR on random traffic at N = 256 with L-flit worms.
func atLength(data map[string]map[string]map[int]val, a string, L int) val {
	if L == 16 {
		return data["table1"][a+"-RP-RR random"][256]
	}
	return data["length"][fmt.Sprintf("%s-RP-RR, L = %d", a, L)][256]
}
