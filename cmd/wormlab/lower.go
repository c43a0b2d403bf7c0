package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/measure"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

func init() {
	register(&command{
		name:    "lower",
		summary: "check lower-bound constructions: the Omega(cd) prime construction, the butterfly bound",
		run:     runLower,
	})
}

func runLower(e *env) error {
	if len(e.args) > 0 && (e.args[0] == "-h" || e.args[0] == "-help" || e.args[0] == "--help") {
		fmt.Fprintln(e.stdout, "usage: wormlab lower prime|butterfly|bounds [flags] (run 'wormlab lower SUB -h' for each)")
		return flag.ErrHelp
	}
	if len(e.args) == 0 || (e.args[0] != "prime" && e.args[0] != "butterfly" && e.args[0] != "bounds") {
		return usageError("want prime, butterfly or bounds (usage: wormlab lower prime|butterfly|bounds [flags])")
	}
	sub, args := e.args[0], e.args[1:]
	switch sub {
	case "prime":
		return runLowerPrime(e, args)
	case "bounds":
		return runLowerBounds(e, args)
	}
	return runLowerButterfly(e, args)
}

func runLowerBounds(e *env, args []string) error {
	fs := newFlags(e, "lower bounds", "INSTANCE", "Every lower bound on the makespan of the instance: the model's and those of package lower\n(aligned clique, colouring, independence, prefix, edge-sequence, disjunctive) and the solver's\nedge-set bound (at most 5 s), with proofs' witnesses, and the best. Bounds that would not fit --max-memory are skipped and named;\nCtrl-C prints the bounds done.")
	budget := fs.Int("budget", lower.DefaultBudget, "search nodes per clique, colouring or independent-set search (a tenth for the disjunctive search; <= 0: no limit)")
	asJSON := fs.Bool("json", false, "print JSON")
	maxMem := memoryFlag(fs)
	pos, err := parseFlags(fs, args, 1, 1)
	if err != nil {
		return err
	}
	mem, restore := maxMem()
	defer restore()
	lim := lower.Limits{Budget: *budget, MaxMemory: mem}
	in, err := readInstance(e, pos[0])
	if err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	res := lower.BoundsWithin(ctx, in, lim)
	// The edge-set bound of the solver (offline/optimal/edgeset.go), from the best
	// bound so far, in the wormhole model (so it holds in both).
	if !res.Interrupted {
		v, detail, err := optimal.EdgeSetBound(ctx, in, model.Wormhole, res.Best.Value, 5*time.Second)
		if err != nil {
			return err
		}
		if detail == "" {
			detail = fmt.Sprintf("no horizon from %d refuted on the tight edges (at most 4 with slack <= 3)", res.Best.Value)
		}
		b := model.Bound{Name: "edge-set", Value: v, Edge: -1, Msg: -1, Detail: detail}
		res.Bounds = append(res.Bounds, b)
		if v > res.Best.Value {
			res.Best = b
		}
	}
	if res.Interrupted {
		fmt.Fprintln(e.stderr, "wormlab lower bounds: interrupted; the bounds done follow")
	}
	if *asJSON {
		type jb struct {
			Name   string `json:"name"`
			Value  int    `json:"value"`
			Detail string `json:"detail"`
		}
		doc := struct {
			Bounds      []jb         `json:"bounds"`
			Best        jb           `json:"best"`
			Skipped     []lower.Skip `json:"skipped,omitempty"`
			Interrupted bool         `json:"interrupted,omitempty"`
		}{Best: jb{res.Best.Name, res.Best.Value, res.Best.Detail}, Skipped: res.Skipped, Interrupted: res.Interrupted}
		for _, b := range res.Bounds {
			doc.Bounds = append(doc.Bounds, jb{b.Name, b.Value, b.Detail})
		}
		return writeJSON(e.stdout, doc)
	}
	for _, b := range res.Bounds {
		// a detail names edges by their nodes and messages by their ids, the
		// input's: escaped as stats writes them, one line per bound
		fmt.Fprintf(e.stdout, "%-22s %6d  %s\n", b.Name, b.Value, measure.EscapeControl(b.Detail))
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(e.stdout, "%-22s %6s  skipped: %s\n", s.Name, "-", s.Reason)
	}
	fmt.Fprintf(e.stdout, "best lower bound: %d (%s)\n", res.Best.Value, res.Best.Name)
	return nil
}

