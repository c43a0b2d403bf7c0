// Command adversary runs issue 20's measurements of the adversary (package
// lower/adversary) and draws their figures:
//
//   - reach-pP: from random starts of two worms, on the levelled network of the
//     repaired prime construction's shape (width p, 2p + 2 levels, complete layers,
//     L = 2p + 1), how much CPU time the search needs to reach the construction's
//     opt/cd (seed 002, section 5, scored by the same objective), five seeds each,
//     with at most 10 minutes on 2 cores (1200 CPU-seconds, both workers);
//   - from-pP: from the construction itself, on its own network;
//   - cld-p3: instances beating the construction on opt/(c_L + d - 1), each proven
//     optimal with a certificate that certify.Check accepts;
//   - butterfly-*, mesh-*: the hardest opt/lower and greedy/opt per size;
//   - smallest-gap: the smallest instance (worms first) whose optimum exceeds every
//     lower bound wormlab computes (opt/lower > 1).
//
// Usage: go run ./experiments/adversary [-spec FILE] [-only G1,G2] [-quick] OUTDIR
//
// spec.json is issue 20's plan (1200 CPU-seconds a reach run); spec-short.json is
// the run committed in results/ (go run ./experiments/adversary -spec
// experiments/adversary/spec-short.json experiments/adversary/results), cut to
// what one session on a shared 2-core machine allowed. -only none redraws the
// figures and summary from the records without running anything.
//
// It writes OUTDIR/results.jsonl (one record per run; a rerun skips the runs
// recorded, so an interrupted run resumes), OUTDIR/traces/RUN.jsonl (each search's
// progress trace), OUTDIR/instances/RUN.json (each best instance), OUTDIR/certs/RUN
// (certificates), the figures OUTDIR/*.svg and OUTDIR/summary.md, the tables
// docs/adversary.md quotes. -quick bounds every run by 40 moves per chain (no CPU
// budget), one seed and one network per group: what the test runs. The searches
// run one at a time; measure them on a quiet machine or read their CPU columns.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/internal/gctune"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/lower/adversary/corpus"
	"github.com/wormlab/wormlab/lower/objective"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Spec is spec.json.
type Spec struct {
	About  string  `json:"about"`
	Groups []Group `json:"groups"`
}

// Group is a set of runs: one per network (Topology or Topologies, or the
// construction of FromPrime), seed and, for a scan, worm limit.
type Group struct {
	Name       string   `json:"name"`
	Topology   string   `json:"topology"`
	Topologies []string `json:"topologies"`
	FromPrime  int      `json:"from_prime"`
	// Embed starts from the construction laid on Topology (a levelled network of
	// its shape with complete layers) instead of its own network.
	Embed           bool   `json:"embed"`
	Flits           string `json:"flits"`
	Messages        int    `json:"messages"`
	MaxMessages     int    `json:"max_messages"`
	MaxMessagesScan []int  `json:"max_messages_scan"`
	Objective       string `json:"objective"`
	Strategy        string `json:"strategy"`
	// Ranking orders candidates of equal ratio ("": the objective's default).
	Ranking string   `json:"ranking"`
	Workers int      `json:"workers"`
	CPU     string   `json:"cpu"`
	Seeds   []uint64 `json:"seeds"`
	// Prime names the construction the runs are measured against; Stop ends a run
	// when it reaches it. Certify writes and checks a certificate of each best.
	Prime   int  `json:"prime"`
	Stop    bool `json:"stop"`
	Certify bool `json:"certify"`
}

