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
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/chien"
	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/experiments/internal/study"
	"github.com/wormlab/wormlab/figure"
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

// satTol is the saturation searches' resolution (flits/node/cycle): the bisection
// stops when the highest stable and the lowest saturated load are this close
// (three rounds of three probes after the first four).
const satTol = 0.005

// The study's runs: every point at least 10,000 cycles after warm-up, at most
// 20,000 (a load whose latency still grows, or whose accepted load is behind, by
// then is saturated). The limit is CPU's: the saturation searches' probes near the
// edge, most of a search's 13, and the sweeps' points past saturation run to it.
var runLength = map[string]any{"min-cycles": 10000, "max-cycles": 20000}

type part struct {
	name  string
	flits int
	buf   int
	pat   string
	reps  int
	sat   bool      // a saturation search per routing (no loads)
	loads []float64 // the load sweep's offered loads (flits/node/cycle)
}

// satSeeds is the seeds of the main parts' searches: with 3, every main part had a
// gain whose interval held zero or ended within a few percent of it, so the verdicts
// turn on a few percent everywhere.
const satSeeds = 5

// satGuess is each main part's saturation loads (flits/node/cycle) for the load
// sweep's grid (curve): the lowest and highest highest-stable load over the three
// routings and the highest accepted load past saturation, as the committed searches
// found them (docs/seed001, table searches); TestCurvesHaveShape checks that every
// series has six steady points below its own saturation.
var satGuess = map[string][3]float64{
	"uniform-8": {0.160, 0.191, 0.199}, "transpose-8": {0.103, 0.117, 0.186}, "bitrev-8": {0.077, 0.086, 0.154},
	"shuffle-8": {0.087, 0.092, 0.193}, "bitcomp-8": {0.148, 0.174, 0.114},
	"uniform-64": {0.115, 0.152, 0.155}, "transpose-64": {0.100, 0.112, 0.184}, "bitrev-64": {0.082, 0.089, 0.159},
	"shuffle-64": {0.074, 0.099, 0.166}, "bitcomp-64": {0.143, 0.147, 0.141},
}

