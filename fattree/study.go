package fattree

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// Config is one point of the study: N processors, an algorithm, strategies, a
// pattern and the run parameters.
type Config struct {
	N                   int
	Algo                Algorithm
	Path                PathSelection
	Scan                Scan
	Pattern             Pattern
	Flits, Queue, Delay int
	// StoreQueue is the packets an input queue of STORE, UNIV and SPLIT holds
	// (0: one, the paper's choice).
	StoreQueue int
	// GhostHops is the links a ghost of univ-ghost crosses in a packet-step (0:
	// one, as a packet; L: a ghost is one flit).
	GhostHops      int
	Overhead, Runs int
	Seed           uint64
	// Each, when set, receives every run's outcome with its instance (FP
	// instances can then be given to the lower bounds).
	Each func(i int, run *Run, out Outcome)
}

// Summary is a point's result over its runs.
type Summary struct {
	N            int     `json:"n"`
	Runs         int     `json:"runs"`
	MaxLatency   float64 `json:"max_latency"`
	MaxLatencyCI float64 `json:"max_latency_ci"`
	Congestion   float64 `json:"congestion"`
	LatencyPerC  float64 `json:"latency_per_c"`
	Latencies    []int64 `json:"latencies"`
	Congestions  []int   `json:"congestions"`
	Interrupted  bool    `json:"interrupted,omitempty"`
}

// ParamError names a bad parameter.
type ParamError struct{ Field, Msg string }

func (e *ParamError) Error() string { return e.Field + ": " + e.Msg }

// Check validates the numbers of a Config (each within its bound: MaxFlits,
// MaxRuns) and builds its network.
func (c *Config) Check() (*topology.FatTree, error) {
	for _, f := range []struct {
		name   string
		v      int
		lo, hi int
	}{{"flits", c.Flits, 1, MaxFlits}, {"queue", c.Queue, 1, MaxFlits}, {"runs", c.Runs, 1, MaxRuns},
		{"delay", c.Delay, 0, MaxFlits}, {"overhead", c.Overhead, 0, MaxFlits},
		{"ghost-hops", c.GhostHops, 0, MaxFlits}, {"store-queue", c.StoreQueue, 0, MaxFlits}} {
		if f.v < f.lo || f.v > f.hi {
			return nil, &ParamError{f.name, fmt.Sprintf("%d outside %d..%d", f.v, f.lo, f.hi)}
		}
	}
	ft, err := topology.NewFatTree(c.N)
	if err != nil {
		return nil, &ParamError{"n", fmt.Sprintf("%d is not a power of 4 from 4 to %d", c.N, topology.MaxNodes)}
	}
	return ft, nil
}

// Study runs c.Runs independent runs (run i seeded by Seed+i) and summarises
// them. When ctx ends it returns the runs done with Interrupted set (and ctx's
// error if none was done).
func Study(ctx context.Context, c Config) (*Summary, error) {
	ft, err := c.Check()
	if err != nil {
		return nil, err
	}
	s := &Summary{N: c.N}
	for i := range c.Runs {
		seed := c.Seed + uint64(i)
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		pairs := c.Pattern.Pairs(c.N, r)
		up := make([]uint32, len(pairs))
		for k := range up {
			up[k] = r.Uint32()
		}
		run := &Run{FT: ft, Pairs: pairs, Flits: c.Flits, Queue: c.Queue, StoreQueue: c.StoreQueue, GhostHops: c.GhostHops, Path: c.Path, Scan: c.Scan,
			Delay: c.Delay, Overhead: c.Overhead, Up: up, R: r, Seed: seed}
		out, err := c.Algo.Route(ctx, run)
		if err != nil {
			if ctx.Err() != nil && errors.Is(err, ctx.Err()) || ctx.Err() != nil {
				s.Interrupted = true
				break
			}
			return nil, err
		}
		if c.Each != nil {
			c.Each(i, run, out)
		}
		s.Latencies = append(s.Latencies, out.MaxLatency)
		s.Congestions = append(s.Congestions, out.Congestion)
	}
	s.Runs = len(s.Latencies)
	if s.Runs == 0 {
		if ctx.Err() != nil {
			return s, ctx.Err()
		}
		return s, nil
	}
	xs := make([]float64, s.Runs)
	per := 0.0
	for i, l := range s.Latencies {
		xs[i] = float64(l)
		s.Congestion += float64(s.Congestions[i])
		if s.Congestions[i] > 0 {
			per += float64(l) / float64(s.Congestions[i])
		}
	}
	s.MaxLatency, s.MaxLatencyCI = MeanCI99(xs)
	s.Congestion /= float64(s.Runs)
	s.LatencyPerC = per / float64(s.Runs)
	return s, nil
}