// Record is one run.
type Record struct {
	Run       string `json:"run"`
	Group     string `json:"group"`
	Network   string `json:"network"`
	Objective string `json:"objective"`
	Strategy  string `json:"strategy"`
	Seed      uint64 `json:"seed"`
	Workers   int    `json:"workers"`
	MaxWorms  int    `json:"max_worms"`
	// CPUBudget is the budget in CPU seconds (0: a move limit, -quick).
	CPUBudget float64 `json:"cpu_budget"`
	// Target is the construction's ratio under the objective (0 when none).
	TargetNum int     `json:"target_num,omitempty"`
	TargetDen int     `json:"target_den,omitempty"`
	Target    float64 `json:"target,omitempty"`
	// The best found, its sides and measures.
	Num, Den        adversary.Value
	Ratio           float64 `json:"ratio"`
	Exact           bool    `json:"exact"`
	Proof           string  `json:"proof,omitempty"`
	Worms, C, CL, D int
	// Reached: the best reached the target (>=); Beat: it exceeded it. ReachCPU
	// and ReachWall are the CPU and wall seconds when the target was first reached
	// (by the best of all chains), -1 when it was not.
	Reached   bool    `json:"reached"`
	Beat      bool    `json:"beat"`
	ReachCPU  float64 `json:"reach_cpu"`
	ReachWall float64 `json:"reach_wall"`
	// CPU and Wall seconds of the whole run; evaluations and moves over chains.
	CPU         float64 `json:"cpu"`
	Wall        float64 `json:"wall"`
	Evaluations int     `json:"evaluations"`
	Moves       int     `json:"moves"`
	// Certificate: its kind as certify writes it, and whether certify.Check accepts it.
	Certificate string `json:"certificate,omitempty"`
	Verified    bool   `json:"verified,omitempty"`
	// Load is the machine's one-minute load average at the start of the run.
	Load float64 `json:"load"`
}

func main() {
	specPath := flag.String("spec", "experiments/adversary/spec.json", "the runs")
	only := flag.String("only", "", "run only these groups (comma-separated)")
	quick := flag.Bool("quick", false, "40 moves per chain, one seed and one network per group")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./experiments/adversary [-spec FILE] [-only G1,G2] [-quick] OUTDIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*specPath, flag.Arg(0), *only, *quick, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "adversary experiment:", err)
		os.Exit(1)
	}
}

func run(specPath, out, only string, quick bool, log io.Writer) error {
	data, err := os.ReadFile(specPath)
	if err != nil {
		return err
	}
	var spec Spec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&spec); err != nil {
		return fmt.Errorf("%s: %v", specPath, err)
	}
	for _, d := range []string{"traces", "instances", "certs"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			return err
		}
	}
	resultsPath := filepath.Join(out, "results.jsonl")
	done, err := readResults(resultsPath)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range done {
		seen[r.Run] = true
	}
	f, err := os.OpenFile(resultsPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	want := map[string]bool{}
	for _, g := range strings.Split(only, ",") {
		if g != "" {
			want[g] = true
		}
	}
	for _, g := range spec.Groups {
		if len(want) > 0 && !want[g.Name] {
			continue
		}
		nets := g.Topologies
		if g.Topology != "" {
			nets = []string{g.Topology}
		}
		if g.FromPrime > 0 && !g.Embed {
			nets = []string{fmt.Sprintf("prime-p%d", g.FromPrime)}
		}
		limits := g.MaxMessagesScan
		if len(limits) == 0 {
			limits = []int{g.MaxMessages}
		}
		seeds := g.Seeds
		if quick {
			nets, seeds, limits = nets[:1], seeds[:1], limits[:1]
		}
	nets:
		for _, net := range nets {
			for _, maxw := range limits {
				gapFound := false
				for _, seed := range seeds {
					name := fmt.Sprintf("%s-%s-w%d-s%d", g.Name, strings.ReplaceAll(net, ":", ""), maxw, seed)
					if seen[name] {
						continue
					}
					rec, err := runOne(g, net, maxw, seed, name, out, quick, log)
					if err != nil {
						return fmt.Errorf("%s: %v", name, err)
					}
					line, _ := json.Marshal(rec)
					if _, err := f.Write(append(line, '\n')); err != nil {
						return err
					}
					done = append(done, *rec)
					gapFound = gapFound || rec.Ratio > 1
				}
				if len(g.MaxMessagesScan) > 0 && gapFound {
					continue nets // the smallest worm limit with a gap is found
				}
			}
		}
	}
	return report(done, out)
}

