package offline

import (
	"testing"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/model"
)

// benchInstance generates the benchmark's instance once (outside the timed loop).
func benchInstance(b *testing.B, spec instances.Spec) *model.Instance {
	b.Helper()
	in, err := instances.Generate(spec)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// benchColor colours in with opt in every iteration and reports paths per second
// of wall-clock time and of CPU time, the makespan and the proven bound.
func benchColor(b *testing.B, in *model.Instance, opt Options) {
	b.ReportAllocs()
	var res *Result
	cpu0, _ := cputime.Process()
	for b.Loop() {
		var err error
		if res, err = Color(in, opt); err != nil {
			b.Fatal(err)
		}
	}
	cpu1, _ := cputime.Process()
	cpu := (cpu1 - cpu0).Seconds()
	b.ReportMetric(float64(len(in.Messages))*float64(b.N)/b.Elapsed().Seconds(), "paths/s")
	if cpu > 0 {
		// Includes the garbage collector's work on the other core.
		b.ReportMetric(float64(len(in.Messages))*float64(b.N)/cpu, "paths/cpu-s")
	}
	b.ReportMetric(float64(res.Schedule.Makespan), "makespan")
	b.ReportMetric(float64(res.Bound), "bound")
}

// Random recursive trees, random traffic: 10^5 paths on 10^4 nodes.
func BenchmarkTree1e5(b *testing.B) {
	in := benchInstance(b, instances.Spec{Kind: "tree", Size: 10_000, Messages: 100_000, Seed: 1})
	benchColor(b, in, Options{Order: OrderTree})
}

// 10^6 paths on a random recursive tree of 10^5 nodes. Skipped with -short; like
// every benchmark it runs only with -bench.
func BenchmarkTree1e6(b *testing.B) {
	if testing.Short() {
		b.Skip("10^6 paths: not with -short")
	}
	in := benchInstance(b, instances.Spec{Kind: "tree", Size: 100_000, Messages: 1_000_000, Seed: 1})
	benchColor(b, in, Options{Order: OrderTree})
}

// 10^5 dimension-order paths on a 100 x 100 mesh.
func BenchmarkMesh2D1e5(b *testing.B) {
	in := benchInstance(b, instances.Spec{Kind: "mesh", Sides: []int{100, 100}, Messages: 100_000, Seed: 1})
	benchColor(b, in, Options{Order: OrderMesh})
}

// 10^5 dimension-order paths on a 20 x 20 x 20 mesh.
func BenchmarkMesh3D1e5(b *testing.B) {
	in := benchInstance(b, instances.Spec{Kind: "mesh", Sides: []int{20, 20, 20}, Messages: 100_000, Seed: 1})
	benchColor(b, in, Options{Order: OrderMesh})
}

// The improvement pass on the 10^5-path tree (four greedy colourings and their
// compaction).
func BenchmarkImproveTree1e5(b *testing.B) {
	in := benchInstance(b, instances.Spec{Kind: "tree", Size: 10_000, Messages: 100_000, Seed: 1})
	benchColor(b, in, Options{Order: OrderTree, Improve: true})
}
