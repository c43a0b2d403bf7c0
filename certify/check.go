package certify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// Report is the outcome of Check: Verified, or the first check that failed.
type Report struct {
	Verified bool
	Kind     string
	Makespan int
	Model    string
	// Checked lists the checks that passed, in order, one line each.
	Checked []string
	// Failure names the check that failed ("" when Verified).
	Failure string
	// Proof is the proof checker's result for a refutation certificate.
	Proof *drat.Result
	// ProofTime is the time the proof check (or the edge-set search) took.
	ProofTime time.Duration
	// Claim is what a deadlock certificate claims (deadlock.go), "" for a
	// certificate of optimality.
	Claim string
}

// Check checks the certificate in dir without trusting anything in it but the
// instance: the instance file matches its hash; the schedule is legal for it
// (verify.Schedule) with the claimed makespan and model; and either the closed-form
// bound recomputed from the instance equals the makespan, or the CNF re-encoded from
// the instance for horizon makespan-1 has the hash the manifest names (so the file
// is the formula this build's encoder produces) and the proof refutes it
// (drat.CheckBackward: every lemma the refutation needs is checked), or, for an
// edge-set certificate, this package's own exhaustive search of the relaxation to
// the named edges finds no solution at horizon makespan-1 (edgeset.go).
//
// A failed check is reported in the Report (Verified false); the error is for
// certificates that cannot be read: missing files, malformed JSON, CNF or proof.
func Check(dir string) (*Report, error) {
	return CheckContext(context.Background(), dir)
}

// CheckContext is Check with a context for the proof check.
func CheckContext(ctx context.Context, dir string) (*Report, error) {
	return CheckWithin(ctx, dir, 0)
}

// CheckWithin is CheckContext with the memory budget, in bytes, of the formula
// it re-encodes from the instance (0: optimal.DefaultMaxMemory); a formula over
// it fails the check, naming the budget. A certificate written within a budget
// (Options.MaxMemory) is checked within the same one: 'wormlab solve --certify'
// passes its --max-memory, as 'wormlab check-certificate --max-memory' does.
func CheckWithin(ctx context.Context, dir string, budget int64) (*Report, error) {
	if IsDeadlockCertificate(dir) {
		return CheckDeadlock(ctx, dir)
	}
	var man Manifest
	err := readManifest(dir, &man, func() string { return man.Format }, FormatVersion)
	if err != nil {
		return nil, err
	}
	// certificates are defined for these two models (solve --certify writes no
	// other; a bound, a refutation's encoding and an edge set are theirs)
	if man.Model != model.Wormhole && man.Model != model.Bufferless {
		return nil, fmt.Errorf("%s: field \"model\": %q, a certificate is for model %s or %s", ManifestFile, man.Model, model.Wormhole, model.Bufferless)
	}
	r := &Report{Kind: man.Kind, Makespan: man.Makespan, Model: man.Model}
	fail := func(format string, a ...any) (*Report, error) {
		r.Failure = fmt.Sprintf(format, a...)
		return r, nil
	}
	read := func(ref FileRef, what string) ([]byte, error) {
		if ref.File == "" || filepath.Base(ref.File) != ref.File {
			return nil, fmt.Errorf("%s: %s file %q must be a plain name inside the certificate directory", ManifestFile, what, ref.File)
		}
		return readPart(filepath.Join(dir, ref.File), max(budget, optimal.DefaultMaxMemory))
	}

	inst, err := read(man.Instance, "instance")
	if err != nil {
		return nil, err
	}
	if got := sum(inst); got != man.Instance.SHA256 {
		return fail("instance: %s has sha256 %s, the manifest names %s", man.Instance.File, got, man.Instance.SHA256)
	}
	in, err := model.ParseInstance(inst)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", man.Instance.File, err)
	}
	if in.Name != man.InstanceName {
		return fail("instance: named %q, the manifest says %q", in.Name, man.InstanceName)
	}
	r.Checked = append(r.Checked, fmt.Sprintf("instance %q: sha256 %s", in.Name, man.Instance.SHA256))

	sdata, err := read(man.Schedule, "schedule")
	if err != nil {
		return nil, err
	}
	if got := sum(sdata); got != man.Schedule.SHA256 {
		return fail("schedule: %s has sha256 %s, the manifest names %s", man.Schedule.File, got, man.Schedule.SHA256)
	}
	s, err := model.ParseSchedule(sdata)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", man.Schedule.File, err)
	}
	if err := verify.Schedule(in, s); err != nil {
		return fail("schedule: illegal: %v", err)
	}
	if s.Model != man.Model || s.Makespan != man.Makespan {
		return fail("schedule: model %s makespan %d, the manifest claims model %s makespan %d", s.Model, s.Makespan, man.Model, man.Makespan)
	}
	r.Checked = append(r.Checked, fmt.Sprintf("schedule: legal (%s), makespan %d", s.Model, s.Makespan))

	switch man.Kind {
	case KindBound:
		b := man.Bound
		if b == nil {
			return nil, fmt.Errorf("%s: kind %s without a bound", ManifestFile, KindBound)
		}
		if err := checkBound(in, b); err != nil {
			return fail("%v", err)
		}
		if b.Value != man.Makespan {
			return fail("bound %s: value %d is not the makespan %d", b.Name, b.Value, man.Makespan)
		}
		where := ""
		if b.Edge != nil {
			where = fmt.Sprintf(" on edge %d (%s)", *b.Edge, in.Net.EdgeName(*b.Edge))
		}
		r.Checked = append(r.Checked, fmt.Sprintf("bound %s%s, messages %s: %s = makespan", b.Name, where, joinIDs(b.Messages), b.Arithmetic))
	case KindRefutation:
		ref := man.Refutation
		if ref == nil {
			return nil, fmt.Errorf("%s: kind %s without a refutation", ManifestFile, KindRefutation)
		}
		if ref.Horizon != man.Makespan-1 {
			return fail("cnf: horizon %d is not the makespan %d minus one", ref.Horizon, man.Makespan)
		}
		if ref.Encoding != optimal.EncodingVersion {
			return fail("cnf: encoding %s, this build encodes %s: cannot re-encode the formula", ref.Encoding, optimal.EncodingVersion)
		}
		want, _, err := cnfBytes(in, &man, ref.Horizon, budget)
		if err != nil {
			return fail("cnf: re-encoding the instance: %v", err)
		}
		if got := sum(want); got != ref.CNF.SHA256 {
			return fail("cnf: the instance re-encoded for horizon %d has sha256 %s, the manifest names %s", ref.Horizon, got, ref.CNF.SHA256)
		}
		file, err := read(ref.CNF, "cnf")
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(file, want) {
			return fail("cnf: %s differs from the re-encoded formula (sha256 %s)", ref.CNF.File, sum(file))
		}
		f, err := drat.ReadCNF(bytes.NewReader(want))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.CNF.File, err)
		}
		// What is printed is what was checked, not the manifest's words.
		if f.Vars != ref.Vars || len(f.Clauses) != ref.Clauses {
			return fail("cnf: the re-encoded formula has %d variables and %d clauses, the manifest says %d and %d", f.Vars, len(f.Clauses), ref.Vars, ref.Clauses)
		}
		r.Checked = append(r.Checked, fmt.Sprintf("cnf: re-encoded horizon %d (%s), %d variables, %d clauses, sha256 %s", ref.Horizon, ref.Encoding, f.Vars, len(f.Clauses), ref.CNF.SHA256))
		pdata, err := read(ref.Proof, "proof")
		if err != nil {
			return nil, err
		}
		if got := sum(pdata); got != ref.Proof.SHA256 {
			return fail("proof: %s has sha256 %s, the manifest names %s", ref.Proof.File, got, ref.Proof.SHA256)
		}
		p, err := drat.ParseProof(pdata, drat.Auto)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref.Proof.File, err)
		}
		if p.Format.String() != ref.ProofFormat {
			return fail("proof: %s is %s, the manifest says %q", ref.Proof.File, p.Format, ref.ProofFormat)
		}
		start := time.Now()
		res, err := drat.CheckBackward(ctx, f, p)
		r.ProofTime = time.Since(start)
		if err != nil {
			return nil, err
		}
		r.Proof = res
		if !res.Verified {
			return fail("proof: %v", res.Failure)
		}
		st := res.Stats
		r.Checked = append(r.Checked, fmt.Sprintf("proof: %s %s by %s, %d lemmas checked (%d RAT, %d not needed), %d deletions: horizon %d is infeasible", p.Format, humanBytes(len(pdata)), ref.Prover, st.Lemmas, st.RAT, st.Skipped, st.Deletions, ref.Horizon))
	case KindEdgeSet:
		if man.EdgeSet == nil {
			return nil, fmt.Errorf("%s: kind %s without an edge_set", ManifestFile, KindEdgeSet)
		}
		line, failure, elapsed, err := checkEdgeSet(ctx, in, man.Model, man.Makespan, man.EdgeSet)
		r.ProofTime = elapsed
		if err != nil {
			return nil, err
		}
		if failure != "" {
			return fail("%s", failure)
		}
		r.Checked = append(r.Checked, line)
	default:
		return nil, fmt.Errorf("%s: kind %q (want %s, %s or %s)", ManifestFile, man.Kind, KindBound, KindRefutation, KindEdgeSet)
	}
	r.Verified = true
	return r, nil
}