func readResults(path string) ([]Record, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rs []Record
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// primeTarget is the repaired construction for p with L = 2p + 1, and its ratio
// under the objective.
func primeTarget(p int, r objective.Ratio) (*model.Instance, adversary.Score, error) {
	in, err := lower.Prime(p, 2*p+1, true)
	if err != nil {
		return nil, adversary.Score{}, err
	}
	sc, err := r.Score(context.Background(), in, 0)
	return in, sc, err
}

func runOne(g Group, net string, maxw int, seed uint64, name, out string, quick bool, log io.Writer) (*Record, error) {
	modelName := objective.DefaultModel(g.Objective)
	r, err := objective.Lookup(g.Objective, modelName, 2*time.Second)
	if err != nil {
		return nil, err
	}
	st, err := adversary.LookupStrategy(g.Strategy)
	if err != nil {
		return nil, err
	}
	rankName := g.Ranking
	if rankName == "" {
		rankName = objective.DefaultRanking(g.Objective)
	}
	ranking, err := adversary.LookupRanking(rankName)
	if err != nil {
		return nil, err
	}
	rec := &Record{Run: name, Group: g.Name, Network: net, Objective: g.Objective, Strategy: g.Strategy, Seed: seed,
		Workers: g.Workers, MaxWorms: maxw, ReachCPU: -1, ReachWall: -1, Load: loadAverage()}
	var sp *adversary.Space
	var start *adversary.Set
	if g.FromPrime > 0 && g.Embed {
		in, _, err := primeTarget(g.FromPrime, r)
		if err != nil {
			return nil, err
		}
		top, err := lower.ParseNetwork(net, seed)
		if err != nil {
			return nil, err
		}
		sp = adversary.TopologySpace(top, net)
		if start, err = embed(in, sp.Net, g.FromPrime); err != nil {
			return nil, err
		}
		sp.MinL, sp.MaxL = 2*g.FromPrime+1, 2*g.FromPrime+1
		sp.MinWorms, sp.MaxWorms = 1, max(maxw, 2*len(in.Messages))
	} else if g.FromPrime > 0 {
		in, _, err := primeTarget(g.FromPrime, r)
		if err != nil {
			return nil, err
		}
		sp = adversary.InstanceSpace(in)
		start = adversary.FromInstance(in)
		sp.MinL, sp.MaxL = 2*g.FromPrime+1, 2*g.FromPrime+1
		sp.MinWorms, sp.MaxWorms = 1, max(maxw, 2*len(in.Messages))
	} else {
		top, err := lower.ParseNetwork(net, seed)
		if err != nil {
			return nil, err
		}
		sp = adversary.TopologySpace(top, net)
		var lo, hi int
		if _, err := fmt.Sscanf(strings.Replace(g.Flits, ":", " ", 1)+" ", "%d %d", &lo, &hi); err != nil {
			hi = lo
		}
		sp.MinL, sp.MaxL = lo, max(lo, hi)
		sp.MinWorms, sp.MaxWorms = 1, maxw
	}
	rec.MaxWorms = sp.MaxWorms
	cfg := adversary.Config{Space: sp, Objective: r, Strategy: st, Ranking: ranking, Start: start, Messages: max(g.Messages, 1),
		Name: name, Seed: seed, Workers: g.Workers, TraceEvery: 5 * time.Second}
	if g.Prime > 0 {
		_, sc, err := primeTarget(g.Prime, r)
		if err != nil {
			return nil, err
		}
		rec.TargetNum, rec.TargetDen, rec.Target = sc.Num.V, sc.Den.V, sc.Ratio()
		if g.Stop {
			cfg.Stop = rec.Target
		}
	}
	if len(g.MaxMessagesScan) > 0 {
		cfg.Stop = math.Nextafter(1, 2) // any gap
	}
	if quick {
		cfg.Iterations = 40
	} else {
		d, err := time.ParseDuration(g.CPU)
		if err != nil {
			return nil, fmt.Errorf("cpu %q: %v", g.CPU, err)
		}
		cfg.CPU = d
		rec.CPUBudget = d.Seconds()
	}
	var trace bytes.Buffer
	enc := json.NewEncoder(&trace)
	cfg.Trace = func(row adversary.TraceRow) {
		enc.Encode(row)
		if rec.Target > 0 && rec.ReachCPU < 0 && row.Best >= rec.Target {
			rec.ReachCPU, rec.ReachWall = row.CPU, row.T
		}
	}
	fmt.Fprintf(log, "%s: %s ...", name, time.Now().Format("15:04:05"))
	defer gctune.Tune()() // as wormlab adversary
	res, err := adversary.Search(context.Background(), cfg)
	if err != nil {
		return nil, err
	}
	best := sp.Instance(name, res.Best.Set)
	sc := res.Best.Score
	if sc.Schedule != nil {
		if err := verify.Schedule(best, sc.Schedule); err != nil {
			return nil, fmt.Errorf("the schedule behind the numerator is illegal: %v", err)
		}
	}
	ms := best.Measure()
	rec.Num, rec.Den, rec.Ratio, rec.Exact = sc.Num, sc.Den, sc.Ratio(), sc.Exact()
	rec.Worms, rec.C, rec.CL, rec.D = len(best.Messages), ms.C, ms.CL, ms.D
	if sc.Opt != nil {
		rec.Proof = sc.Opt.Source
	}
	if rec.Target > 0 {
		rec.Reached = rec.ReachCPU >= 0
		rec.Beat = rec.Ratio > rec.Target
	}
	rec.CPU, rec.Wall = res.CPU.Seconds(), res.Elapsed.Seconds()
	rec.Evaluations, rec.Moves = res.Evaluations, res.Moves
	rep := res.Report(&cfg, g.Objective, best)
	best.SetExtra("adversary", rep.Extra())
	var ib bytes.Buffer
	if err := model.WriteInstance(&ib, best); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(out, "instances", name+".json"), ib.Bytes()); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(out, "traces", name+".jsonl"), trace.Bytes()); err != nil {
		return nil, err
	}
	if g.Certify && sc.Opt != nil && rec.Exact {
		dir := filepath.Join(out, "certs", name)
		if rec.Certificate, err = corpus.Certify(context.Background(), dir, best, sc.Opt); err != nil {
			return nil, err
		}
		cr, err := certify.Check(dir)
		if err != nil {
			return nil, err
		}
		rec.Verified = cr.Verified
	}
	fmt.Fprintf(log, " %d/%d = %.4f (target %.4f) in %.0f CPU-s\n", rec.Num.V, rec.Den.V, rec.Ratio, rec.Target, rec.CPU)
	return rec, nil
}

