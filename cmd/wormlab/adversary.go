package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/internal/gctune"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/lower/adversary/corpus"
	"github.com/wormlab/wormlab/lower/objective"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

func init() {
	register(&command{
		name:    "adversary",
		summary: "search for path sets that maximise a ratio (optimum / lower bound, greedy / optimum, ...)",
		run:     runAdversary,
	})
}

func runAdversary(e *env) error {
	var about strings.Builder
	about.WriteString("Searches path sets on a network (--topology, random starts) or from an instance (--from) for\n" +
		"one that maximises a ratio, with independent chains on every core sharing the best.\n")
	list := func(title string, names []string, line func(string) string) {
		w := 0
		for _, n := range names {
			w = max(w, len(n))
		}
		about.WriteString(title + "\n")
		for _, n := range names {
			fmt.Fprintf(&about, "  %-*s  %s\n", w, n, line(n))
		}
	}
	list("Objectives:", objective.Names(), objective.About)
	list("Strategies:", adversary.Strategies(), adversary.StrategyAbout)
	list("Moves (--moves NAME[=WEIGHT],...; default all):", adversary.Moves(), adversary.MoveAbout)
	fs := newFlags(e, "adversary", "", strings.TrimSuffix(about.String(), "\n"))
	spec := fs.String("topology", "", "network spec: line:N, tree:N, kary-tree:KxD, mesh:AxB, torus:AxB, butterfly:N, fattree:N, levelled:WxD[xK]")
	oldSpec := fs.String("network", "", "deprecated: use --topology")
	from := fs.String("from", "", "start from this instance (its network, unless --topology names the same one)")
	msgs := fs.Int("messages", 4, "worms of a random start")
	maxMsgs := fs.Int("max-messages", 0, "most worms (default twice the start's)")
	flits := fs.String("flits", "", "worm length L, or a range A:B of lengths (default 2; with --from the start's lengths)")
	keep := fs.String("keep", "", "measures of the --from instance to hold fixed: c, d, L (e.g. c,d,L)")
	objName := fs.String("objective", "opt/lower", "ratio to maximise (listed above)")
	stratName := fs.String("strategy", "hill", "search strategy: "+strings.Join(adversary.Strategies(), ", "))
	movesSpec := fs.String("moves", "", "moves and weights, NAME[=WEIGHT],... (default every move at its weight)")
	rankName := fs.String("ranking", "", "order of candidates of equal ratio: "+strings.Join(adversary.Rankings(), ", ")+
		"\n(default fewest for opt/cd, opt/cl+d-1 and opt/cl.d, densest for the others)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "independent chains, one per core")
	timeout := fs.Duration("timeout", 10*time.Second, "wall time of the search (Ctrl-C also stops it and writes the best)")
	budget := fs.Duration("budget", 0, "deprecated: use --timeout")
	cpu := fs.Duration("cpu-limit", 0, "stop when the process has used this much CPU time (all chains; 0: no limit)")
	oldCPU := fs.Duration("cpu", 0, "deprecated: use --cpu-limit")
	iters := fs.Int("iters", 0, "stop each chain after this many moves (deterministic; 0: the time alone)")
	stopAt := fs.Float64("stop", 0, "stop once the best ratio reaches this value (0: never)")
	seed := fs.Uint64("seed", 1, "random seed")
	modelName := fs.String("model", "", "schedule model of the solver: wormhole or bufferless (default bufferless for the\ncolorer objectives, whose schedules are bufferless, else wormhole)")
	solverTimeout := fs.Duration("solver-timeout", 2*time.Second, "time for the solver on each candidate")
	out := fs.String("o", "", "write the hardest instance to this file")
	tracePath := fs.String("trace", "", "write the progress trace (JSON Lines: t, cpu, chain, evaluations, best) to this file")
	traceEvery := fs.Duration("trace-every", time.Second, "at most one synchronisation row per chain this often in the trace (0: every one)")
	certDir := fs.String("certify", "", "write a certificate of the optimum behind the ratio to this directory")
	corpusDir := fs.String("corpus", "", "add the result to this corpus when it beats the entry of its family, size and objective")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	if *oldSpec != "" {
		deprecated(e, "--network", "--topology")
		if *spec == "" {
			*spec = *oldSpec
		}
	}
	if *budget != 0 {
		deprecated(e, "--budget", "--timeout")
		*timeout = *budget
	}
	if *oldCPU != 0 {
		deprecated(e, "--cpu", "--cpu-limit")
		*cpu = *oldCPU
	}
	if *spec == "" && *from == "" {
		return usageError("--topology or --from is required")
	}
	// A local search over path sets is meant for small instances; the cap keeps a
	// mistyped count from exhausting memory before the search starts.
	const maxWorms = 1 << 16
	switch {
	case *msgs > maxWorms:
		return usageError("--messages: %d is more than %d", *msgs, maxWorms)
	case *msgs < 1:
		return usageError("--messages: %d is below 1", *msgs)
	case *maxMsgs < 0 || *maxMsgs > maxWorms:
		return usageError("--max-messages: %d: want 0 (twice the start's) to %d", *maxMsgs, maxWorms)
	case *maxMsgs != 0 && *from == "" && *maxMsgs < *msgs:
		return usageError("--max-messages: %d is below --messages %d", *maxMsgs, *msgs)
	case *iters < 0:
		return usageError("--iters: %d is negative", *iters)
	case *timeout < 0:
		return usageError("--timeout: %v is negative", *timeout)
	case *cpu < 0:
		return usageError("--cpu-limit: %v is negative", *cpu)
	case *timeout == 0 && *iters == 0 && *cpu == 0:
		return usageError("--timeout 0 needs --iters or --cpu-limit")
	case *solverTimeout < 0:
		return usageError("--solver-timeout: %v is negative", *solverTimeout)
	case *stopAt < 0 || math.IsNaN(*stopAt) || math.IsInf(*stopAt, 0):
		return usageError("--stop: %v is not a ratio (a finite number, 0 for none)", *stopAt)
	case *traceEvery < 0:
		return usageError("--trace-every: %v is negative", *traceEvery)
	case *workers < 1:
		return usageError("--workers: %d is below 1", *workers)
	case *workers > 1024:
		return usageError("--workers: %d is more than 1024", *workers)
	case *keep != "" && *from == "":
		return usageError("--keep needs --from (it holds the start instance's measures)")
	}
	if *modelName == "" {
		*modelName = objective.DefaultModel(*objName)
	}
	if *modelName != model.Wormhole && *modelName != model.Bufferless {
		return usageError("--model: %q is neither wormhole nor bufferless", *modelName)
	}
	ratio, err := objective.Lookup(*objName, *modelName, *solverTimeout)
	if err != nil {
		return usageError("--objective: %v", err)
	}
	strat, err := adversary.LookupStrategy(*stratName)
	if err != nil {
		return usageError("--strategy: %v", err)
	}
	if *rankName == "" {
		*rankName = objective.DefaultRanking(*objName)
	}
	ranking, err := adversary.LookupRanking(*rankName)
	if err != nil {
		return usageError("--ranking: %v", err)
	}
	mix := adversary.DefaultMix()
	if *movesSpec != "" {
		if mix, err = adversary.ParseMix(*movesSpec); err != nil {
			return usageError("--moves: %v", err)
		}
	}
	minL, maxL := 2, 2
	if *flits != "" {
		if minL, maxL, err = parseLengths(*flits); err != nil {
			return usageError("--flits: %v", err)
		}
	}
	if *corpusDir != "" {
		if fi, err := os.Stat(*corpusDir); err != nil || !fi.IsDir() {
			return usageError("--corpus: %s is not a directory", *corpusDir)
		}
	}
	if err := checkCertDir(*certDir); err != nil { // before the search, not after it
		return err
	}
	for _, p := range []string{*out, *tracePath} {
		if err := checkOutput(p); err != nil {
			return err
		}
	}

	var sp *adversary.Space
	var start *adversary.Set
	if *spec != "" {
		top, err := lower.ParseNetwork(*spec, *seed)
		if err != nil {
			return usageError("--topology: %v", err)
		}
		sp = adversary.TopologySpace(top, *spec)
	}
	if *from != "" {
		in, err := readInstance(e, *from)
		if err != nil {
			return usageError("--from: %v", err)
		}
		if len(in.Messages) == 0 {
			return usageError("--from %s: the instance has no messages", *from)
		}
		if in.Name == "" { // named after its file, in the report and the instance written
			in.Name = strings.TrimSuffix(filepath.Base(*from), filepath.Ext(*from))
		}
		if sp != nil {
			if !sameNetwork(sp.Net, in.Net) {
				return usageError("--from %s: its network is not the network of --topology %s", *from, *spec)
			}
			in.Net = sp.Net
		} else {
			sp = adversary.InstanceSpace(in)
		}
		start = adversary.FromInstance(in)
		lo, hi := in.Messages[0].L, in.Messages[0].L
		for _, m := range in.Messages {
			lo, hi = min(lo, m.L), max(hi, m.L)
		}
		if *flits == "" {
			minL, maxL = lo, hi
		} else {
			minL, maxL = min(minL, lo), max(maxL, hi)
		}
		if sp.Keep, err = parseKeep(*keep, in, lo, hi); err != nil {
			return usageError("--keep: %v", err)
		}
		*msgs = len(in.Messages)
		if *maxMsgs != 0 && *maxMsgs < *msgs {
			return usageError("--max-messages: %d is below the %d worms of --from %s", *maxMsgs, *msgs, *from)
		}
	}
	sp.MinL, sp.MaxL = minL, maxL
	sp.MinWorms, sp.MaxWorms = 1, *maxMsgs
	if sp.MaxWorms == 0 {
		sp.MaxWorms = min(2**msgs, maxWorms)
	}
	if err := sp.Check(); err != nil {
		return usageError("%v", err)
	}
	if start != nil && !sp.Admit(start) {
		return usageError("--from %s: the instance is outside the search space", *from)
	}

	name := "adversary-" + strings.NewReplacer(":", "-", "/", "-").Replace(sp.Name) + "-" + strings.ReplaceAll(*objName, "/", "-")
	cfg := adversary.Config{Space: sp, Objective: ratio, Strategy: strat, Ranking: ranking, Mix: mix, Start: start, Messages: *msgs,
		Name: name, Seed: *seed, Workers: *workers, Iterations: *iters, Timeout: *timeout, CPU: *cpu, Stop: *stopAt, TraceEvery: *traceEvery}
	var traceBuf bytes.Buffer
	var mu sync.Mutex
	bestSeen := map[int]float64{}
	var lastLine time.Time
	if *tracePath != "" || e.stderrTTY {
		enc := json.NewEncoder(&traceBuf)
		cfg.Trace = func(row adversary.TraceRow) {
			mu.Lock()
			defer mu.Unlock()
			if *tracePath != "" {
				enc.Encode(row)
			}
			if e.stderrTTY {
				bestSeen[row.Chain] = row.Best
				if time.Since(lastLine) > 250*time.Millisecond || row.Event == "end" {
					lastLine = time.Now()
					adversaryProgress(e.stderr, row, bestSeen)
				}
			}
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	defer gctune.Tune()() // an evaluation allocates and drops a whole instance
	res, err := adversary.Search(ctx, cfg)
	if e.stderrTTY {
		fmt.Fprintln(e.stderr)
	}
	if *tracePath != "" {
		if werr := atomicfile.Write(*tracePath, traceBuf.Bytes()); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return negative("interrupted before the first instance was measured: nothing to write")
		}
		return err
	}
	if res.Interrupted {
		fmt.Fprintf(e.stderr, "wormlab adversary: interrupted after %d moves; writing the best instance so far\n", res.Moves)
	}
	best := sp.Instance(name, res.Best.Set)
	rep := res.Report(&cfg, *objName, best)
	if s := res.Best.Score.Schedule; s != nil {
		// The schedule behind the numerator is checked by the verifier, which shares
		// no code with what made it, before the ratio is reported.
		if err := verify.Schedule(best, s); err != nil {
			return fmt.Errorf("adversary: internal error: the schedule behind the numerator is illegal: %v", err)
		}
		rep.Verified = s.Model
	}
	best.SetExtra("adversary", rep.Extra())
	// stopped: the certificate (or the corpus entry) that a Ctrl-C kept from
	// being written; the rest is written, and the status is 1
	var stopped string
	if *certDir != "" {
		if res.Best.Score.Opt == nil {
			return negative("--certify: no side of %s is a proven optimum: no certificate to write", *objName)
		}
		if rep.Certificate, stopped, err = certifyBest(ctx, *certDir, best, res.Best.Score.Opt); err != nil {
			return err
		}
	}
	if *out != "" {
		if err := writeInstance(e, *out, best); err != nil {
			return err
		}
	}
	var added string
	if *corpusDir != "" {
		if added, err = offerCorpus(ctx, e, *corpusDir, sp, best, rep, res.Best.Score.Opt, *modelName); err != nil && ctx.Err() != nil {
			added = fmt.Sprintf("corpus %s: not added (interrupted while its certificate was written)", *corpusDir)
			if stopped == "" {
				stopped = fmt.Sprintf("interrupted while writing the corpus entry to %s: not added", *corpusDir)
			}
		} else if err != nil {
			return err
		}
	}
	if *asJSON {
		if err := writeJSON(e.stdout, rep); err != nil {
			return err
		}
	} else {
		printAdversary(e.stdout, rep)
		if added != "" {
			fmt.Fprintln(e.stdout, added)
		}
	}
	if stopped != "" {
		return negative("%s", stopped)
	}
	return nil
}

// certifyBest writes the certificate of the optimum o of in into dir and
// returns its kind. A Ctrl-C (during the search, or while the certificate's
// edge-set search or proof runs) stops it: stopped then says that no
// certificate was written (corpus.Certify stages it, so dir is left as it
// was), and the caller still writes the best instance and its ratio (docs/cli.md,
// Ctrl-C). It returned the prover's "context canceled", exit 2, and wrote
// neither -o nor the report.
func certifyBest(ctx context.Context, dir string, in *model.Instance, o *adversary.Optimum) (kind, stopped string, err error) {
	kind, err = corpus.Certify(ctx, dir, in, o)
	if err != nil && ctx.Err() != nil {
		return "", fmt.Sprintf("interrupted while writing the certificate to %s: no certificate written", dir), nil
	}
	return kind, "", err
}

// printAdversary writes the report as text.
func printAdversary(w io.Writer, rep adversary.Report) {
	exact := "exact"
	if !rep.Exact {
		exact = "a lower bound on the ratio: a side is not exact"
	}
	fmt.Fprintf(w, "objective %s on %s (seed %d, %s, %d workers): ratio %.4f = %d / %d (%s)\n",
		rep.Objective, rep.Network, rep.Seed, rep.Strategy, rep.Workers, rep.Ratio, rep.Numerator.V, rep.Denominator.V, exact)
	fmt.Fprintf(w, "  numerator   %d: %s\n", rep.Numerator.V, rep.Numerator.How)
	fmt.Fprintf(w, "  denominator %d: %s\n", rep.Denominator.V, rep.Denominator.How)
	if rep.Verified != "" {
		fmt.Fprintf(w, "  the numerator's schedule is legal (verify, %s model)\n", rep.Verified)
	}
	if rep.Certificate != "" {
		fmt.Fprintf(w, "  certificate: %s\n", rep.Certificate)
	}
	lengths := strconv.Itoa(rep.LMin)
	if rep.LMax != rep.LMin {
		lengths += ".." + strconv.Itoa(rep.LMax)
	}
	fmt.Fprintf(w, "worms %d, L = %s, c = %d, c_L = %d, d = %d", rep.Worms, lengths, rep.C, rep.CL, rep.D)
	if rep.Keep != "" {
		fmt.Fprintf(w, " (kept: %s)", rep.Keep)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%d moves, %d evaluations, %d not measurable\n", rep.Moves, rep.Evaluations, rep.Failed)
	if rep.Failed > 0 {
		fmt.Fprintf(w, "first not measurable: %s\n", rep.FirstFailure)
	}
}

// adversaryProgress redraws the terminal's progress line.
func adversaryProgress(w io.Writer, row adversary.TraceRow, best map[int]float64) {
	var chains []string
	for i := 0; i < len(best) && i < 8; i++ {
		chains = append(chains, fmt.Sprintf("%.3f", best[i]))
	}
	fmt.Fprintf(w, "\r%5.0fs  cpu %5.0fs  best %.4f  chains %s ", row.T, row.CPU, math.Max(row.Global, row.Best), strings.Join(chains, " "))
}

// parseLengths reads "L" or "A:B".
func parseLengths(s string) (int, int, error) {
	a, b, isRange := strings.Cut(s, ":")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("%q is not a length L or a range A:B", s)
	}
	hi := lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("%q is not a length L or a range A:B", s)
		}
	}
	switch {
	case lo < 1:
		return 0, 0, fmt.Errorf("%s: lengths start at 1", s)
	case hi < lo:
		return 0, 0, fmt.Errorf("%s: the range is empty", s)
	case hi > 1<<20:
		return 0, 0, fmt.Errorf("%s: lengths above %d are not searched", s, 1<<20)
	}
	return lo, hi, nil
}

