package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

func init() {
	register(&command{
		name:    "solve",
		summary: "optimal schedule with a SAT proof (or export the CNF / read a solver's answer)",
		run:     runSolve,
	})
}

func runSolve(e *env) error {
	fs := newFlags(e, "solve", "INSTANCE",
		"Finds a schedule of least makespan in the model (wormhole by default) and proves it\n"+
			"optimal: lower bounds (the edge-set bound among them), a constraint-programming\n"+
			"search for schedules that meet them, then SAT (gini). The schedule carries\n"+
			"lower_bound, optimal and the solver's statistics. With --timeout it stops early\n"+
			"with the best schedule and lower bound (optimal false). --dimacs FILE --horizon T\n"+
			"writes the CNF \"a schedule of makespan <= T exists\" and exits; --assignment FILE\n"+
			"--horizon T reads a SAT solver's answer for that CNF (\"s\"/\"v\" lines) back into a\n"+
			"verified schedule. --certify DIR writes a checkable certificate of optimality (a\n"+
			"formula it needs within --max-memory). Ctrl-C (or SIGTERM) stops within a\n"+
			"second and writes the best schedule with its proven bound (optimal false). A formula\n"+
			"over --max-memory is not built: solve then proves the bounds of 'wormlab lower bounds'\n"+
			"that fit the budget, writes the best schedule found without a formula (optimal when\n"+
			"it meets them) and says so on stderr; --dimacs refuses it.")
	modelName := fs.String("model", model.Wormhole, "schedule model: wormhole or bufferless")
	dimacs := fs.String("dimacs", "", "write the CNF for --horizon to this file and exit")
	horizon := fs.Int("horizon", 0, "the horizon T of --dimacs and --assignment")
	assignment := fs.String("assignment", "", "decode this SAT solver output for --horizon")
	out := fs.String("o", "", "write the schedule to this file (default stdout)")
	certDir := fs.String("certify", "", "after solving, write a certificate of optimality into this directory and check it")
	memory := memoryFlagUsage(fs, "memory budget of the formula, the schedule searches, the bounds run in place of a formula and --certify's formula: each is skipped when its estimate exceeds it (e.g. 4G, 512M)")
	// The flags of the search, refused with --dimacs and --assignment, which do
	// not search: every flag declared in this block, so that none is forgotten
	// (TestSolveSearchFlagsRefused checks each of solve's flags).
	var (
		timeout, cpuLimit                                                        *time.Duration
		noSym, noClique, noCards, noCP, noBusy, noEdgeSet, noStage, noLNS, trace *bool
		workers                                                                  *int
	)
	search := declared(fs, func() {
		timeout = fs.Duration("timeout", 0, "stop after this long (0: no limit)")
		cpuLimit = fs.Duration("cpu-limit", 0, "stop after this much CPU time of the process (0: no limit), like --timeout")
		noSym = fs.Bool("no-symmetry", false, "do not fix the order of identical messages")
		noClique = fs.Bool("no-clique", false, "do not use the aligned-clique lower bound")
		noCards = fs.Bool("no-cards", false, "leave out the cardinality constraints")
		noCP = fs.Bool("no-cp", false, "skip the schedule search that runs before the SAT search")
		noBusy = fs.Bool("no-busy", false, "leave out the busy-slot clauses at the lower bound")
		noEdgeSet = fs.Bool("no-edge-set", false, "skip the edge-set bound (an exhaustive search over the tight edges)")
		noStage = fs.Bool("no-bufferless-stage", false, "wormhole model: do not run the bufferless solve first")
		noLNS = fs.Bool("no-lns", false, "skip the large-neighbourhood search of the bufferless model")
		trace = fs.Bool("trace", false, "write a line to stderr whenever the best makespan or the proven lower bound changes, with the process's CPU seconds")
		workers = fs.Int("workers", 1, "SAT solvers run at once: 2 runs the probe at the lower bound beside the descending search")
	})
	pos, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	if *modelName != model.Wormhole && *modelName != model.Bufferless {
		return usageError("--model: %q is neither %s nor %s", *modelName, model.Wormhole, model.Bufferless)
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *cpuLimit < 0 {
		return usageError("--cpu-limit: %v is negative", *cpuLimit)
	}
	if *workers < 1 || *workers > 2 {
		return usageError("--workers: %d is not 1 or 2", *workers)
	}
	if (*dimacs != "" || *assignment != "") && *horizon < 1 {
		return usageError("--dimacs and --assignment need --horizon T >= 1")
	}
	if *certDir != "" && (*dimacs != "" || *assignment != "") {
		return usageError("--certify goes with solving, not with --dimacs or --assignment")
	}
	if *dimacs != "" && *assignment != "" {
		return usageError("--dimacs and --assignment exclude each other")
	}
	if *horizon != 0 && *dimacs == "" && *assignment == "" {
		return usageError("--horizon needs --dimacs or --assignment")
	}
	// The search's flags are refused where nothing is searched, not ignored.
	if *dimacs != "" {
		if err := unused(e, fs, "with --dimacs (it writes the formula without solving)", append(search, "o")...); err != nil {
			return err
		}
	}
	if *assignment != "" {
		if err := unused(e, fs, "with --assignment (it decodes the solver's answer without solving)", search...); err != nil {
			return err
		}
	}
	if *modelName == model.Bufferless {
		if err := unused(e, fs, "by the bufferless model (it is the wormhole model's first stage)", "no-bufferless-stage"); err != nil {
			return err
		}
	}
	for _, p := range []string{*out, *dimacs} {
		if err := checkOutput(p); err != nil {
			return err
		}
	}
	if err := checkCertDir(*certDir); err != nil {
		return err
	}
	in, err := readInstance(e, pos[0])
	if err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	if *dimacs != "" {
		f, err := optimal.EncodeWithin(in, *modelName, *horizon, budget)
		if err != nil {
			return err
		}
		return writeOut(e, *dimacs, f.WriteDIMACS)
	}
	if *assignment != "" {
		return decodeAssignment(e, in, *modelName, *horizon, *assignment, *out, budget)
	}
	ctx, stop := interruptContext()
	defer stop()
	interrupt := ctx // certification after the solve honours Ctrl-C, not --timeout
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	opt := optimal.Options{Model: *modelName, NoSymmetry: *noSym, NoClique: *noClique, NoCards: *noCards, NoCP: *noCP, NoBusy: *noBusy, NoEdgeSet: *noEdgeSet, NoStage: *noStage, NoLNS: *noLNS, Workers: *workers, MaxMemory: budget}
	if *cpuLimit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = cpuLimitContext(ctx, *cpuLimit)
		defer cancel()
		end := processCPU() + *cpuLimit
		opt.Left = func() time.Duration { return end - processCPU() }
	}
	traced := [2]int{-1, -1}
	traceLine := func(upper, lower int) {
		if [2]int{upper, lower} != traced {
			traced = [2]int{upper, lower}
			fmt.Fprintf(e.stderr, "solve: %.2f s of CPU: makespan %d, lower bound %d\n", processCPU().Seconds(), upper, lower)
		}
	}
	switch {
	case *trace:
		sat, lns := false, false
		opt.Progress = func(p optimal.Progress) {
			if !lns && p.LNS {
				lns = true
				fmt.Fprintf(e.stderr, "solve: %.2f s of CPU: neighbourhood search from makespan %d\n", processCPU().Seconds(), p.Upper)
			}
			traceLine(p.Upper, p.Lower)
			if !sat && p.Vars > 0 {
				sat = true
				fmt.Fprintf(e.stderr, "solve: %.2f s of CPU: SAT search from makespan %d\n", processCPU().Seconds(), p.Upper)
			}
		}
	case e.stderrTTY:
		opt.Progress = func(p optimal.Progress) {
			fmt.Fprintf(e.stderr, "\rsolve: horizon %d  lower %d  upper %d  vars %d  clauses %d  conflicts %d  %.1fs   ",
				p.Horizon, p.Lower, p.Upper, p.Vars, p.Clauses, p.Conflicts, p.Elapsed.Seconds())
		}
	}
	res, err := optimal.Solve(ctx, in, opt)
	if e.stderrTTY && !*trace {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		return err
	}
	if *trace {
		traceLine(res.Schedule.Makespan, res.Lower)
	}
	if !res.Optimal && ctx.Err() != nil {
		why := "timed out"
		switch {
		case errors.Is(context.Cause(ctx), errCPULimit):
			why = "stopped at the CPU limit"
		case errors.Is(ctx.Err(), context.Canceled):
			why = "interrupted"
		}
		fmt.Fprintf(e.stderr, "wormlab solve: %s after %.1fs: makespan %d, proven lower bound %d (optimal false)\n",
			why, res.Stats.Elapsed.Seconds(), res.Schedule.Makespan, res.Lower)
	}
	if res.Stats.Skipped != "" {
		fmt.Fprintf(e.stderr, "wormlab solve: no SAT search: %s (--max-memory); makespan %d (%s), lower bound %d (%s), optimal %t\n",
			res.Stats.Skipped, res.Schedule.Makespan, res.Stats.UpperSource, res.Lower, res.Stats.LowerSource, res.Optimal)
	}
	if err := writeSchedule(e, *out, res.Schedule); err != nil {
		return err
	}
	if *certDir != "" {
		return certifyTo(interrupt, e, *certDir, in, res, *modelName, budget)
	}
	return nil
}

