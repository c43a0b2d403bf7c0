package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/online"
)

func init() {
	register(&command{
		name:    "run",
		summary: "route an instance online: greedy, delayed-greedy, phased or store-and-forward",
		run:     runRun,
	})
}

func runRun(e *env) error {
	fs := newFlags(e, "run", "INSTANCE",
		"Routes an instance (\"-\" reads standard input) with an online algorithm on the\n"+
			"flit-level engine and writes the schedule as MODEL.md JSON (store-and-forward:\n"+
			"model \"store-and-forward\", hop times as \"cross\"), with the run's figures under\n"+
			"\"online\". With --trials N it runs seeds S .. S+N-1 and prints the mean and 95%\n"+
			"interval of the makespan and of makespan / lower bound. A deadlock exits 1 and\n"+
			"names the wait cycle.")
	algo := fs.String("algo", online.Greedy, "algorithm: "+strings.Join(online.Algorithms(), ", "))
	arb := fs.String("arb", engine.ArbMessage, "arbitration policy: "+strings.Join(engine.Policies(), ", "))
	seed := fs.Uint64("seed", 1, "random seed")
	trials := fs.Int("trials", 0, "run N seeds and print a summary")
	out := fs.String("o", "", "write the schedule or summary to FILE")
	delay := fs.String("delay", online.DelayPhases, "delayed-greedy variant: phases (Algorithm A) or random")
	k := fs.Float64("k", 0, "Algorithm A: ceil(k c L) phases (0: 32e)")
	phaseT := fs.Int("T", 0, "Algorithm A: phase length (0: 2d + 2 L ceil(log2 n))")
	doubling := fs.Bool("doubling", false, "Algorithm A: double T each round, retry late worms (Theorem 5)")
	r := fs.Int("R", 0, "random delays in [0, R-1] (0: c for delayed-greedy, 1 for store)")
	unit := fs.Int("unit", 0, "random delays are multiplied by this (0: L for delayed-greedy, 1 for store)")
	alpha := fs.Float64("alpha", 0, "phased: alpha Delta colours (0: 1/2)")
	rotate := fs.Bool("rotate", true, "let a closed cycle of worms waiting for each other's tails shift, as MODEL.md's holding rule allows (--rotate=false: a cyclic wait is a wait, as in Dally and Seitz's routers)")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	if *trials < 0 {
		return usageError("--trials: %d is negative", *trials)
	}
	in, err := readInstance(e, args[0])
	if err != nil {
		return err
	}
	cfg := online.Config{Algo: *algo, Arb: *arb, Seed: *seed, Delay: *delay, K: *k, T: *phaseT,
		Doubling: *doubling, R: *r, Unit: *unit, Alpha: *alpha, Rotate: *rotate}
	ctx := context.Background()
	if *trials > 0 {
		sum, err := online.Trials(ctx, in, cfg, *trials)
		if err != nil {
			return runError(err)
		}
		return writeOut(e, *out, func(w io.Writer) error { return writeSummary(w, in, sum) })
	}
	res, err := online.Run(ctx, in, cfg)
	if err != nil {
		return runError(err)
	}
	s := res.Schedule
	s.SetExtra("online", runNote(res))
	return writeOut(e, *out, func(w io.Writer) error { return model.WriteSchedule(w, s) })
}

// runError maps a deadlock to exit status 1 and anything else to bad input.
func runError(err error) error {
	var d *engine.Deadlock
	if errors.As(err, &d) {
		return negative("%v", d)
	}
	if errors.Is(err, online.ErrDeadlock) {
		return negative("%v", err)
	}
	return err
}

// runNote is the "online" field of a schedule written by wormlab run.
func runNote(r *online.Result) map[string]any {
	n := map[string]any{
		"algo": r.Algo, "arb": r.Arb, "seed": r.Seed,
		"instance_lower_bound": r.LowerBound,
		"meet":                 r.Meet,
		"flit_moves":           r.Counters.FlitMoves,
		"lost_arbitrations":    r.Counters.Lost,
	}
	if r.Rotate {
		n["rotate"] = true
	}
	if d := r.Delayed; d != nil {
		x := map[string]any{"variant": d.Variant}
		if d.Variant == online.DelayRandom {
			x["R"], x["unit"] = d.R, d.Unit
		} else {
			x["k"], x["phases"], x["T"], x["phase_bound"] = d.K, d.Phases, d.T, d.PhaseBound
			if d.Rounds > 1 || len(d.LatePerRound) > 0 {
				x["rounds"], x["final_T"], x["late_per_round"] = d.Rounds, d.FinalT, d.LatePerRound
			} else {
				x["late"] = d.Late
			}
		}
		n["delayed"] = x
	}
	if p := r.Phased; p != nil {
		n["phased"] = map[string]any{"alpha": p.Alpha, "delta": p.Delta, "colours": p.Colours,
			"lambda": p.Lambda, "subphase": p.SubPhase, "phase_one_end": p.PhaseOneEnd,
			"undelivered_after_phase_one": p.Undelivered, "removed_flit_moves": r.Counters.WastedFlits}
	}
	return n
}

func writeSummary(w io.Writer, in *model.Instance, s *online.Summary) error {
	name := in.Name
	if name == "" {
		name = "(unnamed)" // as wormlab stats prints it
	}
	fmt.Fprintf(w, "instance %s: %d messages, lower bound %d\n", name, len(in.Messages), s.LowerBound)
	fmt.Fprintf(w, "algorithm %s, arbitration %s, %d trials, seeds %d..%d\n", s.Algo, s.Arb, s.Trials, s.FirstSeed, s.FirstSeed+uint64(s.Trials)-1)
	st := func(name string, x online.Stat, prec int) {
		fmt.Fprintf(w, "%-24s mean %.*f, 95%% interval [%.*f, %.*f], min %.*f, max %.*f\n", name, prec, x.Mean, prec, x.Lo, prec, x.Hi, prec, x.Min, prec, x.Max)
	}
	st("makespan", s.Makespan, 2)
	st("makespan / lower bound", s.Ratio, 3)
	if s.Meet.OneRun {
		fmt.Fprintln(w, "paths meet in at most one contiguous run: yes")
	} else {
		fmt.Fprintf(w, "paths meet in at most one contiguous run: no (%q and %q meet in %d runs; seed 000's analysis assumes one)\n", s.Meet.A, s.Meet.B, s.Meet.MaxRuns)
	}
	return nil
}
