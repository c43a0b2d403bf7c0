package optimal

// Issue 27's anytime order (solve.go, interleave and boundLater): the descent
// goes first, and the edge-set bound's whole budget may be spent after the
// formula is built, with the same bound as when it is spent first.

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// TestDescentGoesFirst: the first solver call of the interleaved search is the
// descent's, at one below the best schedule, not a probe at the lower bound
// (issue 16's frontier tree with the schedule searches and the edge-set bound
// off, so that the SAT search starts from the greedy schedule, above the bound
// 148 by more than one step; the solve is stopped at its first call).
func TestDescentGoesFirst(t *testing.T) {
	in := frontierTree(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var calls []Progress
	_, err := Solve(ctx, in, Options{Model: model.Bufferless, NoCP: true, NoEdgeSet: true,
		Progress: func(p Progress) {
			if p.Horizon > 0 {
				calls = append(calls, p)
				cancel()
			}
		}})
	require.NoError(t, err)
	require.NotEmpty(t, calls)
	first := calls[0]
	require.Equal(t, 148, first.Lower)
	require.Greater(t, first.Upper-1, first.Lower, "the SAT search starts above the bound plus one")
	require.Equal(t, first.Upper-1, first.Horizon, "the first call is the descent's")
}

// frontierTree is issue 16's frontier instance (TestEdgeSetFrontier).
func frontierTree(t *testing.T) *model.Instance {
	f, err := os.Open("testdata/kary-tree-d4-r128-f4.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	return in
}

// TestBoundLater: the edge-set bound searched first with too few nodes to
// refute anything, then again by boundLater with the whole budget, is the
// bound of one search with the whole budget, and boundLater runs the schedule
// search at the new bound, as Solve does after the bound (issue 16's frontier
// tree: bound 148, edge-set bound 150, where the schedule search finds a
// schedule of makespan 150, which package verify accepts in the model).
func TestBoundLater(t *testing.T) {
	in := frontierTree(t)
	for _, m := range []string{model.Bufferless, model.Wormhole} {
		g, err := greedy(context.Background(), in)
		require.NoError(t, err)
		best, _, err := upper(context.Background(), in, Options{Model: m, greedy: g})
		require.NoError(t, err)
		lb := in.LowerBound()
		s := &search{ctx: context.Background(), in: in, opt: Options{Model: m}, res: &Result{Lower: lb.Value}, best: best}
		require.Greater(t, best.Makespan, 150, m)
		require.NoError(t, s.edgeSet(1))
		require.Less(t, s.res.Lower, 150, "%s: one node does not reach the bound", m)
		s.edgeSetDue = true
		require.NoError(t, s.boundLater())
		require.False(t, s.edgeSetDue, m)
		require.Equal(t, 150, s.res.Lower, m)
		require.Equal(t, "edge-set", s.res.Stats.LowerSource, m)
		require.Equal(t, 150, s.best.Makespan, "%s: the schedule search at the new bound", m)
		require.Equal(t, m, s.best.Model)
		require.NoError(t, verify.Schedule(in, s.best), m)
		require.NoError(t, s.boundLater(), "a second call does nothing")
		require.Equal(t, 150, s.res.Lower, m)
	}
}

// TestBoundSearchInParts: in a bufferless solve the schedule search at the
// lower bound stops after cpBoundSlice failures and the steps below the best
// makespan run (in Solve the neighbourhood search's first moves follow them),
// then boundRest spends the rest of the budget: the search at the bound ends
// with the whole budget spent, as one search with cpFirstFails that fails
// does (the two are the same search: TestCPResumeKeepsTheSearch), and the
// horizon is recorded as failed (cpFailed, which a wormhole solve's stage
// relies on: it skips that very search). Issue 16's frontier tree with the
// lower bound 149 (the edge-set bound is 150, the optimum): the search at
// 149 fails, where at 148 it searches its whole tree in 828 failures.
func TestBoundSearchInParts(t *testing.T) {
	in := frontierTree(t)
	g, err := greedy(context.Background(), in)
	require.NoError(t, err)
	s := &search{ctx: context.Background(), in: in, opt: Options{Model: model.Bufferless, NoEdgeSet: true},
		res: &Result{Lower: 149}, best: g}
	require.NoError(t, s.schedules(false))
	require.NotNil(t, s.boundDue, "the search at the bound waits")
	r := s.boundDue.r
	require.Equal(t, 149, r.T)
	require.Equal(t, int64(cpBoundSlice), r.total, "2,000 failures end the 13th restart")
	require.False(t, r.ended)
	require.Zero(t, s.res.cpFailed)
	require.Equal(t, 150, s.best.Makespan, "the steps below the greedy schedule (%d) ran", g.Makespan)
	require.Equal(t, "cp", s.res.Stats.UpperSource)
	require.NoError(t, s.boundRest())
	require.Nil(t, s.boundDue)
	require.True(t, r.ended)
	require.False(t, r.found)
	require.Equal(t, int64(cpFirstFails), r.total, "the whole budget")
	require.Equal(t, 149, s.res.cpFailed)
	require.Equal(t, 150, s.best.Makespan)
	require.NoError(t, verify.Schedule(in, s.best))
}

// TestBoundFirstOneAbove: where the steps end one above the lower bound, the
// rest of the search at the bound runs before the neighbourhood search (the
// only better schedule is the optimum at the bound). Issue 27's 6x6 mesh of
// seed 3 (bufferless): the steps end at 81, the search at the bound finds 80
// after more than cpBoundSlice failures, and the neighbourhood search makes
// no move.
func TestBoundFirstOneAbove(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Routing: "random-shortest",
		Traffic: "random", Messages: 288, Flits: 4, Seed: 3})
	require.NoError(t, err)
	var uppers []int
	res, err := Solve(context.Background(), in, Options{Model: model.Bufferless, Progress: func(p Progress) {
		require.False(t, p.LNS, "the neighbourhood search did not start")
		if len(uppers) == 0 || uppers[len(uppers)-1] != p.Upper {
			uppers = append(uppers, p.Upper)
		}
	}})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	require.Equal(t, 80, res.Schedule.Makespan)
	require.Equal(t, 81, uppers[len(uppers)-2], "the steps' last schedule")
	require.Equal(t, "cp", res.Stats.UpperSource)
	require.Greater(t, res.Stats.CPFails, int64(cpBoundSlice))
	require.Zero(t, res.Stats.LNSMoves)
	require.NoError(t, verify.Schedule(in, res.Schedule))
}
