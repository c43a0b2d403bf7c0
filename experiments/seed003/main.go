// Command seed003 re-runs Boppana and Chalasani, "A comparison of adaptive wormhole
// routing algorithms" (ISCA 1993; seed 003, its simulation section): latency and
// achieved channel utilisation against offered channel utilisation on the 16-ary
// 2-cube for e-cube (dor), north-last, positive-hop, negative-hop, negative-hop with
// bonus cards (nbc) and Pn, under uniform, hotspot and local traffic, with fixed-length
// messages, geometric inter-arrival times and congestion control; and the same
// comparison across every parameter the paper's copy lost (hotspot share and node,
// local region, message length, congestion-control limit and reading, buffer depth),
// the paper's packet-switching probe of priority, and Pn at the paper's VC count.
//
// Usage: go run ./experiments/seed003 [-scale full|reduced|test] [-workers N] [-only PARTS]
// [-report] [-wormlab BIN] OUTDIR
//
// Every part is a sweep spec (OUTDIR/specs/PART.json) that `wormlab sweep` runs into
// OUTDIR/PART.jsonl (resumable; on Slurm: wormlab sweep OUTDIR/specs/PART.json
// --slurm, then -report). The report writes OUTDIR/summary.md (the tables
// docs/seed003.md quotes), OUTDIR/figures.json (every figure the doc states, with its
// interval, for the tests) and the SVG figures. -scale reduced runs seven loads and 3
// seeds a part; -scale test reruns two loads of each main series of the full scale
// (the fourth and the last) with its seeds, for the gated test against the committed
// run (docs/seed003: its main parts and the packet probe at the full scale, the other
// parts as docs/seed003.md says).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/experiments/internal/study"
)

// alg is a routing compared: its name in wormlab, its label, and its VC count (each
// at its minimum proved by wormlab deadlock, docs/deadlock.md).
type alg struct {
	name, label string
	vcs         int
	fast        bool // a hop scheme: saturates late
}

var algs = []alg{
	{"dor", "e-cube", 2, false},
	{"northlast", "north-last", 4, false},
	{"poshop", "positive-hop", 16, true},
	{"neghop", "negative-hop", 9, true},
	{"nbc", "NBC", 9, true},
	{"pn", "Pn", 6, false},
}

// keys are the series of every figure, in order: each keeps its look.
var keys = []string{"e-cube", "north-last", "positive-hop", "negative-hop", "NBC", "Pn", "Pn, 4 VCs (pn2n, unsafe)"}

func labelOf(name string) string {
	for _, a := range algs {
		if a.name == name {
			return a.label
		}
	}
	if name == "pn2n" {
		return keys[6]
	}
	return name
}

// base is every run's configuration (docs/seed003.md, "Configuration").
func base(scale string) map[string]any {
	m := map[string]any{
		"topology": "torus:16x16", "buf": 4, "flits": 20, "pipeline": "ideal",
		"select": "credits", "class-limit": 2, "min-cycles": 10000, "max-cycles": 40000,
	}
	return m
}

// variant is one traffic and configuration: a part of the study.
type variant struct {
	part  string
	title string         // for the figures
	group string         // the table it belongs to
	set   map[string]any // parameters over base
	dbar  float64        // mean hops of the pattern (offered channel utilisation)
	grid  func(a alg) []float64
	algs  []string // "" : all six
	reps  int
	plots bool
	// rates, when set, are the loads in flits/node/cycle (a mesh has no offered
	// channel utilisation of the torus's form)
	rates []float64
}

// mean hops on the 16x16 torus: uniform and hotspot 8 (the hot node's mean distance
// is a node's), local diamond of radius 3 56/24, the 5x5 square 60/24, the 7x7
// square 168/48.
const (
	hopsUniform = 8.0
	hopsDiamond = 56.0 / 24
	hops5x5     = 60.0 / 24
	hops7x7     = 168.0 / 48
)