// parseKeep reads "c,d,L": the measures of the start instance to hold fixed.
func parseKeep(s string, in *model.Instance, lo, hi int) (adversary.Keep, error) {
	var k adversary.Keep
	if s == "" {
		return k, nil
	}
	ms := in.Measure()
	for _, f := range strings.Split(s, ",") {
		switch f {
		case "c":
			k.C = ms.C
		case "d":
			k.D = ms.D
		case "L":
			if lo != hi {
				return k, fmt.Errorf("L: the start instance's worms have lengths %d..%d, no one L to keep", lo, hi)
			}
			k.L = lo
		default:
			return k, fmt.Errorf("unknown measure %q (want c, d or L)", f)
		}
	}
	return k, nil
}

// sameNetwork reports whether two networks have the same nodes and edges.
func sameNetwork(a, b *model.Network) bool {
	if len(a.Nodes) != len(b.Nodes) || len(a.Edges) != len(b.Edges) {
		return false
	}
	for i := range a.Nodes {
		if a.Nodes[i] != b.Nodes[i] {
			return false
		}
	}
	for i := range a.Edges {
		if a.Edges[i].From != b.Edges[i].From || a.Edges[i].To != b.Edges[i].To {
			return false
		}
	}
	return true
}

// offerCorpus offers the result to the corpus and says in one line what happened.
func offerCorpus(ctx context.Context, e *env, dir string, sp *adversary.Space, in *model.Instance, rep adversary.Report,
	opt *adversary.Optimum, modelName string) (string, error) {
	entry := corpus.Entry{Family: sp.Family, Size: sp.Size, Objective: rep.Objective, Model: modelName,
		Ratio: rep.Ratio, Num: rep.Numerator, Den: rep.Denominator, Worms: rep.Worms, C: rep.C, CL: rep.CL, D: rep.D,
		LMin: rep.LMin, LMax: rep.LMax, Command: reproduce(e.args), Seed: rep.Seed}
	if opt != nil {
		entry.Proof = opt.Source
	}
	if !rep.Exact {
		return fmt.Sprintf("corpus %s: not added (the ratio is not exact)", dir), nil
	}
	old, added, err := corpus.Offer(ctx, dir, entry, in, opt)
	switch {
	case err != nil:
		return "", err
	case added && old != nil:
		return fmt.Sprintf("corpus %s: replaced %s (ratio %.4f) with %.4f", dir, old.Name, old.Ratio, rep.Ratio), nil
	case added:
		return fmt.Sprintf("corpus %s: added %s (ratio %.4f)", dir, corpus.FolderName(entry.Family, entry.Size, entry.Objective), rep.Ratio), nil
	}
	return fmt.Sprintf("corpus %s: not added (%s holds %.4f)", dir, old.Name, old.Ratio), nil
}

// reproduce is the command line that reruns the search: the arguments without
// the outputs (-o, --trace, --certify, --corpus, --json).
func reproduce(args []string) string {
	out := []string{"wormlab", "adversary"}
	skip := map[string]bool{"-o": true, "--o": true, "-trace": true, "--trace": true, "-certify": true, "--certify": true,
		"-corpus": true, "--corpus": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		if name == "-json" || name == "--json" {
			continue
		}
		if skip[name] {
			if !hasValue {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return strings.Join(out, " ")
}
