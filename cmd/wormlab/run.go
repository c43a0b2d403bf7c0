package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
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
			"interval of the makespan and of makespan / lower bound (--json: as JSON); Ctrl-C\n"+
			"stops it with the trials done, marked, exit 1. A deadlock exits 1 and names the wait cycle.\n\n"+
			"algorithms:\n"+algorithmList())
	algo := fs.String("algo", "greedy", "algorithm: "+strings.Join(online.Algorithms(), ", "))
	arb := fs.String("arb", engine.ArbMessage, "arbitration policy: "+strings.Join(engine.Policies(), ", "))
	seed := fs.Uint64("seed", 1, "random seed")
	trials := fs.Int("trials", 0, "run N seeds and print a summary")
	out := fs.String("o", "", "write the schedule or summary to FILE")
	jsonOut := fs.Bool("json", false, "with --trials: print the summary as JSON")
	delay := fs.String("delay", "", "deprecated: --delay random is --algo delayed-random")
	online.DefineAll(fs)
	meet := fs.Bool("meet", false, "always examine every pair of paths for the meet diagnostic (by default skipped when its work, sum_e c_e^2, is above the instance's flit-hops)")
	rotate := fs.Bool("rotate", true, "let a closed cycle of worms waiting for each other's tails shift, as MODEL.md's holding rule allows (--rotate=false: a cyclic wait is a wait, as in Dally and Seitz's routers)")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	if *trials < 0 {
		return usageError("--trials: %d is negative", *trials)
	}
	if *trials == 0 {
		if err := unused(e, fs, "without --trials (a single run writes its schedule as MODEL.md JSON already)", "json"); err != nil {
			return err
		}
	}
	switch *delay {
	case "":
	case online.DelayRandom:
		deprecated(e, "--delay random", "--algo delayed-random")
		if *algo == "delayed-greedy" {
			*algo = "delayed-random"
		}
	case online.DelayPhases:
		deprecated(e, "--delay phases", "--algo delayed-greedy")
	default:
		return usageError("--delay: unknown variant %q (deprecated flag; use --algo delayed-greedy or delayed-random)", *delay)
	}
	entry, err := online.Lookup(*algo)
	if err != nil {
		return usageError("--algo: %v", strings.TrimPrefix(err.Error(), "online: "))
	}
	if err := checkParams(fs, entry); err != nil {
		return err
	}
	alg, err := entry.New(fs)
	if err != nil {
		return usageError("%v", strings.TrimPrefix(err.Error(), "online: "))
	}
	if err := engine.CheckPolicy(*arb); err != nil {
		return usageError("--arb: %v", strings.TrimPrefix(err.Error(), "engine: "))
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	in, err := readInstance(e, args[0])
	if err != nil {
		return err
	}
	opt := online.Options{Arb: *arb, Seed: *seed, Rotate: *rotate}
	if *meet {
		opt.MeetBudget = -1
	}
	ctx, stop := interruptContext()
	defer stop()
	if *trials > 0 {
		sum, err := online.Trials(ctx, in, alg, opt, *trials)
		if err != nil {
			return runError(err)
		}
		if err := writeOut(e, *out, func(w io.Writer) error {
			if *jsonOut {
				return writeJSON(w, sum)
			}
			return writeSummary(w, in, sum)
		}); err != nil {
			return err
		}
		if sum.Interrupted {
			// a summary of fewer trials than asked is a measurement cut
			// short, as a sim row is (docs/cli.md, Ctrl-C): exit 1
			return negative("interrupted after %d of %d trials: the summary is theirs", sum.Done, sum.Trials)
		}
		return nil
	}
	res, err := online.Run(ctx, in, alg, opt)
	if err != nil {
		if ctx.Err() != nil {
			return negative("interrupted before the run finished: no schedule")
		}
		return runError(err)
	}
	s := res.Schedule
	s.SetExtra("online", res.Report())
	return writeOut(e, *out, func(w io.Writer) error { return model.WriteSchedule(w, s) })
}

// algorithmList is the help text's list of the registered algorithms.
func algorithmList() string {
	var b strings.Builder
	for _, n := range online.Algorithms() {
		en, _ := online.Lookup(n)
		fmt.Fprintf(&b, "  %-16s %s\n", n, en.Summary)
	}
	return strings.TrimRight(b.String(), "\n")
}

// checkParams rejects a parameter flag that the chosen algorithm does not read.
func checkParams(fs *flag.FlagSet, entry *online.Entry) error {
	all := flag.NewFlagSet("", flag.ContinueOnError)
	online.DefineAll(all)
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if bad != nil || all.Lookup(f.Name) == nil || slices.Contains(entry.Params, f.Name) {
			return
		}
		bad = usageError("--%s does not apply to --algo %s", f.Name, entry.Name)
	})
	return bad
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

func writeSummary(w io.Writer, in *model.Instance, s *online.Summary) error {
	name := in.Name
	if name == "" {
		name = "(unnamed)" // as wormlab stats prints it
	}
	fmt.Fprintf(w, "instance %s: %d messages, lower bound %d\n", name, len(in.Messages), s.LowerBound)
	if s.Interrupted {
		fmt.Fprintf(w, "algorithm %s, arbitration %s, %d of %d trials (interrupted), seeds %d..%d\n", s.Algo, s.Arb, s.Done, s.Trials, s.FirstSeed, s.FirstSeed+uint64(s.Done)-1)
	} else {
		fmt.Fprintf(w, "algorithm %s, arbitration %s, %d trials, seeds %d..%d\n", s.Algo, s.Arb, s.Trials, s.FirstSeed, s.FirstSeed+uint64(s.Trials)-1)
	}
	st := func(name string, x online.Stat, prec int) {
		fmt.Fprintf(w, "%-24s mean %.*f, 95%% interval [%.*f, %.*f], min %.*f, max %.*f\n", name, prec, x.Mean, prec, x.Lo, prec, x.Hi, prec, x.Min, prec, x.Max)
	}
	st("makespan", s.Makespan, 2)
	st("makespan / lower bound", s.Ratio, 3)
	if s.Meet.Skipped != "" {
		fmt.Fprintf(w, "paths meet in at most one contiguous run: not examined (%s; --meet examines them)\n", s.Meet.Skipped)
	} else if s.Meet.OneRun {
		fmt.Fprintln(w, "paths meet in at most one contiguous run: yes")
	} else {
		fmt.Fprintf(w, "paths meet in at most one contiguous run: no (%q and %q meet in %d runs; seed 000's analysis assumes one)\n", s.Meet.A, s.Meet.B, s.Meet.MaxRuns)
	}
	return nil
}
