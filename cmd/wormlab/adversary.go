package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/online"
)

func init() {
	register(&command{
		name:    "adversary",
		summary: "search for path sets that maximise a ratio (optimum / lower bound, colorer / optimum, ...)",
		run:     runAdversary,
	})
}

// adversaryObjectives maps an objective name to its numerator and denominator.
// optUp and optLow are the solver's optimum as numerator and as denominator: equal
// when the solver proves it, else its best schedule (an upper bound) and its best
// lower bound, so that an unfinished solve can only overstate a ratio, and says so.
func adversaryObjectives(optUp, optLow lower.Measure) map[string][2]lower.Measure {
	colorer := lower.MeasureFunc(func(_ context.Context, in *model.Instance) (lower.Value, error) {
		res, err := offline.Color(in, offline.Options{Order: "auto"})
		if err != nil {
			return lower.Value{}, err
		}
		return lower.Value{V: res.Schedule.Makespan, How: "colorer (" + res.Order + " order)"}, nil
	})
	greedy := lower.MeasureFunc(func(ctx context.Context, in *model.Instance) (lower.Value, error) {
		res, err := online.Run(ctx, in, online.Config{Algo: online.Greedy})
		if err != nil {
			return lower.Value{}, err
		}
		return lower.Value{V: res.Makespan, How: "greedy"}, nil
	})
	return map[string][2]lower.Measure{
		"opt/lower":     {optUp, lower.LowerMeasure},
		"opt/cd":        {optUp, lower.CDMeasure},
		"greedy/opt":    {greedy, optLow},
		"greedy/bound":  {greedy, lower.LowerMeasure},
		"colorer/opt":   {colorer, optLow},
		"colorer/bound": {colorer, lower.LowerMeasure},
	}
}

// solverMeasure is the solver's optimum within timeout per instance; when it does
// not prove one, its best schedule's makespan (upper = true) or its best proven
// lower bound, at least lower.Best (upper = false), marked as such.
func solverMeasure(modelName string, timeout time.Duration, upper bool) lower.Measure {
	return lower.MeasureFunc(func(ctx context.Context, in *model.Instance) (lower.Value, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		res, err := optimal.Solve(ctx, in, optimal.Options{Model: modelName})
		if err != nil {
			return lower.Value{}, err
		}
		if res.Optimal {
			return lower.Value{V: res.Schedule.Makespan, How: "solver optimum (" + modelName + ")"}, nil
		}
		if upper {
			return lower.Value{V: res.Schedule.Makespan, How: "solver best schedule, not proven optimal (" + modelName + ")"}, nil
		}
		b := lower.Best(in)
		v := max(res.Lower, b.Value)
		return lower.Value{V: v, How: "lower bound (solver unfinished; " + modelName + ")"}, nil
	})
}

func runAdversary(e *env) error {
	fs := newFlags(e, "adversary", "", "Local search over path sets on a network for an instance that maximises a ratio.\n"+
		"Objectives: opt/lower (solver optimum / best lower bound), opt/cd (/ max(c_L, d + L - 1)), greedy/opt and colorer/opt (the online\n"+
		"greedy or the offline colorer / solver optimum, or / lower bound where the solver does not finish),\n"+
		"greedy/bound and colorer/bound (/ best lower bound, no solver: for larger networks).")
	spec := fs.String("network", "", "network: line:N, tree:N, kary-tree:KxD, mesh:AxB, torus:AxB, butterfly:N, fat-tree:N, levelled:WxD")
	msgs := fs.Int("messages", 4, "worms to start with")
	maxMsgs := fs.Int("max-messages", 0, "most worms (default 2 * messages)")
	objective := fs.String("objective", "opt/lower", "ratio to maximise")
	budget := fs.Duration("budget", 10*time.Second, "time budget")
	iters := fs.Int("iters", 0, "stop after this many moves (deterministic; 0: the budget alone)")
	seed := fs.Uint64("seed", 1, "random seed")
	flits := fs.Int("flits", 2, "message length L")
	modelName := fs.String("model", "", "schedule model of the solver: wormhole or bufferless (default bufferless for the\ncolorer objectives, whose schedules are bufferless, else wormhole)")
	solverTimeout := fs.Duration("solver-timeout", 2*time.Second, "time for the solver on each instance")
	out := fs.String("o", "", "write the hardest instance to this file")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	if *spec == "" {
		return usageError("--network is required")
	}
	// A local search over path sets is meant for small instances; the cap keeps a
	// mistyped count from exhausting memory before the search starts.
	const maxWorms = 1 << 16
	switch {
	case *msgs > maxWorms:
		return fmt.Errorf("--messages: %d is more than %d", *msgs, maxWorms)
	case *maxMsgs < 0 || *maxMsgs > maxWorms:
		return fmt.Errorf("--max-messages: %d: want 0 (2 * messages) to %d", *maxMsgs, maxWorms)
	case *iters < 0:
		return fmt.Errorf("--iters: %d is negative", *iters)
	case *solverTimeout < 0:
		return fmt.Errorf("--solver-timeout: %v is negative", *solverTimeout)
	}
	if *modelName == "" {
		*modelName = model.Wormhole
		if strings.HasPrefix(*objective, "colorer/") {
			*modelName = model.Bufferless
		}
	}
	if *modelName != model.Wormhole && *modelName != model.Bufferless {
		return fmt.Errorf("--model: %q is neither wormhole nor bufferless", *modelName)
	}
	objs := adversaryObjectives(solverMeasure(*modelName, *solverTimeout, true), solverMeasure(*modelName, *solverTimeout, false))
	pair, ok := objs[*objective]
	if !ok {
		var names []string
		for n := range objs {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Errorf("--objective: unknown %q (want one of %s)", *objective, strings.Join(names, ", "))
	}
	top, err := lower.ParseNetwork(*spec, *seed)
	if err != nil {
		return err
	}
	cfg := lower.AdversaryConfig{Objective: *objective, Num: pair[0], Den: pair[1],
		Messages: *msgs, MaxMessages: *maxMsgs, Flits: *flits, Seed: *seed,
		Budget: *budget, Iterations: *iters}
	if e.stderrTTY {
		last := time.Time{}
		cfg.Progress = func(p lower.AdversaryProgress) {
			if time.Since(last) > 250*time.Millisecond {
				last = time.Now()
				fmt.Fprintf(e.stderr, "\rmove %d  ratio %.4f  best %.4f  worms %d  %s ", p.Iteration, p.Ratio, p.Best, p.Messages, p.Elapsed.Round(time.Second))
			}
		}
	}
	res, err := lower.Adversary(context.Background(), top, cfg)
	if e.stderrTTY {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		return err
	}
	res.Instance.Name = fmt.Sprintf("adversary-%s-%s", strings.ReplaceAll(*spec, ":", "-"), strings.ReplaceAll(*objective, "/", "-"))
	if *out != "" {
		if err := writeInstance(e, *out, res.Instance); err != nil {
			return err
		}
	}
	fmt.Fprintf(e.stdout, "objective %s on %s (seed %d): ratio %.4f = %d (%s) / %d (%s)\n",
		*objective, *spec, *seed, res.Ratio, res.Num.V, res.Num.How, res.Den.V, res.Den.How)
	fmt.Fprintf(e.stdout, "worms %d of %d flits; %d moves, %d accepted, %d improved, %d not measurable\n",
		len(res.Instance.Messages), *flits, res.Iterations, res.Accepted, res.Improved, res.Failed)
	if res.Failed > 0 {
		fmt.Fprintf(e.stdout, "first not measurable: %s\n", res.FirstFailure)
	}
	return nil
}
