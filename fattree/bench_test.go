package fattree

import (
	"context"
	"testing"
)

func benchRun(b *testing.B, algo string, n int) {
	a, _ := LookupAlgorithm(algo)
	cfg := Config{N: n, Algo: a, Path: RandomPath{}, Scan: RandomRoundRobin{}, Pattern: RandomDest{},
		Flits: 16, Queue: 2, Runs: 1, Seed: 1}
	for b.Loop() {
		if _, err := Study(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWorm4096 is issue 13's speed target: one WORM-RP-RR run, N = 4096, one
// packet per processor, L = 16, under a second on one core.
func BenchmarkWorm4096(b *testing.B) { benchRun(b, "worm", 4096) }

// BenchmarkStore4096 is one STORE-RP-RR run of the same size.
func BenchmarkStore4096(b *testing.B) { benchRun(b, "store", 4096) }
