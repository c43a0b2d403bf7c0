package fattree

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
	"github.com/wormlab/wormlab/verify"
)

func fpRun(t *testing.T, n, flits int, pattern Pattern, seed uint64) *Run {
	ft, err := topology.NewFatTree(n)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	pairs := pattern.Pairs(n, r)
	up := make([]uint32, len(pairs))
	for i := range up {
		up[i] = r.Uint32()
	}
	return &Run{FT: ft, Pairs: pairs, Flits: flits, Queue: 1, Path: FixedPath{}, Scan: FixedOrder{}, Up: up, R: r, Seed: seed}
}

// TestWormTheoryModel: WORM with one-flit queues on fixed (FP) paths, under the
// theory model's rules (sim.TheoryConfig: the latch rule, every destination
// consuming any number of flits, one source queue per first edge), is package
// engine's greedy run of the FP instance: the same head crossing times for every
// packet, and the schedule is legal by package verify.
func TestWormTheoryModel(t *testing.T) {
	for _, n := range []int{16, 64} {
		for seed := uint64(1); seed <= 4; seed++ {
			for _, pat := range []Pattern{RandomDest{}, Complement{}} {
				run := fpRun(t, n, 1+int(seed)*3, pat, seed)
				in := FPInstance(run)
				s, _, err := sim.Theory(context.Background(), in, sim.FixedOrder{}, seed)
				if err != nil {
					t.Fatal(err)
				}
				if err := verify.Schedule(in, s); err != nil {
					t.Fatalf("n %d seed %d: simulator's schedule illegal: %v", n, seed, err)
				}
				e, err := engine.New(in, engine.Config{Arb: "input"})
				if err != nil {
					t.Fatal(err)
				}
				for i := range in.Messages {
					if err := e.Release(i, 0); err != nil {
						t.Fatal(err)
					}
				}
				if err := e.Run(context.Background(), -1); err != nil {
					t.Fatal(err)
				}
				es := e.Schedule()
				if es.Makespan != s.Makespan {
					t.Fatalf("n %d seed %d: simulator makespan %d, engine %d", n, seed, s.Makespan, es.Makespan)
				}
				for i := range s.Messages {
					for k, x := range s.Messages[i].Cross {
						if es.Messages[i].Cross[k] != x {
							t.Fatalf("n %d seed %d message %d hop %d: simulator %d, engine %d", n, seed, i, k, x, es.Messages[i].Cross[k])
						}
					}
				}
				if b := lower.Best(in); b.Value > s.Makespan {
					t.Fatalf("n %d seed %d: greedy makespan %d below the lower bound %s = %d", n, seed, s.Makespan, b.Name, b.Value)
				}
			}
		}
	}
}

// TestWormFPAboveLowerBound: every WORM run on FP paths (q = 2, the study's
// default) takes at least wormlab's best lower bound of its FP instance.
func TestWormFPAboveLowerBound(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		run := fpRun(t, 64, 16, RandomDest{}, seed)
		run.Queue = 2
		out, err := Worm{}.Route(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if b := lower.Best(FPInstance(run)); int64(b.Value) > out.MaxLatency {
			t.Fatalf("seed %d: WORM latency %d below lower bound %s = %d", seed, out.MaxLatency, b.Name, b.Value)
		}
	}
}

// TestBoundsOptimum: on small FP instances the SAT optimum lies between wormlab's
// best lower bound and the greedy WORM makespan of the theory model.
func TestBoundsOptimum(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		run := fpRun(t, 16, 4, RandomDest{}, seed)
		fb, err := Bounds(context.Background(), run, true, 20e9)
		if err != nil {
			t.Fatal(err)
		}
		in := FPInstance(run)
		s, _, err := sim.Theory(context.Background(), in, sim.FixedOrder{}, seed)
		if err != nil {
			t.Fatal(err)
		}
		if fb.Lower > fb.Optimum || (fb.Proven && fb.Optimum > s.Makespan) {
			t.Fatalf("seed %d: lower %d, optimum %d (proven %v), greedy %d", seed, fb.Lower, fb.Optimum, fb.Proven, s.Makespan)
		}
	}
}