// curve is a part's load grid from its searches: seven loads evenly up to 95% of
// the lowest saturation load, four evenly on to 15% past the highest, and, where
// the accepted load past saturation (every source offered 1 flit a cycle) is
// higher still, two more on to 10% past it, so that the throughput curves reach
// their plateau.
func curve(g [3]float64) []float64 {
	lo, hi, top := g[0], g[1], g[2]
	var xs []float64
	for i := 1; i <= 7; i++ {
		xs = append(xs, round3(0.95*lo*float64(i)/7))
	}
	from, to := 0.95*lo, 1.15*hi
	for i := 1; i <= 4; i++ {
		xs = append(xs, round3(from+(to-from)*float64(i)/4))
	}
	if end := 1.1 * top; end > to+0.01 {
		for i := 1; i <= 2; i++ {
			xs = append(xs, round3(to+(end-to)*float64(i)/2))
		}
	}
	return xs
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

func partsOf(scale string) []part {
	var ps []part
	for _, l := range []int{8, 64} {
		for _, p := range patterns {
			name := fmt.Sprintf("%s-%d", p, l)
			ps = append(ps, part{name: "sat-" + name, flits: l, buf: 4, pat: p, reps: satSeeds, sat: true})
			if g, ok := satGuess[name]; ok {
				ps = append(ps, part{name: name, flits: l, buf: 4, pat: p, reps: 3, loads: curve(g)})
			}
		}
	}
	// the buffer depth the copy lost: 2 and 16 flits per VC, uniform traffic
	for _, b := range []int{2, 16} {
		for _, l := range []int{8, 64} {
			ps = append(ps, part{name: fmt.Sprintf("sat-uniform-%d-buf%d", l, b), flits: l, buf: b, pat: "uniform", reps: 3, sat: true})
		}
	}
	if scale == "test" {
		var t []part
		for _, p := range ps {
			if p.buf == 4 && p.flits == 8 && p.pat == "uniform" {
				if !p.sat {
					p.loads = p.loads[:2]
				}
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
		params := map[string]any{"topology": topo, "vcs": 2, "buf": p.buf, "flits": p.flits, "traffic": p.pat, "process": "poisson",
			"pipeline": "ideal", "select": "first"}
		for k, v := range runLength {
			params[k] = v
		}
		var cases []study.Case
		for _, a := range algs {
			if p.sat {
				cases = append(cases, study.Case{Name: a.name, Params: map[string]any{"routing": a.name}})
				continue
			}
			for _, x := range p.loads {
				cases = append(cases, study.Case{Name: fmt.Sprintf("%s@%g", a.name, x), Params: map[string]any{"routing": a.name, "rate": x}})
			}
		}
		if p.sat {
			params["saturation"], params["saturation-tol"] = true, satTol
		}
		out = append(out, study.Part{Name: p.name, Spec: study.Spec{Command: "sim", Seed: 1, Replications: p.reps, Timeout: "30m",
			Params: params, Axes: map[string]any{"point": cases}}})
	}
	return out
}

func main() {
	study.Main(study.Program{Name: "seed001", Scales: []string{"full", "test"},
		ScaleHelp: "full (the paper's 16x16 torus), test (the searches and two loads of uniform traffic with 8-flit packets)",
		Parts:     parts, Fields: fields, Report: Report})
}

// Reading is one way of applying Chien's model to the study's routers: how the
// crossbar's ports are counted and whether Red Rover's class is fixed at the
// source. The first is the study's; the others show how far the gains in time
// depend on the choice.
type Reading struct {
	Name string
	// PerDim: a crossbar per dimension (the router cut into dimensions, as seed
	// 001 says Chien's is: each dimension's two links and the stage before it,
	// (2 + 1) V ports) instead of one crossbar with a port per input VC.
	PerDim bool
	// RRFixed: Red Rover's class chosen once at the source (F = 1) instead of on
	// entering each dimension among the classes whose dateline the route avoids.
	RRFixed bool
}

var readings = []Reading{
	{Name: "one crossbar, F enumerated"},
	{Name: "a crossbar per dimension", PerDim: true},
	{Name: "Red Rover's class fixed at the source", RRFixed: true},
}

// Cost is a routing's router under Chien's model on the study's torus in one
// reading: its routing freedom F, crossbar ports P and module delays.
type Cost struct {
	F, P   int
	Delays chien.Delays
}

// Costs is every routing's Cost in reading rd.
func Costs(ctx context.Context, rd Reading) (map[string]Cost, error) {
	net, err := topology.Parse(topo)
	if err != nil {
		return nil, err
	}
	const vcs = 2
	out := map[string]Cost{}
	for _, a := range algs {
		alg, err := routing.Lookup(a.name)
		if err != nil {
			return nil, err
		}
		r, err := alg.New(net, vcs)
		if err != nil {
			return nil, err
		}
		f, err := chien.Freedom(ctx, net, r.(deadlock.Function), vcs)
		if err != nil {
			return nil, err
		}
		if rd.RRFixed && a.name == "redrover" {
			f = 1
		}
		p := chien.Ports(net, vcs)
		if rd.PerDim {
			p = chien.DimPorts(vcs)
		}
		d, err := chien.Model(p, vcs, f)
		if err != nil {
			return nil, err
		}
		out[a.name] = Cost{f, p, d}
	}
	return out, nil
}

// sat is a routing's saturation searches on one part: per seed the highest stable
// load found (lo), the lowest saturated (hi), the accepted load at lo (the
// saturation throughput) and the accepted load with every source offered 1 flit a
// cycle (past saturation).
type sat struct {
	lo, hi, acc, over study.Est
	seeds             int
}

type point struct {
	x             float64
	acc, lat, net study.Est
	steady        bool // every seed steady
}

// series is one routing on one main part: its saturation and its load sweep.
type series struct {
	alg    string
	sat    *sat
	points []point
}

// data is the study's results by main part ("uniform-8") and routing.
type data map[string]map[string]*series

func collect(pts []study.Point) data {
	out := data{}
	get := func(part, alg string) *series {
		if out[part] == nil {
			out[part] = map[string]*series{}
		}
		s := out[part][alg]
		if s == nil {
			s = &series{alg: alg}
			out[part][alg] = s
		}
		return s
	}
	for _, pt := range pts {
		name := pt.Params["routing"]
		if base, ok := strings.CutPrefix(pt.Part, "sat-"); ok {
			get(base, name).sat = &sat{lo: pt.Est("saturation.lo"), hi: pt.Est("saturation.hi"),
				acc: pt.Est("saturation.accepted_lo"), over: pt.Est("saturation.throughput"), seeds: len(pt.Obs)}
			continue
		}
		p := point{x: pt.P("rate"), acc: pt.Est("accepted"), net: pt.Est("net_latency")}
		if pt.All("latency") {
			p.lat, p.steady = pt.Est("latency"), true
		}
		s := get(pt.Part, name)
		s.points = append(s.points, p)
	}
	for _, m := range out {
		for _, s := range m {
			sort.Slice(s.points, func(i, j int) bool { return s.points[i].x < s.points[j].x })
		}
	}
	return out
}

// below is how many of a series's points are steady at a load below its
// saturation (the mean highest stable load).
func (s *series) below() int {
	n := 0
	for _, p := range s.points {
		if s.sat != nil && p.steady && p.x <= s.sat.lo.Mean {
			n++
		}
	}
	return n
}

// Report writes summary.md and the figures of the points in dir/points.jsonl.gz.
func Report(ctx context.Context, dir string) error {
	pts, err := study.ReadPoints(dir)
	if err != nil {
		return err
	}
	d := collect(pts)
	costs := make([]map[string]Cost, len(readings))
	for i, rd := range readings {
		if costs[i], err = Costs(ctx, rd); err != nil {
			return err
		}
	}
	cpu, err := study.ReadCPU(dir)
	if err != nil {
		return err
	}
	if err := plots(dir, d, costs[0]); err != nil {
		return err
	}
	return study.WriteFile(dir, "summary.md", []byte(Summary(d, pts, costs, cpu)))
}

func plots(dir string, d data, cost map[string]Cost) error {
	x := "offered load (flits/node/cycle)"
	for _, p := range partsOf("full") {
		m := d[p.name]
		if m == nil || p.sat {
			continue
		}
		title := fmt.Sprintf("seed 001, 16x16 torus, %s, %d-flit packets", p.pat, p.flits)
		var tput, lat, net []study.Curve
		for _, a := range algs {
			s := m[a.name]
			if s == nil {
				continue
			}
			c, l, n := study.Curve{Name: a.label}, study.Curve{Name: a.label}, study.Curve{Name: a.label}
			for _, pt := range s.points {
				c.X, c.Y = append(c.X, pt.x), append(c.Y, pt.acc)
				if pt.steady {
					l.X, l.Y = append(l.X, pt.x), append(l.Y, pt.lat)
					n.X, n.Y = append(n.X, pt.x), append(n.Y, pt.net)
				} else {
					l.Marks = append(l.Marks, pt.x)
					n.Marks = append(n.Marks, pt.x)
				}
			}
			tput, lat, net = append(tput, c), append(lat, l), append(net, n)
		}
		if err := study.Plot(dir, p.name+"-throughput.svg", title, x, "accepted load (flits/node/cycle)", keys, tput, false); err != nil {
			return err
		}
		if err := study.Plot(dir, p.name+"-latency.svg", title, x, "latency, generation to delivery (cycles)", keys, lat, true); err != nil {
			return err
		}
		if err := study.Plot(dir, p.name+"-netlatency.svg", title, x, "network latency, source queueing excluded (cycles)", keys, net, true); err != nil {
			return err
		}
	}
	// saturation throughput by pattern, in flits/node/cycle and per nanosecond, and
	// the throughput past saturation
	type bars struct {
		file, ylabel string
		ms           measure
		ns           bool
	}
	for _, l := range []int{8, 64} {
		for _, b := range []bars{
			{fmt.Sprintf("saturation-%d.svg", l), "saturation throughput (flits/node/cycle)", measures[0], false},
			{fmt.Sprintf("saturation-%d-ns.svg", l), "saturation throughput (flits/node/ns, Chien's cycle times)", measures[0], true},
			{fmt.Sprintf("overload-%d.svg", l), "accepted load, every source offered 1 (flits/node/cycle)", measures[1], false},
		} {
			f := &figure.Figure{Title: fmt.Sprintf("seed 001, 16x16 torus, %d-flit packets", l),
				XLabel: "traffic pattern", YLabel: b.ylabel, Categories: patterns, Keys: keys, Legend: "outside"}
			for _, a := range algs {
				sr := figure.Series{Name: a.label}
				for i, pat := range patterns {
					s := d[fmt.Sprintf("%s-%d", pat, l)][a.name]
					if s == nil || s.sat == nil || b.ms.get(s.sat).N == 0 {
						continue
					}
					e := b.ms.get(s.sat)
					if b.ns {
						e = e.Scaled(1 / cost[a.name].Delays.Cycle())
					}
					sr.Points = append(sr.Points, figure.Point{X: float64(i), Y: e.Mean, Err: e.Half, N: e.N})
				}
				if len(sr.Points) > 0 {
					f.Series = append(f.Series, sr)
				}
			}
			if len(f.Series) == 0 {
				continue
			}
			var buf bytes.Buffer
			if err := figure.Draw(&buf, f, "svg", figure.DefaultWidth+2*72, figure.DefaultHeight); err != nil {
				return err
			}
			if err := study.WriteFile(dir, b.file, buf.Bytes()); err != nil {
				return err
			}
		}
	}
	return nil
}

// ratio is a / b * scale with the interval of the ratio from both intervals (a
// first-order propagation of the relative half-widths).
func ratio(a, b study.Est, scale float64) study.Est {
	r := a.Mean / b.Mean * scale
	return study.Est{Mean: r, Half: r * math.Hypot(a.Half/a.Mean, b.Half/b.Mean), N: min(a.N, b.N)}
}

// gain is a ratio as a percentage gain with its interval: "+12.3% ± 4.5".
func gain(r study.Est) string {
	if r.N == 0 || math.IsNaN(r.Mean) {
		return "—"
	}
	return fmt.Sprintf("%+.1f%% ± %.1f", 100*(r.Mean-1), 100*r.Half)
}

// verdict says where a ratio's interval stands to 1: "ahead", "behind" or "level".
func verdict(r study.Est) string {
	return map[study.Side]string{study.Higher: "ahead", study.Lower: "behind", study.Level: "level"}[study.Compare(r, study.Est{Mean: 1, N: 1})]
}

// mains are the main parts (4-flit buffers) in the order of the tables.
func mains() []part {
	var out []part
	for _, p := range partsOf("full") {
		if p.sat && p.buf == 4 {
			p.name = strings.TrimPrefix(p.name, "sat-")
			out = append(out, p)
		}
	}
	return out
}

// measure is one way of reading a routing's throughput from its searches.
type measure struct {
	name string
	get  func(*sat) study.Est
}

// measures: the saturation throughput (the accepted load at the highest stable
// load) and the throughput past saturation (every source offered 1 flit a cycle).
var measures = []measure{
	{"at saturation", func(s *sat) study.Est { return s.acc }},
	{"past saturation", func(s *sat) study.Est { return s.over }},
}

// gains are Red Rover's throughput by m over other's on part, in cycles and in time
// under cost (ok false when a search is missing).
func gains(d data, part, other string, cost map[string]Cost, m measure) (cyc, ns study.Est, ok bool) {
	r, o := d[part]["redrover"], d[part][other]
	if r == nil || o == nil || r.sat == nil || o.sat == nil || m.get(r.sat).N == 0 || m.get(o.sat).N == 0 {
		return study.Est{}, study.Est{}, false
	}
	cyc = ratio(m.get(r.sat), m.get(o.sat), 1)
	ns = ratio(m.get(r.sat), m.get(o.sat), cost[other].Delays.Cycle()/cost["redrover"].Delays.Cycle())
	return cyc, ns, true
}

// Summary is summary.md: the tables docs/seed001.md quotes, each after a line
// "`NAME`".
func Summary(d data, pts []study.Point, costs []map[string]Cost, cpu map[string]float64) string {
	var b strings.Builder
	b.WriteString("# Seed 001 re-run: tables\n\nWritten by `go run ./experiments/seed001`; docs/seed001.md quotes them.\n")
	section := func(name, text string) { fmt.Fprintf(&b, "\n`%s`\n\n%s", name, text) }
	cost := costs[0]

	runs := study.Table{Head: []string{"part", "points", "seeds", "runs", "failed", "CPU-minutes"}}
	total, nruns := 0.0, 0
	byPart := map[string][]study.Point{}
	for _, p := range pts {
		byPart[p.Part] = append(byPart[p.Part], p)
	}
	for _, p := range partsOf("full") {
		ps := byPart[p.name]
		if len(ps) == 0 {
			continue
		}
		failed, n, seeds := 0, 0, 0
		for _, pt := range ps {
			n += len(pt.Obs)
			seeds = max(seeds, len(pt.Obs))
			for _, o := range pt.Obs {
				if o.Failed != "" {
					failed++
				}
			}
		}
		m := 60 * study.CPUHours(cpu, p.name)
		total += m
		nruns += n
		runs.Rows = append(runs.Rows, []string{p.name, fmt.Sprint(len(ps)), fmt.Sprint(seeds), fmt.Sprint(n), fmt.Sprint(failed), fmt.Sprintf("%.1f", m)})
	}
	runs.Rows = append(runs.Rows, []string{"all", "", "", fmt.Sprint(nruns), "", fmt.Sprintf("%.1f", total)})
	section("runs", runs.String())

	ct := study.Table{Head: []string{"reading", "routing", "F", "P", "T_head (ns)", "T_trail (ns)", "cycle (ns)", "vs Red Rover"}}
	for i, rd := range readings {
		for _, a := range algs {
			c := costs[i][a.name]
			ct.Rows = append(ct.Rows, []string{rd.Name, a.label, fmt.Sprint(c.F), fmt.Sprint(c.P), fmt.Sprintf("%.2f", c.Delays.Header()),
				fmt.Sprintf("%.2f", c.Delays.Trail()), fmt.Sprintf("%.2f", c.Delays.Cycle()),
				fmt.Sprintf("%+.1f%%", 100*(c.Delays.Cycle()/costs[i]["redrover"].Delays.Cycle()-1))})
		}
	}
	section("cost", ct.String())

	// saturation throughput and the gains, main parts, by each measure
	for i, ms := range measures {
		pk := study.Table{Head: []string{"packets", "pattern", "seeds", "Red Rover", "spiral", "Duato variant",
			"vs spiral, cycles", "vs spiral, time", "vs Duato, cycles", "vs Duato, time"}}
		for _, p := range mains() {
			m := d[p.name]
			if m == nil {
				continue
			}
			seeds := math.MaxInt
			var cells []string
			for _, a := range algs {
				s := m[a.name]
				if s == nil || s.sat == nil {
					cells = append(cells, "—")
					continue
				}
				seeds = min(seeds, s.sat.seeds)
				cells = append(cells, ms.get(s.sat).Fmt(4))
			}
			if seeds == math.MaxInt {
				seeds = 0
			}
			row := append([]string{fmt.Sprint(p.flits), p.pat, fmt.Sprint(seeds)}, cells...)
			for _, o := range []string{"dor", "duato-dp"} {
				c, n, ok := gains(d, p.name, o, cost, ms)
				if !ok {
					row = append(row, "—", "—")
					continue
				}
				row = append(row, gain(c), gain(n))
			}
			pk.Rows = append(pk.Rows, row)
		}
		section([]string{"peaks", "overload"}[i], pk.String())
	}

	// the searches' loads and the throughput past saturation
	ld := study.Table{Head: []string{"packets", "pattern", "routing", "highest stable load", "lowest saturated", "accepted there", "offered 1 (past saturation)", "kept"}}
	for _, p := range mains() {
		for _, a := range algs {
			s := d[p.name][a.name]
			if s == nil || s.sat == nil {
				continue
			}
			ld.Rows = append(ld.Rows, []string{fmt.Sprint(p.flits), p.pat, a.label, s.sat.lo.Fmt(4), s.sat.hi.Fmt(4), s.sat.acc.Fmt(4),
				s.sat.over.Fmt(4), fmt.Sprintf("%.0f%%", 100*s.sat.over.Mean/s.sat.acc.Mean)})
		}
	}
	section("searches", ld.String())

	// buffer depth
	bt := study.Table{Head: []string{"buffer (flits)", "packets", "Red Rover", "spiral", "Duato variant", "vs spiral, cycles", "vs spiral, time", "vs Duato, cycles", "vs Duato, time"}}
	for _, buf := range []int{2, 4, 16} {
		for _, l := range []int{8, 64} {
			name := fmt.Sprintf("uniform-%d", l)
			if buf != 4 {
				name = fmt.Sprintf("uniform-%d-buf%d", l, buf)
			}
			m := d[name]
			if m == nil {
				continue
			}
			row := []string{fmt.Sprint(buf), fmt.Sprint(l)}
			for _, a := range algs {
				if s := m[a.name]; s != nil && s.sat != nil {
					row = append(row, s.sat.acc.Fmt(4))
				} else {
					row = append(row, "—")
				}
			}
			for _, o := range []string{"dor", "duato-dp"} {
				c, n, ok := gains(d, name, o, cost, measures[0])
				if !ok {
					row = append(row, "—", "—")
					continue
				}
				row = append(row, gain(c), gain(n))
			}
			bt.Rows = append(bt.Rows, row)
		}
	}
	if len(bt.Rows) > 2 {
		section("buffers", bt.String())
	}

	// the gains in time under each reading of the model
	rt := study.Table{Head: []string{"packets", "pattern"}}
	for _, rd := range readings {
		rt.Head = append(rt.Head, "vs spiral: "+rd.Name, "vs Duato: "+rd.Name)
	}
	for _, p := range mains() {
		row := []string{fmt.Sprint(p.flits), p.pat}
		for i := range readings {
			for _, o := range []string{"dor", "duato-dp"} {
				_, n, ok := gains(d, p.name, o, costs[i], measures[0])
				if !ok {
					row = append(row, "—")
					continue
				}
				row = append(row, gain(n))
			}
		}
		rt.Rows = append(rt.Rows, row)
	}
	section("readings", rt.String())

	section("latency", latencyTable(d, cost).String())
	section("shape", shapeTable(d).String())
	section("claims", claims(d, costs).String())
	return b.String()
}

// latencyTable is the mean latency at the lightest load and at the highest load
// where all three routings are steady, in cycles and in nanoseconds (cycles times
// the router's cycle time), with Red Rover's difference from each.
func latencyTable(d data, cost map[string]Cost) study.Table {
	t := study.Table{Head: []string{"packets", "pattern", "load", "Red Rover (cycles)", "spiral", "Duato variant",
		"vs spiral, cycles", "vs spiral, time", "vs Duato, cycles", "vs Duato, time"}}
	for _, p := range mains() {
		m := d[p.name]
		r, s, u := m["redrover"], m["dor"], m["duato-dp"]
		if r == nil || s == nil || u == nil || len(r.points) == 0 {
			continue
		}
		var common []int // indices steady in all three (the grids are the same)
		for i := range r.points {
			if i < len(s.points) && i < len(u.points) && r.points[i].steady && s.points[i].steady && u.points[i].steady {
				common = append(common, i)
			}
		}
		if len(common) == 0 {
			continue
		}
		for _, i := range []int{common[0], common[len(common)-1]} {
			rl, sl, ul := r.points[i].lat, s.points[i].lat, u.points[i].lat
			rr := cost["redrover"].Delays.Cycle()
			t.Rows = append(t.Rows, []string{fmt.Sprint(p.flits), p.pat, fmt.Sprint(r.points[i].x), rl.Fmt(1), sl.Fmt(1), ul.Fmt(1),
				gain(ratio(rl, sl, 1)), gain(ratio(rl, sl, rr/cost["dor"].Delays.Cycle())),
				gain(ratio(rl, ul, 1)), gain(ratio(rl, ul, rr/cost["duato-dp"].Delays.Cycle()))})
		}
	}
	return t
}

// shapeTable counts each series's steady points below its saturation load.
func shapeTable(d data) study.Table {
	t := study.Table{Head: []string{"packets", "pattern", "Red Rover", "spiral", "Duato variant"}}
	for _, p := range mains() {
		m := d[p.name]
		row := []string{fmt.Sprint(p.flits), p.pat}
		for _, a := range algs {
			if s := m[a.name]; s != nil && len(s.points) > 0 {
				row = append(row, fmt.Sprintf("%d of %d", s.below(), len(s.points)))
			} else {
				row = append(row, "—")
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// unitGain is Red Rover's gain over other on part by ms in cycles (cost nil) or in
// time under cost.
func unitGain(d data, part, other string, cost map[string]Cost, ms measure) (study.Est, bool) {
	c, n, ok := gains(d, part, other, readingCost(cost), ms)
	if cost != nil {
		c = n
	}
	return c, ok
}

// tally counts the main parts (of packet length l, 0: all) where Red Rover's
// saturation throughput is ahead of, level with and behind other's, in cycles
// (cost nil) or in time under cost.
func tally(d data, other string, l int, cost map[string]Cost, ms measure) (ahead, level, behind int) {
	for _, p := range mains() {
		if l != 0 && p.flits != l {
			continue
		}
		c, ok := unitGain(d, p.name, other, cost, ms)
		if !ok {
			continue
		}
		switch verdict(c) {
		case "ahead":
			ahead++
		case "behind":
			behind++
		default:
			level++
		}
	}
	return
}

// readingCost is cost, or any reading's when nil (gains in cycles do not read it).
func readingCost(cost map[string]Cost) map[string]Cost {
	if cost == nil {
		return map[string]Cost{"redrover": {Delays: chien.Delays{AD: 1}}, "dor": {Delays: chien.Delays{AD: 1}}, "duato-dp": {Delays: chien.Delays{AD: 1}}}
	}
	return cost
}

// claims is the paper's conclusions against the study: a column per unit (cycles,
// then time under each reading of Chien's model), each holding, failing or level
// (the intervals overlap, so the runs cannot say), and the verdict (outcomeVerdict).
func claims(d data, costs []map[string]Cost) study.Table {
	t := study.Table{Head: []string{"claim", "cycles"}}
	units := []map[string]Cost{nil}
	for i, rd := range readings {
		t.Head = append(t.Head, "time: "+rd.Name)
		units = append(units, costs[i])
	}
	t.Head = append(t.Head, "verdict")
	row := func(name string, f func(cost map[string]Cost) (string, study.Outcome, bool)) {
		r := []string{name}
		var outs []study.Outcome
		for _, u := range units {
			text, o, known := f(u)
			r = append(r, text)
			if known {
				outs = append(outs, o)
			}
		}
		t.Rows = append(t.Rows, append(r, outcomeVerdict(outs)))
	}
	n := len(mains())
	for k, ms := range measures {
		sub := string(rune('a' + k))
		most := func(other string, l int) func(map[string]Cost) (string, study.Outcome, bool) {
			return func(cost map[string]Cost) (string, study.Outcome, bool) {
				a, lv, b := tally(d, other, l, cost, ms)
				if a+lv+b == 0 {
					return "", 0, false
				}
				return fmt.Sprintf("ahead %d, level %d, behind %d", a, lv, b), study.Most(a, lv, a+lv+b), true
			}
		}
		row(fmt.Sprintf("1%s. more throughput than the spiral in most of the %d cases (%s)", sub, n, ms.name), most("dor", 0))
		row(fmt.Sprintf("2%s. more throughput than the Duato variant in most of the %d cases (%s)", sub, n, ms.name), most("duato-dp", 0))
		all64 := func(cost map[string]Cost) (string, study.Outcome, bool) {
			both, behind, cases := 0, 0, 0
			for _, p := range mains() {
				if p.flits != 64 {
					continue
				}
				var vs []string
				for _, o := range []string{"dor", "duato-dp"} {
					c, ok := unitGain(d, p.name, o, cost, ms)
					if !ok {
						break
					}
					vs = append(vs, verdict(c))
				}
				if len(vs) < 2 {
					continue
				}
				cases++
				if vs[0] == "ahead" && vs[1] == "ahead" {
					both++
				}
				if vs[0] == "behind" || vs[1] == "behind" {
					behind++
				}
			}
			if cases == 0 {
				return "", 0, false
			}
			return fmt.Sprintf("ahead of both on %d of %d, behind either on %d", both, cases, behind), study.Every(both, behind, cases), true
		}
		row(fmt.Sprintf("3%s. with 64-flit packets, ahead of both on every pattern (%s)", sub, ms.name), all64)
		// the largest gain (by its mean) over either routing with l-flit packets, with
		// its interval
		best := func(l int, cost map[string]Cost) (string, study.Est, bool) {
			var top study.Est
			where := ""
			for _, p := range mains() {
				if p.flits != l {
					continue
				}
				for _, o := range []string{"dor", "duato-dp"} {
					c, ok := unitGain(d, p.name, o, cost, ms)
					if ok && (where == "" || c.Mean > top.Mean) {
						top, where = c, fmt.Sprintf("%s over %s", p.pat, labelShort(o))
					}
				}
			}
			return fmt.Sprintf("%s (%s)", gain(top), where), top, where != ""
		}
		// 'on the order of 25%' read as between 15% and 35%: the gain's interval
		// inside that band, wholly outside it, or across an end of it (level)
		row(fmt.Sprintf("4%s. with 64-flit packets the largest gain is on the order of 25%% (15-35%%; %s)", sub, ms.name), func(cost map[string]Cost) (string, study.Outcome, bool) {
			text, g, ok := best(64, cost)
			o := study.Within(g, 1.15, 1.35)
			if o == study.Inconclusive {
				text += "; the interval holds an end of the band"
			}
			return text, o, ok
		})
		row(fmt.Sprintf("5%s. the largest gain is smaller with 64-flit packets than with 8-flit (%s)", sub, ms.name), func(cost map[string]Cost) (string, study.Outcome, bool) {
			t8, g8, ok8 := best(8, cost)
			t64, g64, ok64 := best(64, cost)
			o := study.Judge(g64, g8, study.Lower)
			if o == study.Inconclusive {
				t64 += "; the intervals overlap"
			}
			return "8: " + t8 + "; 64: " + t64, o, ok8 && ok64
		})
	}
	row("6. Red Rover's router has the shortest cycle time", func(cost map[string]Cost) (string, study.Outcome, bool) {
		if cost == nil {
			return "(not a claim in cycles)", 0, false
		}
		rr := cost["redrover"].Delays.Cycle()
		return fmt.Sprintf("%.2f ns against %.2f and %.2f", rr, cost["dor"].Delays.Cycle(), cost["duato-dp"].Delays.Cycle()),
			holds(rr < cost["dor"].Delays.Cycle() && rr < cost["duato-dp"].Delays.Cycle()), true
	})
	row("7. lower latency than both at the highest load all three carry, in most cases", func(cost map[string]Cost) (string, study.Outcome, bool) {
		lower, higher, cases := 0, 0, 0 // higher: above either (level: neither this nor lower)
		for _, p := range mains() {
			m := d[p.name]
			r, s, u := m["redrover"], m["dor"], m["duato-dp"]
			if r == nil || s == nil || u == nil {
				continue
			}
			i := -1
			for j := range r.points {
				if j < len(s.points) && j < len(u.points) && r.points[j].steady && s.points[j].steady && u.points[j].steady {
					i = j
				}
			}
			if i < 0 {
				continue
			}
			cases++
			scale := func(o string) float64 {
				if cost == nil {
					return 1
				}
				return cost["redrover"].Delays.Cycle() / cost[o].Delays.Cycle()
			}
			vs, vu := verdict(ratio(r.points[i].lat, s.points[i].lat, scale("dor"))), verdict(ratio(r.points[i].lat, u.points[i].lat, scale("duato-dp")))
			switch {
			case vs == "behind" && vu == "behind":
				lower++
			case vs == "ahead" || vu == "ahead":
				higher++
			}
		}
		if cases == 0 {
			return "", 0, false
		}
		return fmt.Sprintf("lower in %d of %d, above either in %d", lower, cases, higher), study.Most(lower, cases-lower-higher, cases), true
	})
	return t
}

// holds is a claim decided without intervals (the model's cycle times): it holds
// or it fails. Claims about most or every case count the cases their intervals
// decide (study.Most, study.Every), and are level where the level cases decide.
func holds(ok bool) study.Outcome {
	if ok {
		return study.Holds
	}
	return study.Fails
}

// outcomeVerdict is a claim's verdict from its columns' outcomes: "reproduced"
// when every column holds, "not reproduced" when every one fails, "level
// (inconclusive: the intervals overlap)" when every one is level; where they
// differ, "depends on a choice" when some hold and some fail, and otherwise the
// verdict of the columns that separate with the number level.
func outcomeVerdict(outs []study.Outcome) string {
	n := map[study.Outcome]int{}
	for _, o := range outs {
		n[o]++
	}
	lv := n[study.Inconclusive]
	switch {
	case len(outs) == 0:
		return "not run"
	case n[study.Holds] > 0 && n[study.Fails] > 0:
		return "depends on a choice"
	case lv == len(outs):
		return "level (inconclusive: the intervals overlap)"
	case lv > 0 && n[study.Holds] > 0:
		return fmt.Sprintf("reproduced where the intervals separate (level in %d of %d)", lv, len(outs))
	case lv > 0:
		return fmt.Sprintf("not reproduced where the intervals separate (level in %d of %d)", lv, len(outs))
	case n[study.Holds] > 0:
		return "reproduced"
	}
	return "not reproduced"
}

func labelShort(name string) string {
	return map[string]string{"dor": "the spiral", "duato-dp": "the Duato variant"}[name]
}

// fields are the values the report reads of a sim point and of a saturation search.
var fields = []string{"accepted", "latency", "net_latency", "saturation.lo", "saturation.hi", "saturation.accepted_lo", "saturation.throughput"}
