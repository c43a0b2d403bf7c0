package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/lower/objective"
	"github.com/wormlab/wormlab/model"
)

func init() {
	register(&command{
		name:    "adversary",
		summary: "search for path sets that maximise a ratio (optimum / lower bound, colorer / optimum, ...)",
		run:     runAdversary,
	})
}

func runAdversary(e *env) error {
	fs := newFlags(e, "adversary", "", "Local search over path sets on a network for an instance that maximises a ratio.\n"+
		"Objectives: opt/lower (solver optimum / best lower bound), opt/cd (/ max(c_L, d + L - 1)), greedy/opt and colorer/opt (the online\n"+
		"greedy or the offline colorer / solver optimum, or / lower bound where the solver does not finish),\n"+
		"greedy/bound and colorer/bound (/ best lower bound, no solver: for larger networks).")
	spec := fs.String("topology", "", "network spec: line:N, tree:N, kary-tree:KxD, mesh:AxB, torus:AxB, butterfly:N, fattree:N, levelled:WxD")
	oldSpec := fs.String("network", "", "deprecated: use --topology")
	msgs := fs.Int("messages", 4, "worms to start with")
	maxMsgs := fs.Int("max-messages", 0, "most worms (default 2 * messages)")
	objName := fs.String("objective", "opt/lower", "ratio to maximise: "+strings.Join(objective.Names(), ", "))
	timeout := fs.Duration("timeout", 10*time.Second, "wall time of the search (Ctrl-C also stops it with the best instance so far)")
	budget := fs.Duration("budget", 0, "deprecated: use --timeout")
	iters := fs.Int("iters", 0, "stop after this many moves (deterministic; 0: the budget alone)")
	seed := fs.Uint64("seed", 1, "random seed")
	flits := fs.Int("flits", 2, "message length L")
	modelName := fs.String("model", "", "schedule model of the solver: wormhole or bufferless (default bufferless for the\ncolorer objectives, whose schedules are bufferless, else wormhole)")
	solverTimeout := fs.Duration("solver-timeout", 2*time.Second, "time for the solver on each instance")
	out := fs.String("o", "", "write the hardest instance to this file")
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
	if *spec == "" {
		return usageError("--topology is required")
	}
	// A local search over path sets is meant for small instances; the cap keeps a
	// mistyped count from exhausting memory before the search starts.
	const maxWorms = 1 << 16
	switch {
	case *msgs > maxWorms:
		return fmt.Errorf("--messages: %d is more than %d", *msgs, maxWorms)
	case *msgs < 1:
		return usageError("--messages: %d is below 1", *msgs)
	case *maxMsgs < 0 || *maxMsgs > maxWorms:
		return usageError("--max-messages: %d: want 0 (2 * messages) to %d", *maxMsgs, maxWorms)
	case *maxMsgs != 0 && *maxMsgs < *msgs:
		return usageError("--max-messages: %d is below --messages %d", *maxMsgs, *msgs)
	case *iters < 0:
		return usageError("--iters: %d is negative", *iters)
	case *timeout < 0:
		return usageError("--timeout: %v is negative", *timeout)
	case *timeout == 0 && *iters == 0:
		return usageError("--timeout 0 needs --iters")
	case *solverTimeout < 0:
		return usageError("--solver-timeout: %v is negative", *solverTimeout)
	case *flits < 1:
		return usageError("--flits: %d is below 1", *flits)
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
	top, err := lower.ParseNetwork(*spec, *seed)
	if err != nil {
		return err
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	cfg := lower.AdversaryConfig{Objective: *objName, Num: ratio.Num, Den: ratio.Den,
		Messages: *msgs, MaxMessages: *maxMsgs, Flits: *flits, Seed: *seed,
		Budget: *timeout, Iterations: *iters}
	if e.stderrTTY {
		last := time.Time{}
		cfg.Progress = func(p lower.AdversaryProgress) {
			if time.Since(last) > 250*time.Millisecond {
				last = time.Now()
				fmt.Fprintf(e.stderr, "\rmove %d  ratio %.4f  best %.4f  worms %d  %s ", p.Iteration, p.Ratio, p.Best, p.Messages, p.Elapsed.Round(time.Second))
			}
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	res, err := lower.Adversary(ctx, top, cfg)
	if e.stderrTTY {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return negative("interrupted before the first instance was measured: nothing to write")
		}
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintf(e.stderr, "wormlab adversary: interrupted after %d moves; writing the best instance so far\n", res.Iterations)
	}
	res.Instance.Name = fmt.Sprintf("adversary-%s-%s", strings.ReplaceAll(*spec, ":", "-"), strings.ReplaceAll(*objName, "/", "-"))
	if *out != "" {
		if err := writeInstance(e, *out, res.Instance); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(e.stdout, res.Report(cfg, *spec))
	}
	fmt.Fprintf(e.stdout, "objective %s on %s (seed %d): ratio %.4f = %d (%s) / %d (%s)\n",
		*objName, *spec, *seed, res.Ratio, res.Num.V, res.Num.How, res.Den.V, res.Den.How)
	fmt.Fprintf(e.stdout, "worms %d of %d flits; %d moves, %d accepted, %d improved, %d not measurable\n",
		len(res.Instance.Messages), *flits, res.Iterations, res.Accepted, res.Improved, res.Failed)
	if res.Failed > 0 {
		fmt.Fprintf(e.stdout, "first not measurable: %s\n", res.FirstFailure)
	}
	return nil
}