// decodeAssignment reads a SAT solver's answer for Encode(in, model, T) and writes the
// schedule it encodes, after the verifier accepts it.
func decodeAssignment(e *env, in *model.Instance, modelName string, T int, path, out string, budget int64) error {
	f, err := optimal.EncodeWithin(in, modelName, T, budget)
	if err != nil {
		return err
	}
	r, closer, err := open(e, path)
	if err != nil {
		return err
	}
	defer closer()
	value, err := optimal.ReadAssignment(r, f.Vars)
	if errors.Is(err, optimal.ErrUnsatisfiable) {
		return negative("%s: %v: no %s schedule of makespan <= %d", path, err, modelName, T)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	s, err := f.Decode(value)
	if err != nil {
		return negative("%s: %v", path, err)
	}
	if err := verify.Schedule(in, s); err != nil {
		return negative("%s: %v", path, err)
	}
	return writeOut(e, out, func(w io.Writer) error { return model.WriteSchedule(w, s) })
}

// checkCertDir checks before the work starts that --certify DIR can be written: DIR
// is a directory or does not exist yet in an existing directory.
func checkCertDir(dir string) error {
	if dir == "" {
		return nil
	}
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return usageError("--certify %s: not a directory", dir)
		}
		return nil
	}
	// "cert/" names the directory cert: its parent is ".", not "cert".
	parent := filepath.Dir(filepath.Clean(dir))
	if fi, err := os.Stat(parent); err != nil {
		return usageError("--certify %s: directory %s does not exist", dir, parent)
	} else if !fi.IsDir() {
		return usageError("--certify %s: %s is not a directory", dir, parent)
	}
	return nil
}
