package optimal

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// mustGreedy is greedy for tests: the instances drawn are far below its limits.
func mustGreedy(t require.TestingT, in *model.Instance) *model.Schedule {
	s, err := greedy(context.Background(), in)
	require.NoError(t, err)
	return s
}

// lineInstance is worms of L flits on the line 0 -> 1 -> 2: a over both edges,
// b over the first when three is set, c over the second. With two worms the
// greedy schedule misses the wormhole optimum by one step, so the SAT search
// must run (on a horizon of about 2L). With three each edge carries 2L flits,
// and the optimum is 2L + 1: whichever worm a lets pass first on an edge, the
// other edge's worm must wait for a (or a for it) one step more.
func lineInstance(L int, three bool) *model.Instance {
	net := &model.Network{}
	v0, v1, v2 := net.AddNode("0"), net.AddNode("1"), net.AddNode("2")
	e0, e1 := net.AddEdge(v0, v1), net.AddEdge(v1, v2)
	ms := []model.Message{{ID: "a", Path: []int{e0, e1}, L: L, AsEdges: true}}
	if three {
		ms = append(ms, model.Message{ID: "b", Path: []int{e0}, L: L, AsEdges: true})
	}
	ms = append(ms, model.Message{ID: "c", Path: []int{e1}, L: L, AsEdges: true})
	return &model.Instance{Name: "line", Net: net, Flits: L, Messages: ms}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Issue 10: the memory guard covers Solve, not only --dimacs. Two worms of 10^6
// flits once took 1.5 GB (a formula of about 2T literals); under a 64 MB budget
// Solve must skip the SAT search, say so, and still return the verified greedy
// schedule with the proven lower bound and optimal false.
func TestSolveWithinMemoryBudget(t *testing.T) {
	in := lineInstance(1000000, false)
	var res *Result
	var err error
	got := allocated(func() {
		res, err = Solve(context.Background(), in, Options{MaxMemory: 64 << 20, NoCP: true})
	})
	require.NoError(t, err)
	require.Less(t, got, uint64(64<<20), "bytes allocated")
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.False(t, res.Optimal)
	require.Contains(t, res.Stats.Skipped, "memory budget")
	require.Zero(t, res.Stats.Calls)
	require.Equal(t, 2000000, res.Lower)
	_, err = EncodeWithin(in, model.Wormhole, 2000000, 64<<20)
	var se *SizeError
	require.True(t, errors.As(err, &se), "Encode refuses with a *SizeError: %v", err)
	// The schedule search's memory does not grow with L (one window per worm, one
	// interval per conflicting pair), so with it on the same budget proves the
	// optimum: m1 first, m0 behind it, 2 * 10^6 = the flit congestion of b->c.
	got = allocated(func() {
		res, err = Solve(context.Background(), in, Options{MaxMemory: 64 << 20})
	})
	require.NoError(t, err)
	require.Less(t, got, uint64(64<<20), "bytes allocated")
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.True(t, res.Optimal)
	require.Equal(t, 2000000, res.Schedule.Makespan)
	require.Equal(t, "bufferless", res.Stats.UpperSource) // the wormhole solve's bufferless stage (stage.go)
	require.Equal(t, "cp", res.Stats.Stage.Upper)
}

// Issue 10: a worm of 2^62 flits is bad input naming the limit, not an internal
// error; so are two worms of 2^40 flits.
func TestSolveHugeWorms(t *testing.T) {
	for _, L := range []int{1 << 62, 1 << 40} {
		in := lineInstance(L, false)
		if L == 1<<62 {
			in.Messages = in.Messages[:1] // one worm (two would overflow the sum of lengths)
		}
		_, err := Solve(context.Background(), in, Options{})
		require.Error(t, err)
		require.NotContains(t, err.Error(), "internal error")
		require.Contains(t, err.Error(), "do not fit in 32 bits")
	}
}

// Issue 10: a typed error of the verifier stays reachable through Solve's error.
func TestSolveWrapsVerifyError(t *testing.T) {
	in := exampleInstance(t)
	illegal := model.NewSchedule(in, model.Wormhole, [][]int{{1, 2}, {1}, {1, 2}})
	_, err := Solve(context.Background(), in, Options{Upper: illegal})
	var ve *verify.Error
	require.True(t, errors.As(err, &ve), "errors.As(*verify.Error) on %v", err)
}

// Issue 10: lower_source "unsat" means a solver call answered unsatisfiable. The
// invariant checked on random instances, with every aid off so that the bounds are
// weak: LowerSource == "unsat" implies Stats.Unsat > 0, and "encoding" implies no
// solver call refuted anything (the refutation came from the encoder).
func TestLowerSourceUnsatNeedsACall(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		res, err := Solve(context.Background(), in, Options{Model: modelName, NoClique: true, NoCards: true})
		require.NoError(t, err)
		switch res.Stats.LowerSource {
		case "unsat":
			require.Positive(t, res.Stats.Unsat, "lower_source unsat with no unsatisfiable call")
		case "encoding":
			require.Zero(t, res.Stats.Unsat)
			require.True(t, res.Optimal)
		}
	})
}