// embed lays the repaired construction for p on a levelled network of width p
// and 2p + 2 levels whose layers are complete (node l*p + row is row row of level
// l): worm i keeps its rows (lower.PrimeRows), so its edges are those of the
// construction's paths.
func embed(in *model.Instance, net *model.Network, p int) (*adversary.Set, error) {
	s := &adversary.Set{}
	for i, m := range in.Messages {
		rows := lower.PrimeRows(p, i, true)
		w := adversary.Worm{Src: rows[0], Dst: (len(rows)-1)*p + rows[len(rows)-1], L: m.L}
		for l := 0; l+1 < len(rows); l++ {
			es := net.EdgesBetween(l*p+rows[l], (l+1)*p+rows[l+1])
			if len(es) == 0 {
				return nil, fmt.Errorf("embed: the network has no edge from level %d row %d to row %d", l, rows[l], rows[l+1])
			}
			w.Path = append(w.Path, es[0])
		}
		s.Worms = append(s.Worms, w)
	}
	return s, nil
}

// loadAverage is the one-minute load average (0 where /proc/loadavg is missing).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	var l float64
	fmt.Sscan(string(data), &l)
	return l
}

// grid is the CPU seconds at which the traces are sampled for the figures.
var grid = []float64{0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 1200}

// bestAt is the best ratio of all chains of a run by CPU second t (0 before any).
func bestAt(rows []adversary.TraceRow, t float64) float64 {
	b := 0.0
	for _, r := range rows {
		if r.CPU <= t {
			b = max(b, r.Best)
		}
	}
	return b
}