func steps(from, to, step float64) []float64 {
	var xs []float64
	for i := 0; ; i++ {
		x := math.Round((from+float64(i)*step)*1e6) / 1e6
		if x > to+1e-9 {
			return xs
		}
		xs = append(xs, x)
	}
}

func join(parts ...[]float64) []float64 {
	var xs []float64
	for _, p := range parts {
		xs = append(xs, p...)
	}
	slices.Sort(xs)
	return slices.Compact(xs)
}

// grids: dense below saturation (at least six points under each algorithm's), a
// few past it. uniform: e-cube, north-last and Pn saturate near 0.3, the hop
// schemes near 0.6; the hotspot's node caps every algorithm at 1/(h N + 1 - h)
// flits per cycle into it (offered channel utilisation 0.179 at 4%, 0.328 at 2%,
// 0.563 at 1%); the coarse grid serves the sensitivity parts.
func uniformGrid(a alg) []float64 {
	if a.fast {
		return join(steps(0.06, 0.66, 0.06), []float64{0.9})
	}
	return join(steps(0.04, 0.32, 0.04), []float64{0.45, 0.65, 0.9})
}

func hotGrid(cap float64) func(alg) []float64 {
	return func(a alg) []float64 {
		s := cap / 8
		s = math.Round(s*100) / 100
		return join(steps(s, cap+s, s), []float64{0.6, 0.9})
	}
}

func localGrid(alg) []float64 { return join(steps(0.04, 0.44, 0.04), []float64{0.6, 0.9}) }

// fineGrid is uniformGrid with a finer step for e-cube, north-last and Pn, which
// saturate from 0.2 on with 2-flit buffers, 40-flit messages or another
// congestion-control limit (the reduced run's steady points).
func fineGrid(a alg) []float64 {
	if a.fast {
		return uniformGrid(a)
	}
	return join(steps(0.03, 0.36, 0.03), []float64{0.45, 0.6, 0.9})
}

// hot2Grid: at a 2% share e-cube saturates between 0.16 and 0.2, north-last
// between 0.2 and 0.24 (the earlier full-scale grid gave them four and five steady
// loads).
func hot2Grid(a alg) []float64 {
	if a.fast {
		return hotGrid(0.33)(a)
	}
	return join(steps(0.025, 0.35, 0.025), []float64{0.6, 0.9})
}

// packetGrid: with short packets e-cube saturates near 0.5 and NBC and Pn
// between 0.6 and 0.9 (uniform traffic).
func packetGrid(alg) []float64 { return join(steps(0.06, 0.66, 0.06), []float64{0.75, 0.9}) }

// localFine serves the other local regions, where e-cube and north-last saturate
// between 0.2 and 0.25 and NBC between 0.3 and 0.45.
func localFine(a alg) []float64 {
	if a.fast {
		return join(steps(0.05, 0.55, 0.05), []float64{0.6, 0.9})
	}
	return join(steps(0.03, 0.36, 0.03), []float64{0.45, 0.6, 0.9})
}

func coarse(alg) []float64 {
	return []float64{0.1, 0.2, 0.25, 0.3, 0.45, 0.6, 0.9}
}

func coarseHot(a alg) []float64 {
	return []float64{0.06, 0.12, 0.15, 0.18, 0.3, 0.6, 0.9}
}

