package adversary

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
)

// boundOverDilation is a deterministic objective for the engine's tests: the
// model's best closed-form lower bound over max_i (d_i + L_i - 1). With floor > 0
// it answers Below for ratios under the floor, as a screening objective may.
type boundOverDilation struct{ calls atomic.Int64 }

func (o *boundOverDilation) Score(_ context.Context, in *model.Instance, floor float64) (Score, error) {
	o.calls.Add(1)
	dl := 0
	for _, m := range in.Messages {
		dl = max(dl, len(m.Path)+m.L-1)
	}
	sc := Score{Num: Value{in.LowerBound().Value, "lower bound", true}, Den: Value{dl, "d + L - 1", true}}
	if floor > 0 && sc.Ratio() < floor {
		sc.Below = true
	}
	return sc, nil
}

func testSpace(t *testing.T, spec string) *Space {
	top, err := lower.ParseNetwork(spec, 1)
	require.NoError(t, err)
	sp := TopologySpace(top, spec)
	sp.MinL, sp.MaxL, sp.MinWorms, sp.MaxWorms = 1, 4, 1, 12
	return sp
}

func testConfig(t *testing.T, strategy string) Config {
	st, err := LookupStrategy(strategy)
	require.NoError(t, err)
	return Config{Space: testSpace(t, "mesh:3x3"), Objective: &boundOverDilation{}, Strategy: st,
		Messages: 3, Seed: 5, Workers: 2, Iterations: 400, SyncEvery: 16}
}

func setJSON(t *testing.T, sp *Space, s *Set) string {
	b, err := sp.Instance("t", s).MarshalJSON()
	require.NoError(t, err)
	return string(b)
}

// A search bounded by moves is deterministic for a seed and a number of workers,
// with every strategy, although the chains run on goroutines of their own.
func TestSearchDeterministic(t *testing.T) {
	for _, name := range Strategies() {
		t.Run(name, func(t *testing.T) {
			var first string
			for range 3 {
				cfg := testConfig(t, name)
				res, err := Search(context.Background(), cfg)
				require.NoError(t, err)
				require.True(t, res.Best.Valid())
				require.Len(t, res.Chains, 2)
				for _, c := range res.Chains {
					require.Equal(t, 400, c.Moves)
				}
				got := setJSON(t, cfg.Space, res.Best.Set)
				if first == "" {
					first = got
				}
				require.Equal(t, first, got)
			}
		})
	}
}

// The best only improves: each chain's trace of its best ratio never drops, the
// result is the best of the chains, and the result's score is its set's.
func TestSearchBestOnlyImproves(t *testing.T) {
	cfg := testConfig(t, "anneal")
	var mu sync.Mutex
	last := map[int]float64{}
	var rows []TraceRow
	cfg.Trace = func(r TraceRow) {
		mu.Lock()
		defer mu.Unlock()
		require.GreaterOrEqual(t, r.Best, last[r.Chain], "chain %d's best dropped", r.Chain)
		last[r.Chain] = r.Best
		rows = append(rows, r)
	}
	res, err := Search(context.Background(), cfg)
	require.NoError(t, err)
	best := 0.0
	for _, v := range last {
		best = max(best, v)
	}
	require.Equal(t, best, res.Best.Ratio())
	again, err := cfg.Objective.Score(context.Background(), cfg.Space.Instance("t", res.Best.Set), 0)
	require.NoError(t, err)
	require.Equal(t, res.Best.Score.Num, again.Num)
	require.Equal(t, res.Best.Score.Den, again.Den)
	events := map[string]int{}
	for _, r := range rows {
		events[r.Event]++
		b, err := json.Marshal(r)
		require.NoError(t, err)
		require.Contains(t, string(b), `"evaluations"`)
	}
	require.Equal(t, 2, events["start"])
	require.Equal(t, 2, events["end"])
	require.Equal(t, 2*400/16, events["sync"])
}

