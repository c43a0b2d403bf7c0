package certify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// Options configure WriteOptions.
type Options struct {
	// Prover writes the refutation proof; nil means DefaultProver().
	Prover Prover
	// Refute writes a CNF and its proof even when the optimum was proven with
	// the edge-set bound (by default such an optimum gets an edge-set certificate).
	Refute bool
	// Note, when set, is told in one line when an edge-set optimum cannot get an
	// edge-set certificate and a refutation is attempted instead (which may take
	// long where only the edge-set bound proves the optimum).
	Note func(string)
	// MaxMemory is the memory budget of the refutation's formula in bytes (0:
	// optimal.DefaultMaxMemory): a formula over it is refused with an
	// *optimal.SizeError before it is built. CheckWithin re-encodes it within
	// a budget of its own (solve --certify passes the same one).
	MaxMemory int64
}

// edgeSetFor is the edge-set claim for res when the solver proved its optimum
// with the edge-set bound and this package's search confirms it; nil otherwise
// (the certificate is then a refutation).
func edgeSetFor(ctx context.Context, in *model.Instance, res *optimal.Result, opt Options) *EdgeSet {
	if opt.Refute || res.Stats.LowerSource != "edge-set" {
		return nil
	}
	es, err := writeEdgeSet(ctx, in, res.Schedule.Model, res.Schedule.Makespan)
	if err != nil {
		if opt.Note != nil && ctx.Err() == nil {
			opt.Note(fmt.Sprintf("%v; writing a refutation of horizon %d instead", err, res.Schedule.Makespan-1))
		}
		return nil
	}
	return es
}

// DefaultProver is Cadical when a cadical program is on PATH, else Gophersat, so
// that certificates can always be written with Go alone. The choice is measured
// (see the package doc): on the benchmark families both take milliseconds; on hard
// horizons cadical was as fast or 5 times faster, and its proofs (binary, with
// deletions) were smaller and 1.5 times faster to check.
func DefaultProver() Prover {
	if CadicalAvailable() {
		return Cadical{}
	}
	return Gophersat{}
}

// Write writes a certificate of optimality for res, a result of optimal.Solve on
// in, into dir (created if missing) with the default prover. See WriteOptions.
func Write(dir string, in *model.Instance, res *optimal.Result) error {
	_, err := WriteOptions(context.Background(), dir, in, res, Options{})
	return err
}

// WriteOptions writes instance.json, schedule.json and, when res.Schedule's
// makespan equals a closed-form lower bound, a manifest with that bound's
// arithmetic; when the solver proved the optimum with the edge-set bound
// (res.Stats.LowerSource "edge-set"), an edge-set claim (edgeset.go) when this
// package's own search confirms it for the edges it chooses; otherwise the CNF of horizon makespan-1 (optimal.Encode, with a header
// naming the instance and its SHA-256, the model, the horizon and the encoding
// version) and a proof that it is unsatisfiable, from opt.Prover. Every file is
// written into a staging folder on dir's file system (inside dir when dir
// exists, else beside it) and moved into dir only once the certificate is whole, manifest.json last: a run that fails or is interrupted
// before leaves dir as it was (a certificate already there stays whole), and one
// interrupted while the files are moved leaves no manifest. The files get the
// mode of an output file (docs/cli.md): 0666 less the umask, or the mode of the
// file each replaces.
//
// Errors: a result that is not optimal or whose schedule is illegal, a bound above
// the makespan, a horizon the prover finds satisfiable (ErrSatisfiable), I/O.
func WriteOptions(ctx context.Context, dir string, in *model.Instance, res *optimal.Result, opt Options) (*Manifest, error) {
	if res == nil || res.Schedule == nil {
		return nil, fmt.Errorf("certify: no schedule to certify")
	}
	s := res.Schedule
	if !res.Optimal {
		return nil, fmt.Errorf("certify: the schedule of makespan %d is not proven optimal (lower bound %d)", s.Makespan, res.Lower)
	}
	if err := verify.Schedule(in, s); err != nil {
		return nil, fmt.Errorf("certify: the schedule is illegal: %w", err)
	}
	if opt.Prover == nil {
		opt.Prover = DefaultProver()
	}
	var inst, sched bytes.Buffer
	if err := model.WriteInstance(&inst, in); err != nil {
		return nil, err
	}
	if err := model.WriteSchedule(&sched, s); err != nil {
		return nil, err
	}
	// Everything is written into a staging folder and moved into dir only once
	// the manifest is ready: a refused or interrupted run (a formula over the
	// budget, a satisfiable horizon, Ctrl-C while proving) leaves dir as it
	// was, and a certificate already there intact.
	stage, err := stageFor(dir)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(stage)
	man := &Manifest{
		Format:       FormatVersion,
		InstanceName: in.Name,
		Instance:     FileRef{File: InstanceFile, SHA256: sum(inst.Bytes())},
		Schedule:     FileRef{File: ScheduleFile, SHA256: sum(sched.Bytes())},
		Model:        s.Model,
		Makespan:     s.Makespan,
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{InstanceFile, inst.Bytes()}, {ScheduleFile, sched.Bytes()}} {
		if err := writeFile(stage, f.name, f.data); err != nil {
			return nil, err
		}
	}
	b, err := closedForm(in, s.Makespan)
	if err != nil {
		return nil, err
	}
	if b != nil {
		man.Kind, man.Bound = KindBound, b
	} else if es := edgeSetFor(ctx, in, res, opt); es != nil {
		man.Kind, man.EdgeSet = KindEdgeSet, es
	} else {
		man.Kind = KindRefutation
		if man.Refutation, err = refute(ctx, stage, in, man, opt.Prover, opt.MaxMemory); err != nil {
			return nil, err
		}
	}
	data, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFile(stage, ManifestFile, append(data, '\n')); err != nil {
		return nil, err
	}
	if err := install(stage, dir, []string{InstanceFile, ScheduleFile, CNFFile, ProofFile}); err != nil {
		return nil, err
	}
	return man, nil
}