// A formula over the memory budget is not built, but the bounds of package lower
// that fit it still run (withoutFormula): on lineInstance(10^6, true) the
// model's bounds say 2 * 10^6, the disjunctive bound proves 2 * 10^6 + 1, and
// the greedy schedule meets it, so the solve is optimal with no formula. Before, Solve
// returned the bound 2 * 10^6 and optimal false, while `wormlab lower bounds`
// proved 2 * 10^6 + 1 in milliseconds.
func TestSolveWithoutFormulaUsesLowerBounds(t *testing.T) {
	in := lineInstance(1000000, true)
	var res *Result
	var err error
	got := allocated(func() {
		res, err = Solve(context.Background(), in, Options{MaxMemory: 64 << 20})
	})
	require.NoError(t, err)
	require.Less(t, got, uint64(64<<20), "bytes allocated")
	require.Contains(t, res.Stats.Skipped, "memory budget")
	require.Zero(t, res.Stats.Calls)
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.Equal(t, 2000001, res.Lower)
	require.Equal(t, lower.BoundDisjunctive, res.Stats.LowerSource)
	require.True(t, res.Optimal)
	require.Equal(t, 2000001, res.Schedule.Makespan)
}

// The bounds withoutFormula adds are lower bounds of both models (lower.Bounds:
// every legal wormhole schedule obeys them, and a bufferless schedule is a
// wormhole schedule), so with every formula skipped (a budget of 1 MB) the
// lower bound Solve proves is at most the exhaustive optimum, at least the best
// of lower.BoundsWithin, and Optimal holds exactly when the verified schedule
// meets it.
func TestSolveWithoutFormulaSound(t *testing.T) {
	var skipped, settled atomic.Int64
	defer func() {
		t.Logf("%d instances with the formula skipped, %d of them settled", skipped.Load(), settled.Load())
	}()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt, ok := brute.Optimum(in, modelName, 40, 200000)
		if !ok {
			t.Skip("search space too large")
		}
		// the aids that settle these tiny instances before a formula, off
		// where drawn so, so that the formula is reached and skipped
		opt0 := Options{Model: modelName, MaxMemory: 1 << 20, NoClique: true, NoEdgeSet: true,
			NoCP: rapid.Bool().Draw(t, "nocp")}
		res, err := Solve(context.Background(), in, opt0)
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		if res.Stats.Skipped == "" {
			require.True(t, res.Optimal, "no formula built, and not settled before it")
			return
		}
		skipped.Add(1)
		require.Zero(t, res.Stats.Calls)
		require.LessOrEqual(t, res.Lower, opt, "lower bound %d (%s) above the optimum", res.Lower, res.Stats.LowerSource)
		best := lower.BoundsWithin(context.Background(), in, lower.Limits{Budget: lower.DefaultBudget, MaxMemory: 1 << 20}).Best
		require.GreaterOrEqual(t, res.Lower, min(best.Value, res.Schedule.Makespan))
		require.Equal(t, res.Schedule.Makespan == res.Lower, res.Optimal)
		if res.Optimal {
			settled.Add(1)
		}
	})
}