// A candidate the objective answers Below for is never kept: with an objective
// that answers Below to every floor, the result is a start.
func TestBelowIsNeverKept(t *testing.T) {
	cfg := testConfig(t, "hill")
	cfg.Objective = belowAlways{}
	res, err := Search(context.Background(), cfg)
	require.NoError(t, err)
	require.Equal(t, 1.0, res.Best.Ratio())
}

type belowAlways struct{}

func (belowAlways) Score(_ context.Context, in *model.Instance, floor float64) (Score, error) {
	if floor > 0 {
		return Score{Below: true, Num: Value{V: 1 << 20}, Den: Value{V: 1}}, nil
	}
	return Score{Num: Value{1, "one", true}, Den: Value{1, "one", true}}, nil
}

// Cancelling the context (Ctrl-C) stops every chain with the best candidate so
// far; a value measured under the cancelled context is not kept.
func TestSearchInterrupted(t *testing.T) {
	cfg := testConfig(t, "hill")
	cfg.Iterations = 0
	cfg.Timeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	inner := &boundOverDilation{}
	cfg.Objective = cancelAfter{inner, 50, cancel}
	res, err := Search(ctx, cfg)
	require.NoError(t, err)
	require.True(t, res.Interrupted)
	require.Less(t, res.Best.Score.Num.V, 1<<20)
	require.Less(t, res.Elapsed, 30*time.Second)
}

type cancelAfter struct {
	o      *boundOverDilation
	n      int64
	cancel func()
}

func (c cancelAfter) Score(ctx context.Context, in *model.Instance, floor float64) (Score, error) {
	sc, err := c.o.Score(ctx, in, floor)
	if c.o.calls.Load() == c.n {
		c.cancel()
		sc.Num.V = 1 << 20 // inflated by an interrupted measurement
	}
	return sc, err
}

// Bad configurations are errors naming what is wrong.
func TestSearchErrors(t *testing.T) {
	cfg := testConfig(t, "hill")
	cfg.Iterations = 0
	_, err := Search(context.Background(), cfg)
	require.ErrorContains(t, err, "move limit")
	cfg = testConfig(t, "hill")
	cfg.Space.MinL = 0
	_, err = Search(context.Background(), cfg)
	require.ErrorContains(t, err, "flits")
	_, err = LookupStrategy("greedy")
	require.ErrorContains(t, err, `unknown strategy "greedy"`)
	_, err = ParseMix("reroute,teleport")
	require.ErrorContains(t, err, `unknown move "teleport"`)
	_, err = ParseMix("reroute=0")
	require.ErrorContains(t, err, "weight")
}

// A kept measure holds for every candidate measured, restarts from random sets
// included: with the start's congestion and dilation kept, every set the
// objective sees has them.
func TestKeepHolds(t *testing.T) {
	for _, name := range Strategies() {
		cfg := testConfig(t, name)
		cfg.Space.Prepare()
		start, err := cfg.Space.RandomSet(5, newRand(3))
		require.NoError(t, err)
		c, d := measures(cfg.Space, start)
		cfg.Start = start
		cfg.Space.Keep = Keep{C: c, D: d}
		seen := &keepWatch{sp: cfg.Space, c: c, d: d}
		cfg.Objective = seen
		cfg.Iterations = 2000
		_, err = Search(context.Background(), cfg)
		require.NoError(t, err)
		require.Positive(t, seen.n.Load())
		require.Zero(t, seen.bad.Load(), "%s: %d sets with another c or d measured", name, seen.bad.Load())
	}
}

type keepWatch struct {
	sp     *Space
	c, d   int
	n, bad atomic.Int64
	o      boundOverDilation
}

func (k *keepWatch) Score(ctx context.Context, in *model.Instance, floor float64) (Score, error) {
	k.n.Add(1)
	ms := in.Measure()
	if ms.C != k.c || ms.D != k.d {
		k.bad.Add(1)
	}
	return k.o.Score(ctx, in, floor)
}