func runLowerPrime(e *env, args []string) error {
	fs := newFlags(e, "lower prime", "", "Build the Omega(cd) instance of seed 002, section 5, check every claim of the paper on it\nand write it (-o). A failed claim is exit status 1.")
	p := fs.Int("p", 0, "the prime p (p^2 worms, 2p+1 levels)")
	flits := fs.Int("flits", 0, "message length L >= 2p+1 (default 2p+1)")
	repaired := fs.Bool("repaired", false, "build the repaired construction (2p+2 levels, p+1 single-edge layers)")
	asJSON := fs.Bool("json", false, "print the claims as JSON")
	out := fs.String("o", "", "write the instance to this file")
	timeout := fs.Duration("timeout", 0, "also solve the instance exactly by SAT in both models, for at most this long each\n(without the solver's own clique bound, so a proven optimum rests on SAT alone); Ctrl-C stops the solver\nwith what it has")
	solve := fs.Duration("solve", 0, "deprecated: use --timeout")
	if _, err := parseFlags(fs, args, 0, 0); err != nil {
		return err
	}
	if *solve != 0 {
		deprecated(e, "--solve", "--timeout")
		if *timeout == 0 {
			*timeout = *solve
		}
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	L := *flits
	if !setFlags(fs)["flits"] {
		L = 2**p + 1
	}
	in, err := lower.Prime(*p, L, *repaired)
	if err != nil {
		return err
	}
	claims := lower.PrimeClaims(in, *p, L)
	if *out != "" {
		if err := writeInstance(e, *out, in); err != nil {
			return err
		}
	}
	failed := 0
	for _, c := range claims {
		if !c.Holds {
			failed++
		}
	}
	type solved struct {
		Model    string `json:"model"`
		Makespan int    `json:"makespan"`
		Lower    int    `json:"lower_bound"`
		Optimal  bool   `json:"optimal"`
	}
	var sols []solved
	if *timeout > 0 {
		sigCtx, stop := interruptContext()
		defer stop()
		for _, m := range []string{model.Wormhole, model.Bufferless} {
			if sigCtx.Err() != nil {
				break
			}
			ctx, cancel := context.WithTimeout(sigCtx, *timeout)
			res, err := optimal.Solve(ctx, in, optimal.Options{Model: m, NoClique: true})
			cancel()
			if err != nil {
				return err
			}
			sols = append(sols, solved{m, res.Schedule.Makespan, res.Lower, res.Optimal})
		}
		if sigCtx.Err() != nil {
			fmt.Fprintln(e.stderr, "wormlab lower prime: interrupted; the solver's results so far follow")
		}
	}
	if *asJSON {
		doc := struct {
			P        int           `json:"p"`
			L        int           `json:"flits"`
			Repaired bool          `json:"repaired"`
			Claims   []lower.Claim `json:"claims"`
			Failed   int           `json:"failed"`
			Solver   []solved      `json:"solver,omitempty"`
		}{*p, L, *repaired, claims, failed, sols}
		if err := writeJSON(e.stdout, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%s: p = %d, L = %d\n", in.Name, *p, L)
		writeClaims(e.stdout, claims)
		ms := in.Measure()
		for _, s := range sols {
			how := "optimal, proven"
			if !s.Optimal {
				how = fmt.Sprintf("not proven: lower bound %d", s.Lower)
			}
			fmt.Fprintf(e.stdout, "solver (%s): makespan %d (%s); c_L + d = %d, c_L d = %d, c d = %d\n",
				s.Model, s.Makespan, how, ms.CL+ms.D, ms.CL*ms.D, ms.C*ms.D)
		}
	}
	if failed > 0 {
		return negative("lower prime: %d of %d claims fail", failed, len(claims))
	}
	return nil
}

// writeClaims prints the claims as a table: verdict, the claim, the value the paper
// states and the value measured on the instance, each claim's detail below it.
func writeClaims(w io.Writer, claims []lower.Claim) {
	wc, ws := len("claim"), len("stated")
	for _, c := range claims {
		wc, ws = max(wc, len(c.Claim)), max(ws, len(c.Stated))
	}
	fmt.Fprintf(w, "%-7s%-*s  %-*s  %s\n", "", wc, "claim", ws, "stated", "measured")
	for _, c := range claims {
		mark := "holds"
		if !c.Holds {
			mark = "FAILS"
		}
		fmt.Fprintf(w, "%-7s%-*s  %-*s  %v\n       %s\n", mark, wc, c.Claim, ws, c.Stated, c.Value, c.Detail)
	}
}

func runLowerButterfly(e *env, args []string) error {
	fs := newFlags(e, "lower butterfly", "", "Ranade's lightly or heavily loaded problem on the N-input butterfly: the phase bound of\nseed 002, Lemma 4 and Theorem 2, on the truncated butterfly, beside c + d and the theorem's formula.\n"+
		"Columns: l = min(L, log N); Delta_l, alpha, chi: degree, independence and chromatic numbers of the\n"+
		"truncated path graph; M/alpha = ceil(M/alpha) L + log N - 1 and phase = chi L + log N - 1 (lower\n"+
		"bounds); best = lower.Best; opt = SAT optimum (--solve); theorem = L l log N / (8 log^2 log N);\n"+
		"paper B = 8 N log^2 log N / l, the independent-set size Theorem 2 shows unlikely (logs base 2).")
	ns := fs.String("size", "8", "inputs N, a power of 2; a comma-separated list for a table")
	oldN := fs.String("n", "", "deprecated: use --size")
	load := fs.String("traffic", "heavy", "light (1 message per input) or heavy (log N per input), as in wormlab gen")
	oldLoad := fs.String("load", "", "deprecated: use --traffic")
	flits := fs.Int("flits", 0, "message length L (default log N)")
	seed := fs.Uint64("seed", 1, "random seed")
	budget := fs.Int("budget", lower.DefaultBudget, "search nodes per clique, independent-set or colouring search (<= 0: no limit)")
	asJSON := fs.Bool("json", false, "print JSON")
	timeout := fs.Duration("timeout", 0, "also run the SAT solver (wormhole model) for this long per problem; the optimum is\nreported when proven (Ctrl-C stops it with the rows done)")
	solve := fs.Duration("solve", 0, "deprecated: use --timeout")
	if _, err := parseFlags(fs, args, 0, 0); err != nil {
		return err
	}
	if *oldN != "" {
		deprecated(e, "--n", "--size")
		*ns = *oldN
	}
	if *oldLoad != "" {
		deprecated(e, "--load", "--traffic")
		*load = *oldLoad
	}
	if *solve != 0 {
		deprecated(e, "--solve", "--timeout")
		if *timeout == 0 {
			*timeout = *solve
		}
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *load != instances.Light && *load != instances.Heavy {
		return usageError("--traffic: %q is neither %s nor %s", *load, instances.Light, instances.Heavy)
	}
	sigCtx, stop := interruptContext()
	defer stop()
	var rows []lower.ButterflyRow
	for _, f := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		// 2^22 inputs is the largest butterfly package instances builds.
		if err != nil || n < 2 || n&(n-1) != 0 || n > 1<<22 {
			return usageError("--size: %q is not a power of 2 from 2 to %d", f, 1<<22)
		}
		in, err := lower.ButterflyProblem(n, *load, *flits, *seed)
		if err != nil {
			return err
		}
		row, err := lower.Butterfly(in, *budget)
		if err != nil {
			return err
		}
		row.Load, row.Seed = *load, *seed
		if sigCtx.Err() != nil {
			fmt.Fprintf(e.stderr, "wormlab lower butterfly: interrupted; %d rows done\n", len(rows))
			break
		}
		if *timeout > 0 {
			ctx, cancel := context.WithTimeout(sigCtx, *timeout)
			res, err := optimal.Solve(ctx, in, optimal.Options{Model: model.Wormhole})
			cancel()
			if err != nil {
				return err
			}
			if res.Optimal {
				row.Optimum, row.OptimumModel = res.Schedule.Makespan, model.Wormhole
			}
		}
		rows = append(rows, row)
	}
	if *asJSON {
		return writeJSON(e.stdout, struct {
			Rows []lower.ButterflyRow `json:"rows"`
		}{rows})
	}
	fmt.Fprintf(e.stdout, "%6s %5s %4s %3s %3s %4s %5s %6s %8s %7s %6s %7s %6s %6s %5s %8s %8s\n",
		"N", "load", "M", "L", "l", "c", "c_L", "c_L+d", "Delta_l", "alpha", "chi", "M/alpha", "phase", "best", "opt", "theorem", "paper B")
	for _, r := range rows {
		alpha := strconv.Itoa(r.Alpha)
		if !r.AlphaExact {
			alpha = "<=" + alpha
		}
		chi := strconv.Itoa(r.ChiLower)
		if r.ChiUpper != r.ChiLower {
			chi = fmt.Sprintf("%d..%d", r.ChiLower, r.ChiUpper)
		}
		opt := "-"
		if r.Optimum > 0 {
			opt = strconv.Itoa(r.Optimum)
		}
		fmt.Fprintf(e.stdout, "%6d %5s %4d %3d %3d %4d %5d %6d %8d %7s %6s %7d %6d %6d %5s %8.2f %8.1f\n",
			r.N, r.Load, r.M, r.L, r.Trunc, r.C, r.CL, r.CPlusD, r.DeltaTrunc, alpha, chi, r.BoundAlpha, r.BoundChi, r.Best, opt, r.Theorem, r.PaperB)
	}
	return nil
}
