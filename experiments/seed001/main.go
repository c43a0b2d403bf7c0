// Command seed001 re-runs Draper and Petrini, "Routing in bidirectional k-ary n-cubes
// with the Red Rover algorithm" (PDPTA 1997; seed 001, section 4): Red Rover against
// Dally and Seitz's spiral (dor) and the two-class Duato variant (duato-dp) on the
// 16-ary 2-cube with 2 VCs per link, 8- and 64-flit packets, Poisson sources and five
// traffic patterns; every point in cycles and, with the routers' cycle times from
// Chien's cost model (package chien), in nanoseconds; and the buffer depth the copy
// lost, over a range.
//
// Usage: go run ./experiments/seed001 [-scale full|test] [-workers N] [-only PARTS]
// [-report] [-wormlab BIN] OUTDIR
//
// Parts are sweep specs (OUTDIR/specs/PART.json) run by `wormlab sweep` into
// OUTDIR/PART.jsonl; the report writes OUTDIR/summary.md (the tables docs/seed001.md
// quotes) and the SVG figures.
package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/chien"
	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/experiments/internal/study"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

var algs = []struct{ name, label string }{
	{"redrover", "Red Rover"},
	{"dor", "spiral (dor)"},
	{"duato-dp", "Duato variant (duato-dp)"},
}

var keys = []string{"Red Rover", "spiral (dor)", "Duato variant (duato-dp)"}

func labelOf(n string) string {
	for _, a := range algs {
		if a.name == n {
			return a.label
		}
	}
	return n
}

var patterns = []string{"uniform", "transpose", "bitrev", "shuffle", "bitcomp"}

const topo = "torus:16x16"

// grid is the offered loads (flits/node/cycle): at least six under every
// saturation (the lowest, the spiral's on shuffle, is near 0.085; the steady
// points of a series are those where every seed is steady, so the grid is dense
// below 0.085), then in steps of 0.01 from 0.12 to 0.23, where the spiral and the
// Duato variant reach their peak and fall (a collapsing curve's peak is resolved
// to the grid's step), then past it.
func grid() []float64 {
	return []float64{0.01, 0.0175, 0.025, 0.0325, 0.04, 0.0475, 0.055, 0.0625, 0.07, 0.0775, 0.085, 0.1,
		0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.18, 0.19, 0.2, 0.21, 0.22, 0.23, 0.25, 0.32, 0.42}
}

type part struct {
	name  string
	flits int
	buf   int
	pat   string
	reps  int
	loads []float64
}

func partsOf(scale string) []part {
	var ps []part
	for _, l := range []int{8, 64} {
		for _, p := range patterns {
			ps = append(ps, part{fmt.Sprintf("%s-%d", p, l), l, 4, p, 3, grid()})
		}
	}
	// the buffer depth the copy lost: 2 and 16 flits per VC, uniform and shuffle
	for _, b := range []int{2, 16} {
		for _, l := range []int{8, 64} {
			ps = append(ps, part{fmt.Sprintf("uniform-%d-buf%d", l, b), l, b, "uniform", 3,
				[]float64{0.05, 0.1, 0.14, 0.17, 0.2, 0.24, 0.3, 0.42}})
		}
	}
	if scale == "test" {
		var t []part
		for _, p := range ps {
			if p.buf == 4 && (p.pat == "uniform" || p.pat == "shuffle") {
				p.loads = []float64{0.07, 0.42}
				t = append(t, p)
			}
		}
		return t
	}
	return ps
}

func parts(scale string) []study.Part {
	var out []study.Part
	for _, p := range partsOf(scale) {
		var cases []study.Case
		for _, a := range algs {
			for _, x := range p.loads {
				cases = append(cases, study.Case{Name: fmt.Sprintf("%s@%g", a.name, x), Params: map[string]any{"routing": a.name, "rate": x}})
			}
		}
		out = append(out, study.Part{Name: p.name, Spec: study.Spec{Command: "sim", Seed: 1, Replications: p.reps, Timeout: "30m",
			Params: map[string]any{"topology": topo, "vcs": 2, "buf": p.buf, "flits": p.flits, "traffic": p.pat, "process": "poisson",
				"pipeline": "ideal", "select": "first", "min-cycles": 10000, "max-cycles": 40000},
			Axes: map[string]any{"point": cases}}})
	}
	return out
}

func main() {
	study.Main(study.Program{Name: "seed001", Scales: []string{"full", "test"},
		ScaleHelp: "full (the paper's 16x16 torus), test (two loads of the uniform and shuffle parts)",
		Parts:     parts, Fields: fields, Report: Report})
}

// Costs is each routing's router under Chien's model on the study's torus: its
// routing freedom F (enumerated), crossbar ports P and cycle time.
type Cost struct {
	F, P   int
	Delays chien.Delays
}

