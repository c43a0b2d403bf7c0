package engine

import (
	"context"
	"testing"

	"github.com/wormlab/wormlab/instances"
)

// BenchmarkGreedy measures the engine alone (New, release every worm at time 0, Run
// to the end) on random traffic: butterflies with 1024 inputs (10 levels, L = 8) and
// 32 x 32 meshes (dimension-order paths, L = 4), 10^4 and 10^5 worms. flits/s counts
// every flit crossing.
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
		c.spec.Traffic, c.spec.Seed = "random", 1
		in, err := instances.Generate(c.spec)
		if err != nil {
			b.Fatal(err)
		}
		for _, arb := range []string{ArbMessage, ArbRandom, ArbRoundRobin} {
			b.Run(c.name+"/"+arb, func(b *testing.B) {
				b.ReportAllocs()
				var flits, moves, examined, resident int64
				var steps int
				for b.Loop() {
					e, err := New(in, Config{Arb: arb, Seed: 1})
					if err != nil {
						b.Fatal(err)
					}
					for i := range in.Messages {
						if err := e.Release(i, 0); err != nil {
							b.Fatal(err)
						}
					}
					if err := e.Run(context.Background(), -1); err != nil {
						b.Fatal(err)
					}
					c := e.Counters()
					flits += c.FlitMoves
					moves += c.WormMoves
					examined += c.Examined
					resident += c.Resident
					steps = c.Steps
				}
				b.ReportMetric(float64(flits)/b.Elapsed().Seconds(), "flits/s")
				b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "wormmoves/s")
				b.ReportMetric(float64(steps), "makespan")
				b.ReportMetric(float64(examined)/float64(moves), "examined/move")
				b.ReportMetric(float64(resident)/float64(moves), "resident/move")
			})
		}
	}
}

// BenchmarkStore measures store-and-forward on the same meshes.
func BenchmarkStore(b *testing.B) {
	for _, m := range []int{10000, 100000} {
		in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{32, 32}, Messages: m, Flits: 1, Traffic: "random", Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("mesh32x32/"+map[int]string{10000: "worms1e4", 100000: "worms1e5"}[m], func(b *testing.B) {
			b.ReportAllocs()
			var flits int64
			for b.Loop() {
				r, err := Store(context.Background(), in, nil, Config{})
				if err != nil {
					b.Fatal(err)
				}
				flits += r.Counters.FlitMoves
			}
			b.ReportMetric(float64(flits)/b.Elapsed().Seconds(), "flits/s")
		})
	}
}
