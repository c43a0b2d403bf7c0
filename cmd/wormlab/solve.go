package main

import (
	"context"
	"errors"
	"fmt"
	"io"

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
			"optimal with gini. The schedule carries lower_bound, optimal and the solver's\n"+
			"statistics. With --timeout it stops early with the best schedule and lower bound\n"+
			"(optimal false). --dimacs FILE --horizon T writes the CNF \"a schedule of makespan\n"+
			"<= T exists\" and exits; --assignment FILE --horizon T reads a SAT solver's answer\n"+
			"for that CNF (\"s\"/\"v\" lines) back into a verified schedule. --certify DIR\n"+
			"writes a checkable certificate of optimality.")
	modelName := fs.String("model", model.Wormhole, "schedule model: wormhole or bufferless")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	dimacs := fs.String("dimacs", "", "write the CNF for --horizon to this file and exit")
	horizon := fs.Int("horizon", 0, "the horizon T of --dimacs and --assignment")
	assignment := fs.String("assignment", "", "decode this SAT solver output for --horizon")
	out := fs.String("o", "", "write the schedule to this file (default stdout)")
	certDir := fs.String("certify", "", "after solving, write a certificate of optimality into this directory and check it")
	noSym := fs.Bool("no-symmetry", false, "do not fix the order of identical messages")
	noClique := fs.Bool("no-clique", false, "do not use the aligned-clique lower bound")
	noCards := fs.Bool("no-cards", false, "leave out the cardinality constraints")
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
	in, err := readInstance(e, pos[0])
	if err != nil {
		return err
	}
	if *dimacs != "" || *assignment != "" {
		if err := checkHorizon(in, *horizon); err != nil {
			return err
		}
	}
	if *dimacs != "" {
		f, err := optimal.Encode(in, *modelName, *horizon)
		if err != nil {
			return err
		}
		return writeOut(e, *dimacs, f.WriteDIMACS)
	}
	if *assignment != "" {
		return decodeAssignment(e, in, *modelName, *horizon, *assignment, *out)
	}
	ctx := context.Background()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	opt := optimal.Options{Model: *modelName, NoSymmetry: *noSym, NoClique: *noClique, NoCards: *noCards}
	if e.stderrTTY {
		opt.Progress = func(p optimal.Progress) {
			fmt.Fprintf(e.stderr, "\rsolve: horizon %d  lower %d  upper %d  vars %d  clauses %d  conflicts %d  %.1fs   ",
				p.Horizon, p.Lower, p.Upper, p.Vars, p.Clauses, p.Conflicts, p.Elapsed.Seconds())
		}
	}
	res, err := optimal.Solve(ctx, in, opt)
	if e.stderrTTY {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		return err
	}
	if err := writeSchedule(e, *out, res.Schedule); err != nil {
		return err
	}
	if *certDir != "" {
		return certifyTo(e, *certDir, in, res, *modelName)
	}
	return nil
}

// decodeAssignment reads a SAT solver's answer for Encode(in, model, T) and writes the
// schedule it encodes, after the verifier accepts it.
func decodeAssignment(e *env, in *model.Instance, modelName string, T int, path, out string) error {
	f, err := optimal.Encode(in, modelName, T)
	if err != nil {
		return err
	}
	r, closer, err := open(e, path)
	if err != nil {
		return err
	}
	defer closer()
	value, err := optimal.ReadAssignment(r)
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

// maxEncoding bounds T * sum_i d_i for --dimacs and --assignment: the encoding has
// about that many variables (measured: 5T on MODEL.md's example, whose paths have 5
// hops, at about 350 bytes each while encoding), so 2^25 needs some 12 GB. A larger
// horizon would exhaust memory and crash instead of answering.
const maxEncoding = 1 << 25

func checkHorizon(in *model.Instance, T int) error {
	hops := 0
	for i := range in.Messages {
		hops += len(in.Messages[i].Path)
	}
	if hops > 0 && T > maxEncoding/hops {
		return fmt.Errorf("--horizon %d: the CNF would have about T * sum_i d_i = %d * %d variables, more than %d", T, T, hops, maxEncoding)
	}
	return nil
}
