package optimal_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// family is a named instance of a benchmark family.
type family struct {
	name string
	in   *model.Instance
}

func generate(tb testing.TB, s instances.Spec) *model.Instance {
	tb.Helper()
	in, err := instances.Generate(s)
	require.NoError(tb, err)
	return in
}

// primeShort is the repaired prime construction (every two worms meet) with worms
// shorter than the network, L = l < 2p + 1, so that in the wormhole model the
// aligned-clique lemma does not apply to it.
func primeShort(tb testing.TB, p, l int) *model.Instance {
	in, err := lower.Prime(p, 2*p+1, true)
	require.NoError(tb, err)
	in = in.Clone()
	in.Flits = l
	for i := range in.Messages {
		in.Messages[i].L = l
	}
	in.Name = fmt.Sprintf("prime-p%d-L%d-repaired", p, l)
	return in
}

func prime(tb testing.TB, p, l int) *model.Instance {
	in, err := lower.Prime(p, l, true)
	require.NoError(tb, err)
	return in
}

// aidSets are the structural-aid configurations measured.
var aidSets = []struct {
	name string
	opt  optimal.Options
}{
	{"all", optimal.Options{}},
	{"no-clique", optimal.Options{NoClique: true}},
	{"no-cards", optimal.Options{NoCards: true}},
	{"no-symmetry", optimal.Options{NoSymmetry: true}},
	{"none", optimal.Options{NoClique: true, NoCards: true, NoSymmetry: true}},
}

func solveRow(t *testing.T, f family, modelName string, opt optimal.Options, limit time.Duration) string {
	row, _ := solveRes(t, f, modelName, opt, limit)
	return row
}

func solveRes(t *testing.T, f family, modelName string, opt optimal.Options, limit time.Duration) (string, *optimal.Result) {
	opt.Model = modelName
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	start := time.Now()
	res, err := optimal.Solve(ctx, f.in, opt)
	el := time.Since(start)
	require.NoError(t, err)
	require.NoError(t, verify.Schedule(f.in, res.Schedule))
	ms := f.in.Measure()
	return fmt.Sprintf("%-34s %-10s n=%-3d c_L=%-3d d=%-2d lb0=%-3d opt=%-5v makespan=%-3d lower=%-3d vars=%-6d clauses=%-7d calls=%d conflicts=%-7d %.2fs",
		f.name, modelName, len(f.in.Messages), ms.CL, ms.D, f.in.LowerBound().Value, res.Optimal, res.Schedule.Makespan, res.Lower,
		res.Stats.Vars, res.Stats.Clauses, res.Stats.Calls, res.Stats.Conflicts, el.Seconds()), res
}

func long(t *testing.T) {
	if testing.Short() || os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("set WORMLAB_LONG=1 to run the long experiments")
	}
}

// TestExperimentFamilies prints, for the benchmark families, the solve time and
// whether the optimum was proven within the limit (WORMLAB_LIMIT, default 10s).
// Every schedule is checked by the verifier.
func TestExperimentFamilies(t *testing.T) {
	long(t)
	limit := 10 * time.Second
	if d, err := time.ParseDuration(os.Getenv("WORMLAB_LIMIT")); err == nil {
		limit = d
	}
	var fs []family
	for _, sides := range [][]int{{3, 3}, {4, 4}} {
		for _, m := range []int{10, 20, 40, 80} {
			for _, l := range []int{1, 2, 4, 8} {
				in := generate(t, instances.Spec{Kind: "mesh", Sides: sides, Messages: m, Flits: l, Seed: 1})
				fs = append(fs, family{fmt.Sprintf("mesh%dx%d-m%d-L%d", sides[0], sides[1], m, l), in})
			}
		}
	}
	for _, n := range []int{8, 16} {
		for _, tr := range []string{"random", "heavy"} {
			in := generate(t, instances.Spec{Kind: "butterfly", Size: n, Traffic: tr, Flits: 4, Seed: 1})
			fs = append(fs, family{fmt.Sprintf("butterfly%d-%s-L4", n, tr), in})
		}
	}
	for _, m := range []int{20, 40} {
		in := generate(t, instances.Spec{Kind: "kary-tree", Depth: 3, Messages: m, Flits: 4, Seed: 1})
		fs = append(fs, family{fmt.Sprintf("tree2^3-m%d-L4", m), in})
	}
	for _, p := range []int{2, 3, 5} {
		fs = append(fs, family{fmt.Sprintf("prime-p%d-repaired", p), prime(t, p, 2*p+1)})
		fs = append(fs, family{fmt.Sprintf("prime-p%d-L%d-repaired", p, p), primeShort(t, p, p)})
	}
	for _, f := range fs {
		for _, mn := range []string{model.Wormhole, model.Bufferless} {
			t.Log(solveRow(t, f, mn, optimal.Options{}, limit))
		}
	}
}