func Costs(ctx context.Context) (map[string]Cost, error) {
	net, err := topology.Parse(topo)
	if err != nil {
		return nil, err
	}
	out := map[string]Cost{}
	for _, a := range algs {
		alg, err := routing.Lookup(a.name)
		if err != nil {
			return nil, err
		}
		r, err := alg.New(net, 2)
		if err != nil {
			return nil, err
		}
		f, err := chien.Freedom(ctx, net, r.(deadlock.Function), 2)
		if err != nil {
			return nil, err
		}
		p := chien.Ports(net, 2)
		d, err := chien.Model(p, 2, f)
		if err != nil {
			return nil, err
		}
		out[a.name] = Cost{f, p, d}
	}
	return out, nil
}

type point struct {
	x        float64
	acc, lat study.Est
	steady   int
	seeds    int
}

type series struct {
	alg    string
	points []point
	peaks  map[int]float64 // per replication, the largest accepted load
	peak   study.Est
	steady int
}

// fields are the values the report reads of a sim point.
var fields = []string{"accepted", "latency", "net_latency"}

func collect(pts []study.Point) map[string]map[string]*series {
	out := map[string]map[string]*series{}
	for _, pt := range pts {
		if out[pt.Part] == nil {
			out[pt.Part] = map[string]*series{}
		}
		name := pt.Params["routing"]
		s := out[pt.Part][name]
		if s == nil {
			s = &series{alg: name, peaks: map[int]float64{}}
			out[pt.Part][name] = s
		}
		p := point{x: pt.P("rate"), seeds: len(pt.Obs), acc: pt.Est("accepted")}
		for _, o := range pt.Obs {
			if a, ok := o.Get("accepted"); ok && o.Failed == "" {
				s.peaks[o.Rep] = math.Max(s.peaks[o.Rep], a)
			}
		}
		if pt.All("latency") {
			p.lat = pt.Est("latency")
			p.steady = p.seeds
			s.steady++
		}
		s.points = append(s.points, p)
	}
	for _, m := range out {
		for _, s := range m {
			sort.Slice(s.points, func(i, j int) bool { return s.points[i].x < s.points[j].x })
			reps := make([]int, 0, len(s.peaks))
			for r := range s.peaks {
				reps = append(reps, r)
			}
			slices.Sort(reps)
			var pk []float64
			for _, r := range reps {
				pk = append(pk, s.peaks[r])
			}
			s.peak = study.MeanCI(pk)
		}
	}
	return out
}

// Report writes summary.md and the figures of the points in dir/points.jsonl.
func Report(ctx context.Context, dir string) error {
	pts, err := study.ReadPoints(dir)
	if err != nil {
		return err
	}
	data := collect(pts)
	cost, err := Costs(ctx)
	if err != nil {
		return err
	}
	cpu, err := study.ReadCPU(dir)
	if err != nil {
		return err
	}
	sum := Summary(data, pts, cost, cpu)
	for _, p := range partsOf("full") {
		m := data[p.name]
		if m == nil || p.buf != 4 {
			continue
		}
		title := fmt.Sprintf("seed 001, 16x16 torus, %s, %d-flit packets", p.pat, p.flits)
		var tput, lat []study.Curve
		for _, a := range algs {
			s := m[a.name]
			if s == nil {
				continue
			}
			c, l := study.Curve{Name: a.label}, study.Curve{Name: a.label}
			for _, pt := range s.points {
				c.X, c.Y = append(c.X, pt.x), append(c.Y, pt.acc)
				if pt.lat.N > 0 {
					l.X, l.Y = append(l.X, pt.x), append(l.Y, pt.lat)
				} else {
					l.Marks = append(l.Marks, pt.x)
				}
			}
			tput, lat = append(tput, c), append(lat, l)
		}
		x := "offered load (flits/node/cycle)"
		if err := study.Plot(dir, p.name+"-throughput.svg", title, x, "accepted load (flits/node/cycle)", keys, tput, false); err != nil {
			return err
		}
		if err := study.Plot(dir, p.name+"-latency.svg", title, x, "latency, generation to delivery (cycles)", keys, lat, true); err != nil {
			return err
		}
	}
	return study.WriteFile(dir, "summary.md", []byte(sum))
}

// gain is a's peak over b's, less 1, with the interval of the ratio by the
// replications' spread (a first-order propagation of both intervals).
func gain(a, b study.Est, scale float64) string {
	r := a.Mean / b.Mean * scale
	rel := math.Hypot(a.Half/a.Mean, b.Half/b.Mean)
	return fmt.Sprintf("%+.1f%% ± %.1f", 100*(r-1), 100*r*rel)
}