func readTrace(path string) ([]adversary.TraceRow, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []adversary.TraceRow
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r adversary.TraceRow
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// report draws the figures and writes summary.md from the records.
func report(rs []Record, out string) error {
	var byTime, byTimeNorm, bySize, bySeed bytes.Buffer
	for _, r := range rs {
		if r.Target == 0 {
			continue
		}
		rows, err := readTrace(filepath.Join(out, "traces", r.Run+".jsonl"))
		if err != nil {
			return err
		}
		for _, t := range grid {
			if r.CPUBudget > 0 && t > r.CPUBudget {
				break
			}
			b := bestAt(rows, t)
			if b == 0 {
				continue
			}
			if strings.HasPrefix(r.Group, "reach-") {
				fmt.Fprintf(&byTimeNorm, `{"cpu":%g,"ratio":%g,"series":%q}`+"\n", t, b/r.Target, "p = "+strings.TrimPrefix(r.Group, "reach-p"))
				fmt.Fprintf(&bySeed, `{"group":%q,"cpu":%g,"ratio":%g,"series":"seed %d"}`+"\n", r.Group, t, b, r.Seed)
				fmt.Fprintf(&bySeed, `{"group":%q,"cpu":%g,"ratio":%g,"series":"the construction"}`+"\n", r.Group, t, r.Target)
			}
			fmt.Fprintf(&byTime, `{"group":%q,"cpu":%g,"ratio":%g}`+"\n", r.Group, t, b)
		}
		p := 0
		fmt.Sscanf(strings.TrimLeft(r.Group, "abcdefghijklmnopqrstuvwxyz-"), "%d", &p)
		if p > 0 && r.Objective == "opt/cd" && !strings.HasPrefix(r.Group, "reach-") {
			series := "search from random starts"
			switch {
			case strings.HasPrefix(r.Group, "from-"):
				series = "from the construction, its network"
			case strings.HasPrefix(r.Group, "embedded-"):
				series = "from the construction, levelled network"
			}
			fmt.Fprintf(&bySize, `{"p":%d,"ratio":%g,"series":%q}`+"\n", p, r.Ratio, series)
			fmt.Fprintf(&bySize, `{"p":%d,"ratio":%g,"series":"the construction"}`+"\n", p, r.Target)
		}
	}
	figs := []struct {
		file string
		data *bytes.Buffer
		o    figure.Options
		x, y string
	}{
		{"reach.svg", &byTimeNorm, figure.Options{X: "cpu", Y: "ratio", Series: "series", LogX: true,
			Title: "opt/cd from random starts / the construction's (mean over seeds, 95% interval)"},
			"CPU seconds (both workers)", "best ratio / the construction's"},
		{"size.svg", &bySize, figure.Options{X: "p", Y: "ratio", Series: "series",
			Title: "opt/cd: best found against p (mean over seeds, 95% interval)"}, "p", "opt / max(c_L, d + L - 1)"},
	}
	for _, p := range []string{"2", "3", "5"} {
		figs = append(figs, struct {
			file string
			data *bytes.Buffer
			o    figure.Options
			x, y string
		}{"reach-p" + p + ".svg", &bySeed, figure.Options{X: "cpu", Y: "ratio", Series: "series", LogX: true,
			Where: map[string][]string{"group": {"reach-p" + p}},
			Title: "p = " + p + ": opt/cd from random starts, per seed"}, "CPU seconds (both workers)", "best opt / max(c_L, d + L - 1)"})
	}
	for _, f := range figs {
		if f.data.Len() == 0 {
			continue
		}
		rows, err := figure.ReadRows(bytes.NewReader(f.data.Bytes()))
		if err != nil {
			return err
		}
		fig, err := figure.Build(rows, f.o)
		if err != nil {
			if strings.Contains(err.Error(), "no rows") {
				continue
			}
			return fmt.Errorf("%s: %v", f.file, err)
		}
		fig.XLabel, fig.YLabel, fig.Legend = f.x, f.y, "bottom-right"
		var svg bytes.Buffer
		if err := figure.Draw(&svg, fig, "svg", figure.DefaultWidth, figure.DefaultHeight); err != nil {
			return err
		}
		if err := atomicfile.Write(filepath.Join(out, f.file), svg.Bytes()); err != nil {
			return err
		}
	}
	return atomicfile.Write(filepath.Join(out, "summary.md"), []byte(Summary(rs)))
}

// searched gives the cells of a search group's row: the best found per seed, how
// many seeds beat the construction, and the CPU seconds per seed.
func searched(rs []Record) (best string, beat int, cpu string) {
	var bests, cpus []string
	for _, r := range rs {
		if r.Beat {
			beat++
		}
		bests = append(bests, fmt.Sprintf("%d/%d (c = %d, %d worms)", r.Num.V, r.Den.V, r.C, r.Worms))
		cpus = append(cpus, fmt.Sprintf("%.0f", r.CPU))
	}
	return strings.Join(bests, ", "), beat, strings.Join(cpus, ", ")
}

// Summary renders the tables of summary.md (docs/adversary.md quotes them).
func Summary(rs []Record) string {
	var b strings.Builder
	groups := map[string][]Record{}
	var order []string
	for _, r := range rs {
		if _, ok := groups[r.Group]; !ok {
			order = append(order, r.Group)
		}
		groups[r.Group] = append(groups[r.Group], r)
	}
	sort.Strings(order)
	frac := func(n, d int) string { return fmt.Sprintf("%d/%d = %.4f", n, d, float64(n)/float64(d)) }

	b.WriteString(verdicts(groups))
	b.WriteString("\n## Reaching the construction from random starts (opt/cd)\n\n")
	b.WriteString("| p | network, L | the construction | seeds reaching it | CPU seconds to reach it, per seed | best found, per seed | load |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if !strings.HasPrefix(g, "reach-") {
			continue
		}
		rs := groups[g]
		reached := 0
		var cpu, best, load []string
		for _, r := range rs {
			if r.Reached {
				reached++
				cpu = append(cpu, fmt.Sprintf("%.2f", r.ReachCPU))
			} else {
				cpu = append(cpu, fmt.Sprintf("not in %.0f", r.CPU))
			}
			best = append(best, fmt.Sprintf("%d/%d", r.Num.V, r.Den.V))
			load = append(load, fmt.Sprintf("%.0f", r.Load))
		}
		r0 := rs[0]
		fmt.Fprintf(&b, "| %s | %s, %s | %s | %d of %d | %s | %s | %s |\n", strings.TrimPrefix(g, "reach-p"), r0.Network,
			lengthOf(r0), frac(r0.TargetNum, r0.TargetDen), reached, len(rs), strings.Join(cpu, ", "), strings.Join(best, ", "), strings.Join(load, ", "))
	}
	b.WriteString("\n## The hardest found from random starts (opt/cd, no stop)\n\n")
	b.WriteString("| p | the construction | best found, per seed | harder than the construction | CPU seconds per seed |\n| --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if !strings.HasPrefix(g, "hunt-") {
			continue
		}
		rs := groups[g]
		best, beat, cpu := searched(rs)
		fmt.Fprintf(&b, "| %s | %s | %s | %d of %d | %s |\n", strings.TrimPrefix(g, "hunt-p"), frac(rs[0].TargetNum, rs[0].TargetDen),
			best, beat, len(rs), cpu)
	}
	b.WriteString("\n## From the construction (opt/cd): on its own network (from) and laid on the levelled network of its shape (embedded)\n\n")
	b.WriteString("| start | p | the construction | best found, per seed | harder than the construction | CPU seconds per seed |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if !strings.HasPrefix(g, "from-") && !strings.HasPrefix(g, "embedded-") {
			continue
		}
		rs := groups[g]
		best, beat, cpu := searched(rs)
		kind, p, _ := strings.Cut(g, "-p")
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d of %d | %s |\n", kind, p, frac(rs[0].TargetNum, rs[0].TargetDen),
			best, beat, len(rs), cpu)
	}
	b.WriteString("\n## Beating the construction on opt/(c_L + d - 1), p = 3, with certificates\n\n")
	b.WriteString("| seed | best found | beats the construction | opt/(c_L + d) | worms, c | optimum proven by | certificate | certify.Check | CPU seconds |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if g != "cld-p3" {
			continue
		}
		for _, r := range groups[g] {
			fmt.Fprintf(&b, "| %d | %s | %v (the construction: %s) | %s (the construction: %s) | %d, %d | %s | %s | %v | %.0f |\n", r.Seed, frac(r.Num.V, r.Den.V),
				r.Beat, frac(r.TargetNum, r.TargetDen), frac(r.Num.V, r.Den.V+1), frac(r.TargetNum, r.TargetDen+1), r.Worms, r.C, r.Proof, r.Certificate, r.Verified, r.CPU)
		}
	}
	b.WriteString("\n## Butterflies and meshes: the hardest per size\n\n")
	b.WriteString("| objective | network | best over seeds | numerator | denominator | worms | per seed |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if !strings.HasPrefix(g, "butterfly-") && !strings.HasPrefix(g, "mesh-") {
			continue
		}
		byNet := map[string][]Record{}
		var nets []string
		for _, r := range groups[g] {
			if _, ok := byNet[r.Network]; !ok {
				nets = append(nets, r.Network)
			}
			byNet[r.Network] = append(byNet[r.Network], r)
		}
		for _, n := range nets {
			rs := byNet[n]
			best := rs[0]
			var per []string
			for _, r := range rs {
				if int64(r.Num.V)*int64(best.Den.V) > int64(best.Num.V)*int64(r.Den.V) {
					best = r
				}
				per = append(per, fmt.Sprintf("%.4f", r.Ratio))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %s |\n", best.Objective, n, frac(best.Num.V, best.Den.V),
				best.Num.How, best.Den.How, best.Worms, strings.Join(per, ", "))
		}
	}
	b.WriteString("\n## The smallest instance whose optimum exceeds every lower bound wormlab computes\n\n")
	b.WriteString("| network | most worms allowed | opt/lower found | numerator | denominator | worms |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, g := range order {
		if g != "smallest-gap" {
			continue
		}
		for _, r := range groups[g] {
			fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %d |\n", r.Network, r.MaxWorms, frac(r.Num.V, r.Den.V), r.Num.How, r.Den.How, r.Worms)
		}
	}
	return b.String()
}