// TestExperimentAids measures each structural aid on the families where plain CDCL
// struggles: every two worms conflict (repaired prime construction), with long and
// short worms.
func TestExperimentAids(t *testing.T) {
	long(t)
	limit := 60 * time.Second
	if d, err := time.ParseDuration(os.Getenv("WORMLAB_LIMIT")); err == nil {
		limit = d
	}
	fs := []family{
		{"prime-p3-repaired", prime(t, 3, 7)},
		{"prime-p3-L3-repaired", primeShort(t, 3, 3)},
		{"prime-p5-repaired", prime(t, 5, 11)},
		{"prime-p5-L5-repaired", primeShort(t, 5, 5)},
		{"mesh3x3-m40-L3-s3", generate(t, instances.Spec{Kind: "mesh", Sides: []int{3, 3}, Messages: 40, Flits: 3, Seed: 3})},
		{"mesh3x3-m80-L4", generate(t, instances.Spec{Kind: "mesh", Sides: []int{3, 3}, Messages: 80, Flits: 4, Seed: 1})},
		{"mesh4x4-m80-L8", generate(t, instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 80, Flits: 8, Seed: 1})},
		{"tree2^3-m20-L4", generate(t, instances.Spec{Kind: "kary-tree", Depth: 3, Messages: 20, Flits: 4, Seed: 1})},
	}
	if os.Getenv("WORMLAB_AIDS") == "easy" {
		fs = fs[4:]
	} else if os.Getenv("WORMLAB_AIDS") == "prime" {
		fs = fs[:4]
	}
	for _, f := range fs {
		for _, mn := range []string{model.Wormhole, model.Bufferless} {
			for _, a := range aidSets {
				t.Log(a.name, solveRow(t, f, mn, a.opt, limit))
			}
		}
	}
}

// The benchmarks solve one instance of each family to optimality.
func benchSolve(b *testing.B, in *model.Instance, modelName string, opt optimal.Options) {
	opt.Model = modelName
	for b.Loop() {
		res, err := optimal.Solve(context.Background(), in, opt)
		if err != nil || !res.Optimal {
			b.Fatalf("not solved: %v", err)
		}
	}
}

func BenchmarkSolveMesh4x4(b *testing.B) {
	in := generate(b, instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 40, Flits: 4, Seed: 1})
	b.Run("wormhole", func(b *testing.B) { benchSolve(b, in, model.Wormhole, optimal.Options{}) })
	b.Run("bufferless", func(b *testing.B) { benchSolve(b, in, model.Bufferless, optimal.Options{}) })
}

func BenchmarkSolveMesh3x3(b *testing.B) {
	in := generate(b, instances.Spec{Kind: "mesh", Sides: []int{3, 3}, Messages: 40, Flits: 3, Seed: 3})
	b.Run("wormhole", func(b *testing.B) { benchSolve(b, in, model.Wormhole, optimal.Options{}) })
	b.Run("bufferless", func(b *testing.B) { benchSolve(b, in, model.Bufferless, optimal.Options{}) })
}

