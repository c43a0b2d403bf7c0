package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/wormlab/wormlab/fattree"
	"github.com/wormlab/wormlab/internal/plural"
)

func init() {
	register(&command{
		name:    "fattree",
		summary: "Greenberg and Oh's fat-tree study: STORE, WORM, UNIV, SPLIT with FP/RP/GP and FO/RR/FF",
		run:     runFatTree,
	})
}

func runFatTree(e *env) error {
	fs := newFlags(e, "fattree", "",
		"Routes --runs closed batches (every processor holds its packets at time 0) on the\n"+
			"butterfly fat-tree of --n processors (seed 000, section B) and prints the mean\n"+
			"maximum latency in flit-steps (the last tail's arrival) with its 99% interval and\n"+
			"the mean congestion c (--json: one object). Ctrl-C or --timeout stops it: the runs done\n"+
			"are printed, marked interrupted, and the exit status is 1. A study that would not fit\n"+
			"--max-memory is refused before it starts.")
	n := fs.Int("n", 64, "processors (a power of 4)")
	algo := fs.String("algo", "worm", "algorithm: "+strings.Join(fattree.AlgorithmNames(), ", "))
	path := fs.String("path", "rp", "path selection: "+strings.Join(fattree.PathNames(), ", "))
	scan := fs.String("scan", "rr", "input scan: "+strings.Join(fattree.ScanNames(), ", "))
	pattern := fs.String("pattern", "random", "pattern: "+strings.Join(fattree.PatternNames(), ", "))
	flits := fs.Int("flits", 16, "flits per packet L")
	queue := fs.Int("queue", 2, "WORM's input queue in flits q")
	storeQueue := fs.Int("store-queue", 1, "packets an input queue of STORE, UNIV and SPLIT holds")
	ghostHops := fs.Int("ghost-hops", 1, "univ-ghost: links a ghost crosses in a packet-step (1: as a packet; L: a ghost is one flit)")
	delay := fs.Int("delay", 1, "R: initial delays from [0, R-1] (STORE, SPLIT: packet-steps; WORM: units of L log2 N); UNIV priorities from [1, R] (1: [1, N])")
	overhead := fs.Int("overhead", 0, "SPLIT's addressing flits per independent flit")
	runs := fs.Int("runs", 10, "independent runs (seeds S .. S+runs-1)")
	seed := fs.Uint64("seed", 1, "random seed")
	jsonOut := fs.Bool("json", false, "print one JSON object")
	out := fs.String("o", "", "write the result to FILE")
	bounds := fs.Bool("bounds", false, "with --path fp: each run's FP instance's c, d, c_L and best lower bound (MODEL.md)")
	tables := fs.String("tables", "", "print Tables I and II (Markdown) from FILE, the JSON objects of earlier --json runs, and stop")
	optimum := fs.Duration("optimal", 0, "with --bounds: also the SAT optimum, at most this long per run (e.g. 60s)")
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M): a study that would not fit is refused before it starts")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit): the runs done are printed, exit 1")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	if *tables != "" {
		if err := unused(e, fs, "with --tables (it prints the tables of FILE)", "n", "algo", "path", "scan", "pattern", "flits", "queue", "store-queue",
			"ghost-hops", "delay", "overhead", "runs", "seed", "json", "bounds", "optimal", "max-memory", "timeout"); err != nil {
			return err
		}
		return fatTreeTables(e, *tables, *out)
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *delay < 1 || *delay > fattree.MaxFlits { // R = 0 ran as R = 1 without a word
		return usageError("--delay: %d outside 1..%d (1: no initial delay)", *delay, fattree.MaxFlits)
	}
	// flags the chosen algorithm does not read (--delay is every algorithm's R,
	// --scan and --path every algorithm's)
	if *algo != "split" {
		if err := unused(e, fs, "by --algo "+*algo+" (SPLIT's addressing flits)", "overhead"); err != nil {
			return err
		}
	}
	if *algo != "worm" {
		if err := unused(e, fs, "by --algo "+*algo+" (WORM's input queue)", "queue"); err != nil {
			return err
		}
	} else if err := unused(e, fs, "by --algo worm (the packet queues of STORE, UNIV and SPLIT)", "store-queue"); err != nil {
		return err
	}
	if *algo != "univ-ghost" {
		if err := unused(e, fs, "by --algo "+*algo+" (univ-ghost's ghosts)", "ghost-hops"); err != nil {
			return err
		}
	}
	if !*bounds {
		if err := unused(e, fs, "without --bounds", "optimal"); err != nil {
			return err
		}
	}
	cfg := fattree.Config{N: *n, Flits: *flits, Queue: *queue, StoreQueue: *storeQueue, GhostHops: *ghostHops, Delay: *delay, Overhead: *overhead, Runs: *runs, Seed: *seed}
	var err error
	if cfg.Algo, err = fattree.LookupAlgorithm(*algo); err != nil {
		return usageError("--algo: %v", err)
	}
	if cfg.Path, err = fattree.LookupPath(*path); err != nil {
		return usageError("--path: %v", err)
	}
	if cfg.Scan, err = fattree.LookupScan(*scan); err != nil {
		return usageError("--scan: %v", err)
	}
	if cfg.Pattern, err = fattree.LookupPattern(*pattern); err != nil {
		return usageError("--pattern: %v", err)
	}
	budget, restore := memory()
	defer restore()
	if need := fattree.TopologyBytes(*n); need > budget {
		return overBudget(fmt.Sprintf("the fat-tree of %d processors", *n), need, budget)
	}
	ft, err := cfg.Check()
	if err != nil {
		return usageError("--%v", err)
	}
	if need := cfg.Bytes(ft); need > budget {
		return overBudget(fmt.Sprintf("%s on %s with %d-flit packets", strings.ToUpper(*algo), ft, *flits), need, budget)
	}
	if *bounds && *path != "fp" {
		return usageError("--bounds: needs --path fp (only FP fixes the paths before routing)")
	}
	if *optimum < 0 {
		return usageError("--optimal: %v is negative", *optimum)
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	ctx, cancel := withTimeout(e, *timeout)
	defer cancel()
	var fbs []fattree.FPBounds
	var fbErr error
	if *bounds {
		cfg.Each = func(_ int, run *fattree.Run, _ fattree.Outcome) {
			fb, err := fattree.Bounds(ctx, run, *optimum > 0, *optimum)
			if err != nil && fbErr == nil {
				fbErr = err
			}
			fbs = append(fbs, fb)
		}
	}
	s, err := fattree.Study(ctx, cfg)
	if err != nil && ctx.Err() == nil {
		return negative("fattree: %v (no run finished)", err)
	}
	if s == nil {
		s = &fattree.Summary{N: *n}
	}
	if ctx.Err() != nil {
		s.Interrupted = true
	}
	if fbErr != nil && ctx.Err() == nil {
		return negative("fattree: bounds: %v", fbErr)
	}
	type result struct {
		Label   string `json:"label"`
		Algo    string `json:"algo"`
		Path    string `json:"path"`
		Scan    string `json:"scan"`
		Pattern string `json:"pattern"`
		Flits   int    `json:"flits"`
		Queue   int    `json:"queue"`
		Delay   int    `json:"delay"`
		Seed    uint64 `json:"seed"`
		*fattree.Summary
		Bounds *boundsMean `json:"fp_bounds,omitempty"`
	}
	label := strings.ToUpper(*algo + "-" + *path + "-" + *scan)
	if *overhead > 0 {
		label += fmt.Sprintf("+%d", *overhead)
	}
	if *delay > 1 {
		label += fmt.Sprintf(" R=%d", *delay)
	}
	r := result{label, *algo, *path, *scan, *pattern, *flits, *queue, *delay, *seed, s, meanBounds(fbs)}
	werr := writeOut(e, *out, func(w io.Writer) error {
		if *jsonOut {
			return writeJSON(w, r)
		}
		partial := ""
		if s.Interrupted {
			partial = fmt.Sprintf(" (%s after %d of %d runs)", stopReason(ctx), s.Runs, *runs)
			if s.Runs == 0 {
				_, err := fmt.Fprintf(w, "fattree:%d %s-%s-%s %s L=%d: %s before the first run ended\n", s.N, strings.ToUpper(*algo),
					strings.ToUpper(*path), strings.ToUpper(*scan), *pattern, *flits, stopReason(ctx))
				return err
			}
		}
		_, err := fmt.Fprintf(w, "fattree:%d %s-%s-%s %s L=%d: max latency %.1f ± %.1f (99%%, %d runs), congestion c %.2f, latency/c %.2f%s\n",
			s.N, strings.ToUpper(*algo), strings.ToUpper(*path), strings.ToUpper(*scan), *pattern, *flits,
			s.MaxLatency, s.MaxLatencyCI, s.Runs, s.Congestion, s.LatencyPerC, partial)
		if err != nil || r.Bounds == nil {
			return err
		}
		b := r.Bounds
		_, err = fmt.Fprintf(w, "FP instances (means): c %.2f, d %.2f, c_L %.1f, best lower bound %.1f", b.C, b.D, b.CL, b.Lower)
		if b.Solved > 0 {
			_, err = fmt.Fprintf(w, ", SAT optimum %.1f (%d of %d proven)", b.Optimum, b.Proven, b.Solved)
		}
		fmt.Fprintln(w)
		return err
	})
	if werr != nil {
		return werr
	}
	if s.Interrupted {
		return stopped(ctx, "%d of %d runs done; the figures are theirs", s.Runs, *runs)
	}
	return nil
}

// boundsMean is the mean of the runs' FP figures.
type boundsMean struct {
	C       float64            `json:"c"`
	D       float64            `json:"d"`
	CL      float64            `json:"c_l"`
	Lower   float64            `json:"lower_bound"`
	Optimum float64            `json:"optimum,omitempty"`
	Solved  int                `json:"solved,omitempty"`
	Proven  int                `json:"proven,omitempty"`
	Runs    []fattree.FPBounds `json:"per_run"`
}

func meanBounds(fbs []fattree.FPBounds) *boundsMean {
	if len(fbs) == 0 {
		return nil
	}
	m := &boundsMean{Runs: fbs}
	for _, b := range fbs {
		m.C += float64(b.C)
		m.D += float64(b.D)
		m.CL += float64(b.CL)
		m.Lower += float64(b.Lower)
		if b.Optimum > 0 {
			m.Optimum += float64(b.Optimum)
			m.Solved++
			if b.Proven {
				m.Proven++
			}
		}
	}
	k := float64(len(fbs))
	m.C, m.D, m.CL, m.Lower = m.C/k, m.D/k, m.CL/k, m.Lower/k
	if m.Solved > 0 {
		m.Optimum /= float64(m.Solved)
	}
	return m
}

// fatTreeTables reads the JSON objects of earlier runs and prints Tables I and II.
func fatTreeTables(e *env, path, out string) error {
	r, done, err := open(e, path)
	if err != nil {
		return usageError("--tables: %v", err)
	}
	defer done()
	var rows []fattree.Row
	dec := json.NewDecoder(r)
	for {
		var row fattree.Row
		if err := dec.Decode(&row); err == io.EOF {
			break
		} else if err != nil {
			return usageError("--tables: %s: row %d: %v", path, len(rows)+1, err)
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return usageError("--tables: %s holds no JSON objects (the output of fattree --json runs)", path)
	}
	if !slices.ContainsFunc(rows, fattree.Tabulated) {
		// every cell would be empty: say so rather than print empty tables
		return usageError("--tables: %s: no run the tables show among its %s (fattree --json --algo store or worm, --path rp --scan rr, --flits 16, --pattern random, complement or many-to-1)",
			path, plural.Count(len(rows), "JSON object"))
	}
	return writeOut(e, out, func(w io.Writer) error { return fattree.Tables(w, rows) })
}