func variants() []variant {
	hot := func(share float64, node int) map[string]any {
		return map[string]any{"traffic": "hotspot", "hot": strconv.Itoa(node), "hot-fraction": share}
	}
	vs := []variant{
		{part: "uniform", title: "uniform traffic", group: "main", set: map[string]any{"traffic": "uniform"}, dbar: hopsUniform, grid: uniformGrid, reps: 5, plots: true},
		{part: "hotspot-1", title: "hotspot traffic, 1% to node 0", group: "main", set: hot(0.01, 0), dbar: hopsUniform, grid: uniformGrid, reps: 5, plots: true},
		{part: "hotspot-2", title: "hotspot traffic, 2% to node 0", group: "main", set: hot(0.02, 0), dbar: hopsUniform, grid: hot2Grid, reps: 5, plots: true},
		{part: "hotspot-4", title: "hotspot traffic, 4% to node 0", group: "main", set: hot(0.04, 0), dbar: hopsUniform, grid: hotGrid(0.18), reps: 5, plots: true},
		{part: "local-7x7", title: "local traffic, 7x7 square", group: "main", set: map[string]any{"traffic": "localsq", "radius": 3}, dbar: hops7x7, grid: localGrid, reps: 5, plots: true},
		// where the hot node sits: (8,8), as far from the wrap links as can be
		{part: "hotspot-1-at136", title: "hotspot traffic, 1% to node (8,8)", group: "hotnode", set: hot(0.01, 136), dbar: hopsUniform, grid: uniformGrid, reps: 3},
		{part: "hotspot-4-at136", title: "hotspot traffic, 4% to node (8,8)", group: "hotnode", set: hot(0.04, 136), dbar: hopsUniform, grid: hotGrid(0.18), reps: 3},
		// the local region's shape
		{part: "local-diamond", title: "local traffic, diamond of radius 3", group: "local", set: map[string]any{"traffic": "local", "radius": 3}, dbar: hopsDiamond, grid: localFine, reps: 3},
		{part: "local-5x5", title: "local traffic, 5x5 square", group: "local", set: map[string]any{"traffic": "localsq", "radius": 2}, dbar: hops5x5, grid: localFine, reps: 3},
		// the paper's packet-switching probe (its section on Pn's low throughput):
		// Pn against NBC and e-cube with short packets on uniform traffic. 1-flit
		// packets: every flit is a head, so a packet holds one buffer slot and no
		// channel while it waits, as in store-and-forward switching; 4-flit
		// packets fill a VC buffer exactly (virtual cut-through). The copy lost
		// the packets' length.
		{part: "packet", title: "uniform traffic, 1-flit packets", group: "packet", set: map[string]any{"traffic": "uniform", "flits": 1}, dbar: hopsUniform, grid: packetGrid, algs: []string{"dor", "nbc", "pn"}, reps: 5, plots: true},
		{part: "packet-4", title: "uniform traffic, 4-flit packets", group: "packet", set: map[string]any{"traffic": "uniform", "flits": 4}, dbar: hopsUniform, grid: packetGrid, algs: []string{"dor", "nbc", "pn"}, reps: 3, plots: true},
		// Pn at the paper's count, 4 VCs: refuted, run unsafe to see whether
		// it deadlocks (docs/seed003.md)
		// the paper's check of its simulator: e-cube's normalised throughput on the
		// 16x16 mesh (normalised by the bisection) and on the torus
		{part: "ecube-mesh", title: "uniform traffic, 16x16 mesh, e-cube", group: "mesh", set: map[string]any{"traffic": "uniform", "topology": "mesh:16x16"}, algs: []string{"dor"}, reps: 3,
			rates: []float64{0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, 0.12, 0.15}},
		{part: "pn4", title: "uniform traffic, Pn with 4 VCs", group: "pn4", set: map[string]any{"traffic": "uniform", "unsafe": true}, dbar: hopsUniform, grid: func(alg) []float64 { return []float64{0.1, 0.2, 0.3} }, algs: []string{"pn2n"}, reps: 3},
	}
	for _, p := range []struct {
		part, title string
		set         map[string]any
		dbar        float64
		grid        func(alg) []float64
	}{
		{"uniform", "uniform traffic", map[string]any{"traffic": "uniform"}, hopsUniform, fineGrid},
		{"hotspot-4", "hotspot 4%", hot(0.04, 0), hopsUniform, hotGrid(0.18)},
		{"local-7x7", "local 7x7", map[string]any{"traffic": "localsq", "radius": 3}, hops7x7, localFine},
	} {
		with := func(kv ...any) map[string]any {
			m := map[string]any{}
			for k, v := range p.set {
				m[k] = v
			}
			for i := 0; i < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		// congestion control: the per-class limit's value, none, and wormlab's
		// earlier per-source reading
		for _, c := range []struct {
			name, title string
			set         []any
		}{
			{"class1", "class limit 1", []any{"class-limit", 1}},
			{"class4", "class limit 4", []any{"class-limit", 4}},
			{"nocc", "no congestion control", []any{"class-limit", 0}},
			{"source4", "per-source limit 4", []any{"class-limit", 0, "inject-limit", 4}},
		} {
			if p.part != "uniform" && c.name != "class1" && c.name != "nocc" {
				continue
			}
			vs = append(vs, variant{part: p.part + "-" + c.name, title: p.title + ", " + c.title, group: "limit", set: with(c.set...), dbar: p.dbar, grid: p.grid, reps: 3})
		}
		if p.part == "uniform" {
			for _, l := range []int{10, 40} {
				vs = append(vs, variant{part: fmt.Sprintf("%s-flits%d", p.part, l), title: fmt.Sprintf("%s, %d-flit messages", p.title, l), group: "length", set: with("flits", l), dbar: p.dbar, grid: p.grid, reps: 3})
			}
			for _, b := range []int{2, 8} {
				vs = append(vs, variant{part: fmt.Sprintf("%s-buf%d", p.part, b), title: fmt.Sprintf("%s, %d-flit buffers", p.title, b), group: "buffer", set: with("buf", b), dbar: p.dbar, grid: p.grid, reps: 3})
			}
		}
	}
	return vs
}

// within keeps the loads of grid a node can offer, at most one flit per cycle (rho
// at most dbar/4: 0.875 for the 7x7 square, 0.625 for the 5x5 square, 0.583 for the
// diamond), and puts that most in place of those beyond it.
func within(grid []float64, dbar float64) []float64 {
	top := math.Floor(dbar/4*1000) / 1000
	var out []float64
	for _, rho := range grid {
		if rho <= top {
			out = append(out, rho)
		} else if len(out) == 0 || out[len(out)-1] < top {
			out = append(out, top)
		}
	}
	return out
}

// rateOf is the injection rate (flits/node/cycle) of offered channel utilisation
// rho: rho = rate x mean hops / (2n) with 2n = 4 channels out of a node.
func rateOf(rho, dbar float64) float64 { return math.Round(rho*4/dbar*1e9) / 1e9 }

func (v variant) algsUsed() []alg {
	if v.algs == nil {
		return algs
	}
	var out []alg
	for _, n := range v.algs {
		if n == "pn2n" {
			out = append(out, alg{"pn2n", keys[6], 4, false})
			continue
		}
		for _, a := range algs {
			if a.name == n {
				out = append(out, a)
			}
		}
	}
	return out
}

// parts are the sweep specs: one per variant, its points the (routing, load) cases.
func parts(scale string) []study.Part {
	var ps []study.Part
	for _, v := range variants() {
		if scale == "test" && v.group != "main" {
			continue
		}
		if v.grid == nil {
			v.grid = func(alg) []float64 { return nil }
		}
		params := base(scale)
		for k, x := range v.set {
			params[k] = x
		}
		reps := v.reps
		var cases []study.Case
		for _, a := range v.algsUsed() {
			if scale == "reduced" && v.group != "main" && v.algs == nil && a.fast && a.name != "nbc" {
				continue // positive- and negative-hop in the main parts only
			}
			grid := v.grid(a)
			if scale == "reduced" && len(grid) > 0 {
				grid, reps = reducedGrid(v, a), 3
			}
			if scale == "test" && len(grid) > 0 {
				grid = []float64{grid[3], grid[len(grid)-1]} // with the full scale's seeds
			}
			for _, rho := range within(grid, v.dbar) {
				cases = append(cases, study.Case{Name: fmt.Sprintf("%s@%g", a.name, rho),
					Params: map[string]any{"routing": a.name, "vcs": a.vcs, "rate": rateOf(rho, v.dbar)}})
			}
			for _, r := range v.rates {
				cases = append(cases, study.Case{Name: fmt.Sprintf("%s@rate=%g", a.name, r),
					Params: map[string]any{"routing": a.name, "vcs": a.vcs, "rate": r}})
			}
		}
		ps = append(ps, study.Part{Name: v.part, Spec: study.Spec{Command: "sim", Seed: 3, Replications: reps,
			Timeout: "30m", Params: params, Axes: map[string]any{"point": cases}}})
	}
	return ps
}

// reducedGrid is the loads of a part at the reduced scale (3 seeds a point): seven,
// the coarse grid (or the hotspot's, below its node's cap and past it), where the
// full scale has eleven to fourteen. The parts outside the main ones run e-cube,
// north-last, NBC and Pn only at that scale.
func reducedGrid(v variant, a alg) []float64 {
	switch v.part {
	case "hotspot-4", "hotspot-4-at136", "hotspot-4-class1", "hotspot-4-nocc":
		return coarseHot(a)
	case "hotspot-2":
		return []float64{0.1, 0.2, 0.25, 0.3, 0.35, 0.6, 0.9}
	case "pn4":
		return v.grid(a)
	case "packet", "packet-4":
		return []float64{0.12, 0.3, 0.48, 0.6, 0.75, 0.9}
	}
	return coarse(a)
}

func main() {
	study.Main(study.Program{Name: "seed003", Scales: []string{"full", "reduced", "test"},
		ScaleHelp: "full (the paper's 16x16 torus, 11 to 16 loads a series, 3-5 seeds a point), reduced (the same network and runs, seven loads and 3 seeds a part), test (two loads of each main series of the full scale, with its seeds)",
		Parts:     parts, Fields: fields, Report: func(_ context.Context, dir string) error { return Report(dir) }})
}

// point is one (variant, routing, load) over its seeds.
type point struct {
	rho              float64
	util, acc        study.Est // achieved channel utilisation, accepted flits/node/cycle
	lat, net         study.Est // latency (steady seeds only), network latency
	steady, seeds    int
	failed           []string
	utilBySeed       map[int]float64
	accBySeed        map[int]float64
	saturatedReasons []string
}

// series is one routing in one variant.
type series struct {
	alg    string
	points []point
	peak   study.Est // per seed the largest achieved utilisation, over seeds
	last   point     // the highest offered load
	steady int       // points below saturation: every seed steady
}

// fields are the values the report reads of a sim point.
var fields = []string{"util_mean", "accepted", "latency", "net_latency"}

func collect(pts []study.Point) map[string]map[string]*series {
	vs := map[string]variant{}
	for _, v := range variants() {
		vs[v.part] = v
	}
	out := map[string]map[string]*series{}
	for _, pt := range pts {
		v := vs[pt.Part]
		if out[pt.Part] == nil {
			out[pt.Part] = map[string]*series{}
		}
		name := pt.Params["routing"]
		s := out[pt.Part][name]
		if s == nil {
			s = &series{alg: name}
			out[pt.Part][name] = s
		}
		p := point{rho: math.Round(pt.P("rate")*v.dbar/4*1e6) / 1e6, utilBySeed: map[int]float64{}, accBySeed: map[int]float64{}}
		var lat []float64
		for _, o := range pt.Obs {
			p.seeds++
			if o.Failed != "" {
				p.failed = append(p.failed, o.Failed)
				continue
			}
			if u, ok := o.Get("util_mean"); ok {
				p.utilBySeed[o.Rep] = u
			}
			if a, ok := o.Get("accepted"); ok {
				p.accBySeed[o.Rep] = a
			}
			if l, ok := o.Get("latency"); ok {
				lat = append(lat, l)
				p.steady++
			} else if o.Reason != "" {
				p.saturatedReasons = append(p.saturatedReasons, o.Reason)
			}
		}
		p.util, p.acc, p.net = pt.Est("util_mean"), pt.Est("accepted"), pt.Est("net_latency")
		if p.steady == p.seeds && p.seeds > 0 {
			p.lat = study.MeanCI(lat)
		}
		s.points = append(s.points, p)
	}
	for _, m := range out {
		for _, s := range m {
			sort.Slice(s.points, func(i, j int) bool { return s.points[i].rho < s.points[j].rho })
			peaks := map[int]float64{}
			for _, p := range s.points {
				for rep, u := range p.utilBySeed {
					peaks[rep] = math.Max(peaks[rep], u)
				}
			}
			var pk []float64
			for _, rep := range study.Keys(intKeys(peaks)) {
				pk = append(pk, peaks[atoi(rep)])
			}
			s.peak = study.MeanCI(pk)
			s.last = s.points[len(s.points)-1]
			for _, p := range s.points {
				if p.steady == p.seeds && p.seeds > 0 {
					s.steady++
				}
			}
		}
	}
	return out
}

func intKeys(m map[int]float64) map[string]float64 {
	o := map[string]float64{}
	for k, v := range m {
		o[strconv.Itoa(k)] = v
	}
	return o
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// Figure is one figure the doc states: a name and its estimate.
type Figure struct {
	Mean float64 `json:"mean"`
	Half float64 `json:"half"`
	N    int     `json:"n"`
}

// Report writes summary.md, figures.json and the SVG figures of the points in
// dir/points.jsonl.gz into dir.
func Report(dir string) error {
	pts, err := study.ReadPoints(dir)
	if err != nil {
		return err
	}
	data := collect(pts)
	figs := map[string]Figure{}
	put := func(name string, e study.Est) {
		if e.N > 0 && !math.IsNaN(e.Mean) {
			figs[name] = Figure{e.Mean, e.Half, e.N}
		}
	}
	cpu, err := study.ReadCPU(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(Summary(data, pts, cpu, put))
	for _, v := range variants() {
		if !v.plots || data[v.part] == nil {
			continue
		}
		if err := plots(dir, v, data[v.part]); err != nil {
			return err
		}
	}
	if err := study.WriteFile(dir, "summary.md", []byte(b.String())); err != nil {
		return err
	}
	js, err := json.MarshalIndent(figs, "", " ")
	if err != nil {
		return err
	}
	return study.WriteFile(dir, "figures.json", append(js, '\n'))
}

func ordered(m map[string]*series) []*series {
	var out []*series
	for _, k := range []string{"dor", "northlast", "poshop", "neghop", "nbc", "pn", "pn2n"} {
		if s, ok := m[k]; ok {
			out = append(out, s)
		}
	}
	return out
}

func plots(dir string, v variant, m map[string]*series) error {
	title := "seed 003, 16x16 torus, " + v.title
	x := "offered channel utilisation (fraction of capacity)"
	var tput, lat, net []study.Curve
	for _, s := range ordered(m) {
		c := study.Curve{Name: labelOf(s.alg)}
		l := study.Curve{Name: labelOf(s.alg)}
		n := study.Curve{Name: labelOf(s.alg)}
		for _, p := range s.points {
			c.X, c.Y = append(c.X, p.rho), append(c.Y, p.util)
			n.X, n.Y = append(n.X, p.rho), append(n.Y, p.net)
			if p.lat.N > 0 {
				l.X, l.Y = append(l.X, p.rho), append(l.Y, p.lat)
			} else {
				l.Marks = append(l.Marks, p.rho)
			}
		}
		tput, lat, net = append(tput, c), append(lat, l), append(net, n)
	}
	if err := study.Plot(dir, v.part+"-throughput.svg", title, x, "achieved channel utilisation (fraction of capacity)", keys, tput, false); err != nil {
		return err
	}
	if err := study.Plot(dir, v.part+"-latency.svg", title, x, "latency, generation to delivery (cycles)", keys, lat, true); err != nil {
		return err
	}
	return study.Plot(dir, v.part+"-netlatency.svg", title, x, "network latency, source queueing excluded (cycles)", keys, net, true)
}