// stageFor makes a folder in which a certificate for dir is written whole before
// install moves it into dir; the caller removes it (os.RemoveAll). It lies on
// dir's file system, or its files could not be renamed into dir: inside dir when
// dir exists (it may be a symbolic link to, or a mount of, another file system),
// else beside it in the parent, where dir will be created.
func stageFor(dir string) (string, error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
		parent = dir
	} else if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(parent, ".wormlab-certificate.*")
}

// install moves the certificate staged in stage into dir (created if missing):
// first dir's manifest is removed, so that no manifest describes the files
// while they are replaced, then each of names is moved from stage (or, absent
// there, removed from dir: a file of a previous certificate that this one does
// not have), and the manifest last; each file gets the mode of an output file
// (docs/cli.md): 0666 less the umask, or the mode of the file it replaces.
func install(stage, dir string, names []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// Each file gets the mode of an output file (docs/cli.md): 0666 less the
	// umask, or the mode of the file it replaces (the manifest's read before
	// it is removed).
	all := append(names[:len(names):len(names)], ManifestFile)
	modes := map[string]os.FileMode{}
	for _, name := range all {
		modes[name] = os.FileMode(0o666) &^ os.FileMode(atomicfile.Umask())
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() {
			modes[name] = fi.Mode().Perm()
		}
	}
	if err := os.Remove(filepath.Join(dir, ManifestFile)); err != nil && !os.IsNotExist(err) {
		return err
	}
	for _, name := range all {
		err := os.Chmod(filepath.Join(stage, name), modes[name])
		if err == nil {
			err = os.Rename(filepath.Join(stage, name), filepath.Join(dir, name))
		}
		if errors.Is(err, fs.ErrNotExist) {
			err = os.Remove(filepath.Join(dir, name))
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// cnfBytes is the certificate's CNF: a header naming what it encodes, then the
// formula as optimal.Formula.WriteDIMACS writes it. Check rebuilds it byte for byte.
func cnfBytes(in *model.Instance, man *Manifest, horizon int, budget int64) ([]byte, *optimal.Formula, error) {
	f, err := optimal.EncodeWithin(in, man.Model, horizon, budget)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "c wormlab certificate: no schedule of makespan <= %d exists iff this formula is unsatisfiable\n", horizon)
	fmt.Fprintf(&b, "c instance %q sha256 %s\n", man.InstanceName, man.Instance.SHA256)
	fmt.Fprintf(&b, "c model %s horizon %d (optimum %d - 1) encoding %s\n", man.Model, horizon, man.Makespan, optimal.EncodingVersion)
	if err := f.WriteDIMACS(&b); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), f, nil
}

func refute(ctx context.Context, dir string, in *model.Instance, man *Manifest, p Prover, budget int64) (*Refutation, error) {
	h := man.Makespan - 1
	data, f, err := cnfBytes(in, man, h, budget)
	if err != nil {
		return nil, err
	}
	if err := writeFile(dir, CNFFile, data); err != nil {
		return nil, err
	}
	cnfPath := filepath.Join(dir, CNFFile)
	tmp, err := os.CreateTemp(dir, "."+ProofFile+".*")
	if err != nil {
		return nil, err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return nil, err
	}
	if err := p.Prove(ctx, &drat.CNF{Vars: f.Vars, Clauses: f.Clauses}, cnfPath, tmp.Name()); err != nil {
		if err == ErrSatisfiable {
			return nil, fmt.Errorf("certify: horizon %d is satisfiable, so makespan %d is not optimal: %w", h, man.Makespan, err)
		}
		return nil, err
	}
	proof, err := os.ReadFile(tmp.Name())
	if err != nil {
		return nil, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, ProofFile)); err != nil {
		return nil, err
	}
	return &Refutation{
		Horizon:     h,
		Encoding:    optimal.EncodingVersion,
		CNF:         FileRef{File: CNFFile, SHA256: sum(data)},
		Vars:        f.Vars,
		Clauses:     len(f.Clauses),
		Proof:       FileRef{File: ProofFile, SHA256: sum(proof)},
		ProofFormat: drat.Detect(proof).String(),
		Prover:      p.Name(),
	}, nil
}

// writeFile writes data to dir/name through a temporary file and a rename.
func writeFile(dir, name string, data []byte) error {
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
