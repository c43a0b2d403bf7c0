package certify

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"

	"github.com/crillab/gophersat/solver"
	"github.com/wormlab/wormlab/drat"
)

// ErrSatisfiable is returned by a Prover whose formula has a model: the horizon is
// feasible, so the schedule to be certified is not optimal.
var ErrSatisfiable = errors.New("certify: the formula is satisfiable")

// A Prover refutes a CNF formula and writes a clausal proof of it.
type Prover interface {
	// Name names the prover in the manifest.
	Name() string
	// Prove refutes f, whose DIMACS text is in the file cnfPath, and writes a DRUP
	// or DRAT proof to proofPath. It returns ErrSatisfiable when f has a model and
	// ctx.Err() when cancelled.
	Prove(ctx context.Context, f *drat.CNF, cnfPath, proofPath string) error
}

// Gophersat is the pure-Go CDCL solver github.com/crillab/gophersat v1.4.0 in
// certified mode: it streams every learned clause as a RUP lemma (text, no
// deletions) and needs no program outside Go.
//
// gophersat has no way to stop a running search. When ctx is cancelled Prove stops
// reading the solver's proof stream and returns; the solver goroutine then blocks on
// its next lemma and stays blocked, holding its memory, until the process exits.
type Gophersat struct{}

// Name implements Prover.
func (Gophersat) Name() string { return "gophersat v1.4.0" }

// Prove implements Prover.
func (Gophersat) Prove(ctx context.Context, f *drat.CNF, _, proofPath string) error {
	clauses := make([][]int, len(f.Clauses))
	for i, c := range f.Clauses {
		clauses[i] = slices.Clone(c)
	}
	s := solver.New(solver.ParseSliceNb(clauses, f.Vars))
	s.Certified = true
	lines := make(chan string, 4096)
	s.CertChan = lines
	status := make(chan solver.Status, 1)
	go func() {
		status <- s.Solve()
		close(lines)
	}()
	out, err := os.Create(proofPath)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(out, 1<<20)
	for done := false; !done; {
		select {
		case l, ok := <-lines:
			if !ok {
				done = true
				break
			}
			w.WriteString(l)
			w.WriteByte('\n')
		case <-ctx.Done():
			out.Close()
			os.Remove(proofPath)
			return ctx.Err()
		}
	}
	if err := w.Flush(); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	switch st := <-status; st {
	case solver.Unsat:
		return nil
	case solver.Sat:
		return ErrSatisfiable
	default:
		return fmt.Errorf("certify: gophersat ended with status %v", st)
	}
}

// Cadical runs the cadical program (Debian package cadical), which writes a binary
// DRAT proof with deletions. Path is the program; empty means "cadical" on PATH.
type Cadical struct{ Path string }

// Name implements Prover.
func (c Cadical) Name() string { return "cadical" }

// Prove implements Prover. cadical exits with 20 for unsatisfiable, 10 for
// satisfiable.
func (c Cadical) Prove(ctx context.Context, _ *drat.CNF, cnfPath, proofPath string) error {
	bin := c.Path
	if bin == "" {
		bin = "cadical"
	}
	cmd := exec.CommandContext(ctx, bin, "-q", "--binary=true", cnfPath, proofPath)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == 20:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() == 10:
		return ErrSatisfiable
	case err != nil:
		return fmt.Errorf("certify: cadical: %w: %s", err, firstLine(out))
	}
	return fmt.Errorf("certify: cadical exited 0 without an answer: %s", firstLine(out))
}

// CadicalAvailable reports whether a cadical program is on PATH.
func CadicalAvailable() bool {
	_, err := exec.LookPath("cadical")
	return err == nil
}

func firstLine(b []byte) string {
	for i, c := range b {
		if c == '\n' {
			return string(b[:i])
		}
	}
	return string(b)
}