func humanBytes(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// readManifest reads dir's manifest into man, strictly (an unknown field is an
// error), and checks that its format, as format reads it, is want.
func readManifest(dir string, man any, format func() string, want string) error {
	mdata, err := readPart(filepath.Join(dir, ManifestFile), 0)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(mdata))
	dec.DisallowUnknownFields()
	if err := dec.Decode(man); err != nil {
		return fmt.Errorf("%s: %w", ManifestFile, err)
	}
	if k, at, ok := repeatedKey(mdata); ok {
		return fmt.Errorf("%s: key %q appears twice in one object (the second ends at byte %d)", ManifestFile, k, at)
	}
	if got := format(); got != want {
		return fmt.Errorf("%s: format %q, this build reads %q", ManifestFile, got, want)
	}
	return nil
}

// repeatedKey finds a key given twice in one object of the JSON text data (at
// any depth) and the byte offset where its second spelling ends: encoding/json
// keeps the last value, so a manifest with "kind" twice would mean one claim to
// this checker and another to a reader keeping the first.
func repeatedKey(data []byte) (key string, at int64, ok bool) {
	type frame struct {
		keys    map[string]bool // nil for a list
		wantKey bool            // the next token of this object is a key
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false // the end, or an error Decode reported already
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if k, isStr := tok.(string); isStr && top != nil && top.keys != nil && top.wantKey {
			if top.keys[k] {
				return k, dec.InputOffset(), true
			}
			top.keys[k], top.wantKey = true, false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return "", 0, false
			}
			top = stack[len(stack)-1]
		}
		// A value ended: an object's next token is a key.
		if top != nil && top.keys != nil {
			top.wantKey = true
		}
	}
}