// Summary is summary.md: the tables docs/seed001.md quotes, each after a line
// "`NAME`".
func Summary(data map[string]map[string]*series, pts []study.Point, cost map[string]Cost, cpu map[string]float64) string {
	var b strings.Builder
	b.WriteString("# Seed 001 re-run: tables\n\nWritten by `go run ./experiments/seed001`; docs/seed001.md quotes them.\n")
	section := func(name, text string) { fmt.Fprintf(&b, "\n`%s`\n\n%s", name, text) }

	runs := study.Table{Head: []string{"part", "points", "seeds", "steady points per routing (fewest)", "failed", "CPU-hours"}}
	total := 0.0
	byPart := map[string][]study.Point{}
	for _, p := range pts {
		byPart[p.Part] = append(byPart[p.Part], p)
	}
	for _, p := range partsOf("full") {
		ps := byPart[p.name]
		if len(ps) == 0 {
			continue
		}
		failed := 0
		for _, pt := range ps {
			for _, o := range pt.Obs {
				if o.Failed != "" {
					failed++
				}
			}
		}
		fewest := math.MaxInt
		for _, s := range data[p.name] {
			fewest = min(fewest, s.steady)
		}
		h := study.CPUHours(cpu, p.name)
		total += h
		runs.Rows = append(runs.Rows, []string{p.name, fmt.Sprint(len(ps)), fmt.Sprint(p.reps), fmt.Sprint(fewest), fmt.Sprint(failed), fmt.Sprintf("%.2f", h)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", "", "", fmt.Sprintf("%.2f", total)})
	section("runs", runs.String())

	ct := study.Table{Head: []string{"routing", "F (enumerated)", "P", "T_head (ns)", "T_trail (ns)", "cycle (ns)"}}
	for _, a := range algs {
		c := cost[a.name]
		ct.Rows = append(ct.Rows, []string{a.label, fmt.Sprint(c.F), fmt.Sprint(c.P), fmt.Sprintf("%.2f", c.Delays.Header()), fmt.Sprintf("%.2f", c.Delays.Trail()), fmt.Sprintf("%.2f", c.Delays.Cycle())})
	}
	section("cost", ct.String())

	rr := cost["redrover"].Delays.Cycle()
	for _, buf := range []int{4, 2, 16} {
		t := study.Table{Head: []string{"packets", "pattern", "Red Rover", "spiral", "Duato variant", "vs spiral, cycles", "vs spiral, ns", "vs Duato, cycles", "vs Duato, ns"}}
		for _, p := range partsOf("full") {
			m := data[p.name]
			if p.buf != buf || m == nil || m["redrover"] == nil || m["dor"] == nil || m["duato-dp"] == nil {
				continue
			}
			r, d, u := m["redrover"].peak, m["dor"].peak, m["duato-dp"].peak
			t.Rows = append(t.Rows, []string{fmt.Sprint(p.flits), p.pat, r.Fmt(4), d.Fmt(4), u.Fmt(4),
				gain(r, d, 1), gain(r, d, cost["dor"].Delays.Cycle()/rr), gain(r, u, 1), gain(r, u, cost["duato-dp"].Delays.Cycle()/rr)})
		}
		if len(t.Rows) == 0 {
			continue
		}
		name := "peaks"
		if buf != 4 {
			name = fmt.Sprintf("peaks-buf%d", buf)
		}
		section(name, t.String())
	}

	// latency at light load and near the spiral's saturation, cycles and ns
	lt := study.Table{Head: []string{"packets", "pattern", "load", "Red Rover", "spiral", "Duato variant", "RR vs spiral, cycles", "RR vs spiral, ns"}}
	for _, p := range partsOf("full") {
		m := data[p.name]
		if p.buf != 4 || m == nil || m["redrover"] == nil || m["dor"] == nil || m["duato-dp"] == nil {
			continue
		}
		for _, x := range []float64{0.01, 0.07} {
			at := func(s *series) study.Est {
				for _, pt := range s.points {
					if math.Abs(pt.x-x) < 1e-9 {
						return pt.lat
					}
				}
				return study.Est{}
			}
			r, d, u := at(m["redrover"]), at(m["dor"]), at(m["duato-dp"])
			rel := func(scale float64) string {
				if r.N == 0 || d.N == 0 {
					return "—"
				}
				return gain(r, d, scale)
			}
			lt.Rows = append(lt.Rows, []string{fmt.Sprint(p.flits), p.pat, fmt.Sprint(x), r.Fmt(1), d.Fmt(1), u.Fmt(1), rel(1), rel(rr / cost["dor"].Delays.Cycle())})
		}
	}
	section("latency", lt.String())
	return b.String()
}