func lengthOf(r Record) string {
	var p int
	fmt.Sscanf(strings.TrimPrefix(r.Group, "reach-p"), "%d", &p)
	return fmt.Sprintf("L = %d", 2*p+1)
}

// verdicts is the table of which constructions the search matched, beat or did
// not reach, per p, from the records: the random starts (reach-pP and hunt-pP),
// the starts from the construction (from-pP, embedded-pP) and, at p = 3, the
// objective opt/(c_L + d - 1) (cld-p3). A group is beaten when a run's best
// exceeds the construction's ratio (compared exactly), matched when a run reached
// it and none exceeded it, not reached otherwise; CPU seconds are those of the
// runs (to the first reach for reach-pP).
func verdicts(groups map[string][]Record) string {
	var b strings.Builder
	b.WriteString("## The constructions: matched, beaten or not reached\n\n")
	b.WriteString("| p | objective | start | the construction | runs reaching it | runs beating it | best found | its CPU seconds | verdict |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	rows := []struct {
		p, objective, start string
		groups              []string
	}{}
	for _, p := range []string{"2", "3", "5"} {
		rows = append(rows,
			struct {
				p, objective, start string
				groups              []string
			}{p, "opt/cd", "random", []string{"reach-p" + p, "hunt-p" + p}},
			struct {
				p, objective, start string
				groups              []string
			}{p, "opt/cd", "the construction", []string{"from-p" + p, "embedded-p" + p}})
		if p == "3" {
			rows = append(rows, struct {
				p, objective, start string
				groups              []string
			}{p, "opt/cl+d-1", "random", []string{"cld-p3"}})
		}
	}
	for _, row := range rows {
		var rs []Record
		for _, g := range row.groups {
			rs = append(rs, groups[g]...)
		}
		if len(rs) == 0 {
			continue
		}
		reached, beat := 0, 0
		best := rs[0]
		for _, r := range rs {
			// exactly: num/den against the construction's num/den
			cmp := int64(r.Num.V)*int64(r.TargetDen) - int64(r.TargetNum)*int64(r.Den.V)
			if cmp >= 0 {
				reached++
			}
			if cmp > 0 {
				beat++
			}
			if int64(r.Num.V)*int64(best.Den.V) > int64(best.Num.V)*int64(r.Den.V) {
				best = r
			}
		}
		verdict := "not reached"
		switch {
		case beat > 0:
			verdict = "beaten"
		case reached > 0:
			verdict = "matched"
		}
		cpu := fmt.Sprintf("%.1f", best.CPU)
		if best.ReachCPU >= 0 && best.Reached {
			cpu = fmt.Sprintf("%.2f to reach the construction, %.1f in all", best.ReachCPU, best.CPU)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d/%d = %.4f | %d of %d | %d of %d | %d/%d = %.4f (c = %d, %d worms; %s, seed %d) | %s | %s |\n",
			row.p, row.objective, row.start, best.TargetNum, best.TargetDen, best.Target, reached, len(rs), beat, len(rs),
			best.Num.V, best.Den.V, best.Ratio, best.C, best.Worms, best.Group, best.Seed, cpu, verdict)
	}
	return b.String()
}

