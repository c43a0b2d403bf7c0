package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

func init() {
	register(&command{
		name:    "check-certificate",
		summary: "check a certificate written by 'wormlab solve --certify DIR' or 'wormlab deadlock --certify DIR'",
		run:     runCheckCert,
	})
}

func runCheckCert(e *env) error {
	fs := newFlags(e, "check-certificate", "DIR",
		"Checks a certificate of optimality: the schedule is legal with the claimed\n"+
			"makespan, and either a closed-form lower bound recomputed from the instance\n"+
			"equals it, or the CNF of one step less, re-encoded from the instance, has the\n"+
			"hash the manifest names and the proof refutes it (wormlab's own DRAT checker).\n"+
			"A deadlock certificate (wormlab deadlock --certify) is checked by the checker's own\n"+
			"enumeration of the routing's states: the fixpoint's order, or a configuration and its\n"+
			"replay and minimality, or a DRAT proof of the re-encoded formula.\n"+
			"Prints VERIFIED (exit 0) or what failed (exit 1); unreadable input exits 2.")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	memory := memoryFlagUsage(fs, "memory budget of the formula re-encoded from the instance (e.g. 8G): give the --max-memory the certificate was written with")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	ctx, stop := withTimeout(e, 0)
	defer stop()
	r, err := certify.CheckWithin(ctx, args[0], budget)
	if err != nil && ctx.Err() != nil {
		return negative("interrupted: the certificate was not checked to its end, nothing verified")
	}
	if err != nil {
		return err
	}
	if *asJSON {
		v := struct {
			Verified bool     `json:"verified"`
			Kind     string   `json:"kind,omitempty"`
			Model    string   `json:"model,omitempty"`
			Makespan int      `json:"makespan,omitempty"`
			Claim    string   `json:"claim,omitempty"`
			Checked  []string `json:"checked"`
			Failure  string   `json:"failure,omitempty"`
		}{r.Verified, r.Kind, r.Model, r.Makespan, r.Claim, r.Checked, r.Failure}
		if v.Checked == nil {
			v.Checked = []string{}
		}
		if err := writeJSON(e.stdout, v); err != nil {
			return err
		}
		if !r.Verified {
			return negative("NOT VERIFIED: %s", r.Failure)
		}
		return nil
	}
	for _, c := range r.Checked {
		fmt.Fprintf(e.stdout, "ok: %s\n", c)
	}
	if !r.Verified {
		fmt.Fprintf(e.stdout, "NOT VERIFIED: %s\n", r.Failure)
		return negative("NOT VERIFIED: %s", r.Failure)
	}
	if r.Claim != "" {
		fmt.Fprintf(e.stdout, "VERIFIED: %s (%s certificate)\n", r.Claim, r.Kind)
		return nil
	}
	fmt.Fprintf(e.stdout, "VERIFIED: makespan %d is optimal (%s model, %s certificate)\n", r.Makespan, r.Model, r.Kind)
	return nil
}

// certifyTo writes a certificate of optimality of res into dir and checks it; it is
// what 'wormlab solve --certify DIR' calls after solving. The schedule written is
// res.Schedule; modelName is the model it was solved in (empty: wormhole). A result
// that is not proven optimal (a timeout) is a negative answer (exit 1): there is
// nothing to certify. budget is the memory budget of the refutation's formula,
// written and checked (solve's --max-memory; 0: the default). Call it after the
// schedule has been written.
func certifyTo(ctx context.Context, e *env, dir string, in *model.Instance, res *optimal.Result, modelName string, budget int64) error {
	if modelName == "" {
		modelName = model.Wormhole
	}
	if res != nil && res.Schedule != nil && res.Schedule.Model != modelName {
		return fmt.Errorf("certify: the schedule is in the %s model, not %s", res.Schedule.Model, modelName)
	}
	if res != nil && res.Schedule != nil && !res.Optimal {
		return negative("certify: makespan %d is not proven optimal (best lower bound %d): no certificate written", res.Schedule.Makespan, res.Lower)
	}
	man, err := certify.WriteOptions(ctx, dir, in, res, certify.Options{Note: func(s string) { fmt.Fprintln(e.stderr, "wormlab solve:", s) }, MaxMemory: budget})
	if err != nil && ctx.Err() != nil {
		// Ctrl-C in the edge-set search or the proof is a stop, not bad input
		// (docs/cli.md, Ctrl-C); WriteOptions leaves dir as it was
		return negative("certify: interrupted while writing the certificate to %s: no certificate written", dir)
	}
	var se *optimal.SizeError
	if errors.As(err, &se) && res != nil {
		// the refutation's formula is too large; how the optimum was proven
		// is worded by its source (the solver's formula can be smaller than
		// certify's, so a horizon solve refuted can be refused here)
		var how string
		switch src := res.Stats.LowerSource; src {
		case "unsat":
			how = fmt.Sprintf(", proven by solve's refutation of horizon %d, whose proof is not kept", res.Lower-1)
		case "encoding":
			how = fmt.Sprintf(", proven by solve's formula of horizon %d, which holds the empty clause", res.Lower-1)
		case "edge-set":
			// an edge-set certificate exists for such optima; certify's own
			// search found none for this one (the note before says so)
			how = " by solve's edge-set bound, which certify's own search of edge sets did not confirm"
		default:
			how = fmt.Sprintf(" by the %s bound, which has no certificate", src)
		}
		return negative("certify: makespan %d is optimal%s, and the refutation of horizon %d is refused: %v: no certificate written",
			res.Schedule.Makespan, how, se.Horizon, err)
	}
	if err != nil {
		return err
	}
	r, err := certify.CheckWithin(ctx, dir, budget) // Ctrl-C stops the proof check too
	if err != nil && ctx.Err() != nil {
		return negative("certify: interrupted while checking the certificate written to %s: not checked", dir)
	}
	if err != nil {
		return err
	}
	if !r.Verified {
		return negative("certificate in %s does not check: %s", dir, r.Failure)
	}
	what := "closed-form bound " + man.Kind
	if man.Bound != nil {
		what = fmt.Sprintf("closed-form %s bound (%s)", man.Bound.Name, man.Bound.Arithmetic)
	}
	if ref := man.Refutation; ref != nil {
		what = fmt.Sprintf("horizon %d refuted by %s (%d vars, %d clauses)", ref.Horizon, ref.Prover, ref.Vars, ref.Clauses)
	}
	if es := man.EdgeSet; es != nil {
		what = fmt.Sprintf("horizon %d refuted on the edge set %v (%s, %d search nodes)", es.Horizon, es.Edges, strings.Join(es.EdgeNames, ", "), es.Nodes)
	}
	fmt.Fprintf(e.stderr, "wormlab solve: certificate written to %s: %s\n", dir, what)
	return nil
}
