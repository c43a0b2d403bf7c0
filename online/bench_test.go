package online

import (
	"context"
	"fmt"
	"testing"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// benchInstance generates a random-traffic instance once per benchmark.
func benchInstance(b *testing.B, s instances.Spec) *model.Instance {
	b.Helper()
	s.Traffic, s.Seed = "random", 1
	in, err := instances.Generate(s)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// benchRun runs cfg in a b.Loop and reports flit moves per second (every flit
// crossing of every worm, counted by the engine) and the makespan.
func benchRun(b *testing.B, in *model.Instance, alg Algorithm, opt Options) {
	b.ReportAllocs()
	var flits int64
	var makespan int
	for b.Loop() {
		r, err := Run(context.Background(), in, alg, opt)
		if err != nil {
			b.Fatal(err)
		}
		flits += r.Counters.FlitMoves
		makespan = r.Makespan
	}
	b.ReportMetric(float64(flits)/b.Elapsed().Seconds(), "flits/s")
	b.ReportMetric(float64(makespan), "makespan")
	b.ReportMetric(float64(len(in.Messages)), "worms")
}

// Butterflies with 1024 inputs (10 levels): light (10^4 worms) and heavy (10^5) random
// traffic, L = 8; meshes 32 x 32 with 10^4 and 10^5 worms, dimension-order routing,
// L = 4.
func BenchmarkGreedy(b *testing.B) {
	cases := []struct {
		name string
		spec instances.Spec
	}{
		{"butterfly1024/worms1e4", instances.Spec{Kind: "butterfly", Size: 1024, Messages: 10000, Flits: 8}},
		{"butterfly1024/worms1e5", instances.Spec{Kind: "butterfly", Size: 1024, Messages: 100000, Flits: 8}},
		{"mesh32x32/worms1e4", instances.Spec{Kind: "mesh", Sides: []int{32, 32}, Messages: 10000, Flits: 4}},
		{"mesh32x32/worms1e5", instances.Spec{Kind: "mesh", Sides: []int{32, 32}, Messages: 100000, Flits: 4}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			in := benchInstance(b, c.spec)
			for _, arb := range []string{"message", "random"} {
				b.Run(arb, func(b *testing.B) { benchRun(b, in, Greedy{}, Options{Arb: arb}) })
			}
		})
	}
}

// The other algorithms on the 10^4-worm instances.
func BenchmarkAlgorithms(b *testing.B) {
	bf := instances.Spec{Kind: "butterfly", Size: 1024, Messages: 10000, Flits: 8}
	mesh := instances.Spec{Kind: "mesh", Sides: []int{32, 32}, Messages: 10000, Flits: 4}
	for _, s := range []instances.Spec{bf, mesh} {
		in := benchInstance(b, s)
		for _, alg := range []Algorithm{AlgorithmA{}, RandomDelay{}, Phased{}, StoreForward{}} {
			name := fmt.Sprintf("%s/%s", s.Kind, alg.Name())
			b.Run(name, func(b *testing.B) { benchRun(b, in, alg, Options{}) })
		}
	}
}