func BenchmarkSolveButterfly(b *testing.B) {
	in := generate(b, instances.Spec{Kind: "butterfly", Size: 8, Traffic: "heavy", Flits: 4, Seed: 1})
	b.Run("wormhole", func(b *testing.B) { benchSolve(b, in, model.Wormhole, optimal.Options{}) })
}

func BenchmarkSolveTree(b *testing.B) {
	in := generate(b, instances.Spec{Kind: "kary-tree", Depth: 3, Messages: 20, Flits: 4, Seed: 1})
	b.Run("wormhole", func(b *testing.B) { benchSolve(b, in, model.Wormhole, optimal.Options{}) })
}

// BenchmarkSolvePrime is the all-pairs-conflicting family, with each aid off in turn.
func BenchmarkSolvePrime(b *testing.B) {
	in := prime(b, 3, 7)
	for _, a := range aidSets {
		b.Run(a.name, func(b *testing.B) { benchSolve(b, in, model.Wormhole, a.opt) })
	}
}

func BenchmarkEncode(b *testing.B) {
	in := generate(b, instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 40, Flits: 4, Seed: 1})
	for b.Loop() {
		if _, err := optimal.Encode(in, model.Wormhole, 40); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExperimentScale grows each family until Solve no longer proves the optimum
// within the limit (WORMLAB_LIMIT, default 10s) and prints the largest instance
// proven, per model.
func TestExperimentScale(t *testing.T) {
	long(t)
	limit := 10 * time.Second
	if d, err := time.ParseDuration(os.Getenv("WORMLAB_LIMIT")); err == nil {
		limit = d
	}
	type grower struct {
		name  string
		sizes []int
		build func(size int) *model.Instance
	}
	mesh := func(side, l int) func(int) *model.Instance {
		return func(m int) *model.Instance {
			return generate(t, instances.Spec{Kind: "mesh", Sides: []int{side, side}, Messages: m, Flits: l, Seed: 1})
		}
	}
	gs := []grower{
		{"mesh3x3 L=4, messages", []int{10, 20, 40, 80, 120, 160, 240}, mesh(3, 4)},
		{"mesh4x4 L=1, messages", []int{10, 20, 40, 80, 160, 320, 640}, mesh(4, 1)},
		{"mesh4x4 L=8, messages", []int{10, 20, 40, 80, 120, 160, 240}, mesh(4, 8)},
		{"butterfly heavy L=4, inputs", []int{4, 8, 16, 32, 64}, func(n int) *model.Instance {
			return generate(t, instances.Spec{Kind: "butterfly", Size: n, Traffic: "heavy", Flits: 4, Seed: 1})
		}},
		{"binary tree depth 4 L=4, messages", []int{10, 20, 40, 80, 160}, func(m int) *model.Instance {
			return generate(t, instances.Spec{Kind: "kary-tree", Depth: 4, Messages: m, Flits: 4, Seed: 1})
		}},
		{"prime repaired L=2p+1, p", []int{2, 3, 5, 7, 11}, func(p int) *model.Instance { return prime(t, p, 2*p+1) }},
		{"prime repaired L=p, p", []int{2, 3, 5, 7}, func(p int) *model.Instance { return primeShort(t, p, p) }},
	}
	for _, g := range gs {
		for _, mn := range []string{model.Wormhole, model.Bufferless} {
			largest := "none"
			for _, size := range g.sizes {
				in := g.build(size)
				row, res := solveRes(t, family{fmt.Sprintf("%s %d", g.name, size), in}, mn, optimal.Options{}, limit)
				t.Log(row)
				if !res.Optimal {
					break
				}
				largest = fmt.Sprintf("%d (n=%d, makespan %d)", size, len(in.Messages), res.Schedule.Makespan)
			}
			t.Logf("LARGEST %s %s within %v: %s", g.name, mn, limit, largest)
		}
	}
}
