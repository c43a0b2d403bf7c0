package certify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

type family struct {
	name string
	in   *model.Instance
}

// benchmarkFamilies are the solver's benchmark families: random paths on 3x3 and
// 4x4 meshes, butterflies, a binary tree, and the all-pairs-conflicting repaired
// prime construction of seed 002, section 5 (with long and with short worms).
func benchmarkFamilies(t testing.TB) []family {
	var fs []family
	gen := func(name string, sp instances.Spec) {
		in, err := instances.Generate(sp)
		require.NoError(t, err)
		fs = append(fs, family{name, in})
	}
	for _, sides := range [][]int{{3, 3}, {4, 4}} {
		for _, m := range []int{10, 20, 40, 80} {
			for _, l := range []int{1, 2, 4, 8} {
				gen(fmt.Sprintf("mesh%dx%d-m%d-L%d", sides[0], sides[1], m, l), instances.Spec{Kind: "mesh", Sides: sides, Messages: m, Flits: l, Seed: 1})
			}
		}
	}
	for _, n := range []int{8, 16} {
		for _, tr := range []string{"random", "heavy"} {
			gen(fmt.Sprintf("butterfly%d-%s-L4", n, tr), instances.Spec{Kind: "butterfly", Size: n, Traffic: tr, Flits: 4, Seed: 1})
		}
	}
	for _, m := range []int{20, 40} {
		gen(fmt.Sprintf("tree2^3-m%d-L4", m), instances.Spec{Kind: "kary-tree", Depth: 3, Messages: m, Flits: 4, Seed: 1})
	}
	gen("tree12-m16-L4", instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	// The hard instance of the SAT notes: 7x7 mesh, 90 worms on XY routes, L = 8.
	gen("mesh7x7-m90-L8", instances.Spec{Kind: "mesh", Sides: []int{7, 7}, Messages: 90, Flits: 8, Seed: 1})
	for _, p := range []int{2, 3, 5} {
		in, err := lower.Prime(p, 2*p+1, true)
		require.NoError(t, err)
		fs = append(fs, family{fmt.Sprintf("prime-p%d-repaired", p), in})
		short := in.Clone()
		short.Flits = p
		for i := range short.Messages {
			short.Messages[i].L = p
		}
		fs = append(fs, family{fmt.Sprintf("prime-p%d-L%d-repaired", p, p), short})
	}
	return fs
}

// TestExperimentProofs (WORMLAB_LONG=1; WORMLAB_LIMIT bounds each solve and each
// proof, default 60s) prints for each benchmark family and model: the plain solve
// time, the certificate kind, and for a refutation, per prover, the proof size, the
// time to produce it (encoding, solving with proof logging, writing) and the time
// for package drat to check it.
func TestExperimentProofs(t *testing.T) {
	if testing.Short() || os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("set WORMLAB_LONG=1 to run the proof experiment")
	}
	limit := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("WORMLAB_LIMIT")); err == nil {
		limit = d
	}
	provers := []Prover{Gophersat{}}
	if CadicalAvailable() {
		provers = append(provers, Cadical{})
	}
	for _, f := range benchmarkFamilies(t) {
		for _, mn := range []string{model.Wormhole, model.Bufferless} {
			ctx, cancel := context.WithTimeout(context.Background(), limit)
			start := time.Now()
			res, err := optimal.Solve(ctx, f.in, optimal.Options{Model: mn})
			solveTime := time.Since(start)
			cancel()
			require.NoError(t, err)
			require.NoError(t, verify.Schedule(f.in, res.Schedule))
			row := fmt.Sprintf("%-24s %-10s n=%-3d T*=%-4d solve=%7.3fs", f.name, mn, len(f.in.Messages), res.Schedule.Makespan, solveTime.Seconds())
			if !res.Optimal {
				t.Logf("%s  not proven optimal within %v", row, limit)
				continue
			}
			b, err := closedForm(f.in, res.Schedule.Makespan)
			require.NoError(t, err)
			if b != nil {
				t.Logf("%s  bound %s (%s)", row, b.Name, b.Arithmetic)
				continue
			}
			for _, p := range provers {
				dir := t.TempDir()
				ctx, cancel := context.WithTimeout(context.Background(), limit)
				start := time.Now()
				man, err := WriteOptions(ctx, dir, f.in, res, Options{Prover: p})
				prodTime := time.Since(start)
				cancel()
				if err != nil {
					t.Logf("%s  %-8s %v after %.1fs", row, short(p), err, prodTime.Seconds())
					continue
				}
				ref := man.Refutation
				size := fileSize(t, filepath.Join(dir, ProofFile))
				r, err := Check(dir)
				require.NoError(t, err)
				require.True(t, r.Verified, r.Failure)
				st := r.Proof.Stats
				t.Logf("%s  %-8s vars=%-6d clauses=%-7d proof=%9d B lemmas=%-6d del=%-6d produce=%7.3fs check=%7.3fs refutedAt=%d",
					row, short(p), ref.Vars, ref.Clauses, size, st.Lemmas, st.Deletions, prodTime.Seconds(), r.ProofTime.Seconds(), st.RefutedAt)
			}
		}
	}
}

func short(p Prover) string {
	if _, ok := p.(Gophersat); ok {
		return "gophersat"
	}
	return "cadical"
}

func fileSize(t testing.TB, path string) int64 {
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fi.Size()
}

// BenchmarkCheckProof checks the gophersat proof of the refutation case (a random
// tree, 16 worms of 4 flits, horizon 24) with package drat.
func BenchmarkCheckProof(b *testing.B) {
	_, dir, man := refutationCase(b)
	f, err := drat.ReadCNF(mustOpen(b, filepath.Join(dir, man.Refutation.CNF.File)))
	require.NoError(b, err)
	p, err := drat.ReadProof(mustOpen(b, filepath.Join(dir, man.Refutation.Proof.File)))
	require.NoError(b, err)
	for b.Loop() {
		r, err := drat.Check(context.Background(), f, p)
		if err != nil || !r.Verified {
			b.Fatal("not verified")
		}
	}
}

// BenchmarkWrite writes that certificate (encode, prove with gophersat, hash).
func BenchmarkWrite(b *testing.B) {
	in := generateTB(b, instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	res := solve(b, in, model.Wormhole)
	dir := b.TempDir()
	for b.Loop() {
		if _, err := WriteOptions(context.Background(), dir, in, res, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func mustOpen(b testing.TB, path string) *os.File {
	f, err := os.Open(path)
	require.NoError(b, err)
	b.Cleanup(func() { f.Close() })
	return f
}
