package main

import (
	"fmt"
	"os"

	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/model"
)

func init() {
	register(&command{
		name:    "check-proof",
		summary: "check a DRUP/DRAT proof (text or binary) that a CNF is unsatisfiable",
		run:     runCheckProof,
	})
}

func runCheckProof(e *env) error {
	fs := newFlags(e, "check-proof", "CNF PROOF",
		"Checks a clausal proof (DRUP or DRAT, text or binary, detected from its bytes)\n"+
			"that the DIMACS formula CNF is unsatisfiable, with wormlab's own checker: every\n"+
			"lemma must follow by unit propagation (RUP) or be RAT on its first literal, and\n"+
			"the proof must reach the empty clause. Prints VERIFIED (exit 0) or names the\n"+
			"first lemma that fails (exit 1); unreadable or malformed files exit 2.\n"+
			"--backward checks only the lemmas the refutation needs, latest first (faster;\n"+
			"a failure named is then the latest needed lemma that fails).")
	backward := fs.Bool("backward", false, "check only the lemmas the refutation needs (backward checking)")
	asJSON := fs.Bool("json", false, "print the verdict as JSON")
	args, err := parseFlags(fs, e.args, 2, 2)
	if err != nil {
		return err
	}
	cnf, proof, err := readProofFiles(e, args[0], args[1])
	if err != nil {
		return err
	}
	check := drat.Check
	if *backward {
		check = drat.CheckBackward
	}
	ctx, stop := withTimeout(e, 0)
	defer stop()
	r, err := check(ctx, cnf, proof)
	if err != nil && ctx.Err() != nil {
		return negative("interrupted: the proof was not checked to its end, nothing verified")
	}
	if err != nil {
		return err
	}
	if *asJSON {
		v := struct {
			Verified bool   `json:"verified"`
			Summary  string `json:"summary,omitempty"`
			Failure  string `json:"failure,omitempty"`
		}{Verified: r.Verified}
		if r.Verified {
			v.Summary = proofSummary(proof, r)
		} else {
			v.Failure = fmt.Sprint(r.Failure)
		}
		if err := writeJSON(e.stdout, v); err != nil {
			return err
		}
	} else if r.Verified {
		fmt.Fprintf(e.stdout, "VERIFIED: %s\n", proofSummary(proof, r))
	} else {
		fmt.Fprintf(e.stdout, "NOT VERIFIED: %v\n", r.Failure)
	}
	if !r.Verified {
		return negative("NOT VERIFIED: %v", r.Failure)
	}
	return nil
}

// readProofFiles reads a DIMACS formula and a proof; errors name the file.
func readProofFiles(e *env, cnfPath, proofPath string) (*drat.CNF, *drat.Proof, error) {
	r, closer, err := open(e, cnfPath)
	if err != nil {
		return nil, nil, err
	}
	cnf, err := drat.ReadCNF(r)
	closer()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", cnfPath, err)
	}
	f, err := os.Open(proofPath)
	if err != nil {
		return nil, nil, err
	}
	data, err := model.ReadWithin(f, maxProofBytes, "a proof")
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", proofPath, err)
	}
	proof, err := drat.ParseProof(data, drat.Auto)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", proofPath, err)
	}
	return cnf, proof, nil
}

// maxProofBytes bounds the proof check-proof reads (4 GiB, the default
// --max-memory of the commands that write proofs): a proof from /dev/zero or a
// pipe that never closes is refused once that much has come, not read until the
// process is killed.
const maxProofBytes = 4 << 30

func proofSummary(p *drat.Proof, r *drat.Result) string {
	s := r.Stats
	end := fmt.Sprintf("conflict after step %d", s.RefutedAt)
	if s.RefutedAt == 0 {
		end = "the formula is refuted by unit propagation"
	}
	skipped := ""
	if s.Skipped > 0 {
		skipped = fmt.Sprintf(", %d not needed", s.Skipped)
	}
	return fmt.Sprintf("%s proof, %d steps, %d lemmas checked (%d by RAT)%s, %d deletions (%d ignored, %d missing), %s",
		p.Format, p.Len(), s.Lemmas, s.RAT, skipped, s.Deletions, s.IgnoredDeletions, s.MissingDeletions, end)
}
