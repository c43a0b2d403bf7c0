package optimal

// Issue 27's anytime order (solve.go, interleave and boundLater): the descent
// goes first, and the edge-set bound's whole budget may be spent after the
// formula is built, with the same bound as when it is spent first.

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
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
		g, err := greedy(in)
		require.NoError(t, err)
		best, _, err := upper(in, Options{Model: m, greedy: g})
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