// Finding is README's sentence on the search against the construction, from the
// records (reach-pP and hunt-pP for opt/cd, cld-p3 for opt/(c_L + d - 1)); the
// test checks that README.md says it.
func Finding(rs []Record) string {
	groups := map[string][]Record{}
	for _, r := range rs {
		groups[r.Group] = append(groups[r.Group], r)
	}
	frac := func(n, d int) string { return fmt.Sprintf("%d/%d = %.4f", n, d, float64(n)/float64(d)) }
	// exact comparison of two records' ratios
	above := func(a, b Record) bool { return int64(a.Num.V)*int64(b.Den.V) > int64(b.Num.V)*int64(a.Den.V) }
	var reach, slow, beat, match []string
	for _, p := range []string{"2", "3", "5"} {
		rs := groups["reach-p"+p]
		if len(rs) == 0 {
			continue
		}
		n, worst := 0, 0.0
		best := rs[0]
		for _, r := range append(rs, groups["hunt-p"+p]...) {
			if above(r, best) {
				best = r
			}
		}
		for _, r := range rs {
			if r.Reached {
				n++
				worst = max(worst, r.ReachCPU)
			}
		}
		reach = append(reach, fmt.Sprintf("%d of %d seeds at p = %s", n, len(rs), p))
		slow = append(slow, fmt.Sprintf("%.2f", worst))
		if best.Beat {
			beat = append(beat, fmt.Sprintf("p = %s (%s, %d worms at c = %d, against %s)", p, frac(best.Num.V, best.Den.V),
				best.Worms, best.C, frac(best.TargetNum, best.TargetDen)))
		} else {
			match = append(match, fmt.Sprintf("p = %s (%s)", p, frac(best.Num.V, best.Den.V)))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "From random starts of two worms, `wormlab adversary` reaches the repaired construction's "+
		"opt / max(c_L, d + L - 1) on the levelled network of its shape in %s "+
		"(the slowest seed within %s CPU-seconds, in that order)", strings.Join(reach, ", "), strings.Join(slow, ", "))
	if len(beat) > 0 {
		fmt.Fprintf(&b, ", beats it at %s", strings.Join(beat, " and "))
	}
	if len(match) > 0 {
		fmt.Fprintf(&b, " and only matches it at %s", strings.Join(match, " and "))
	}
	if cs := groups["cld-p3"]; len(cs) > 0 {
		n, certified := 0, 0
		best := cs[0]
		for _, r := range cs {
			if r.Beat {
				n++
			}
			if r.Verified {
				certified++
			}
			if above(r, best) {
				best = r
			}
		}
		fmt.Fprintf(&b, "; at p = 3 it beats it on opt / (c_L + d - 1) in %d of %d seeds, up to %s (%d worms at c = %d) against %s, "+
			"with %d of %d optima certified", n, len(cs), frac(best.Num.V, best.Den.V), best.Worms, best.C,
			frac(best.TargetNum, best.TargetDen), certified, len(cs))
	}
	b.WriteString(".")
	return b.String()
}
