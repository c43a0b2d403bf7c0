package optimal

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestStageKeepsWormholeOptimum checks stage.go's lemma: a bufferless schedule is a
// wormhole schedule, so the bufferless stage's makespan is at least the wormhole
// optimum, and a wormhole solve that starts from it proves the same optimum as one
// without it. Both schedules are legal wormhole schedules.
func TestStageKeepsWormholeOptimum(t *testing.T) {
	var below atomic.Int64 // instances where the wormhole optimum is below the bufferless one
	defer func() { t.Logf("%d instances with a wormhole optimum below the bufferless one", below.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 5, 4, 3)
		with, err := Solve(context.Background(), in, Options{})
		require.NoError(t, err)
		without, err := Solve(context.Background(), in, Options{NoStage: true})
		require.NoError(t, err)
		require.True(t, with.Optimal)
		require.True(t, without.Optimal)
		require.Equal(t, without.Schedule.Makespan, with.Schedule.Makespan)
		require.Equal(t, model.Wormhole, with.Schedule.Model)
		require.NoError(t, verify.Schedule(in, with.Schedule))
		st := with.Stats
		if !st.Stage.Ran {
			// the greedy schedule met the lower bound before the stage
			require.Empty(t, st.Answered)
			return
		}
		require.True(t, st.Stage.Optimal, "the bufferless stage ran to its end")
		require.GreaterOrEqual(t, st.Stage.Makespan, with.Schedule.Makespan)
		if st.Stage.Makespan > with.Schedule.Makespan {
			below.Add(1)
			require.Equal(t, "wormhole", st.Answered)
		}
		if st.Answered == "bufferless" {
			require.Equal(t, st.Stage.Makespan, with.Schedule.Makespan)
			require.Zero(t, st.Calls, "no wormhole SAT call after the stage met the bound")
			require.Zero(t, st.CPCalls, "no wormhole schedule search after the stage met the bound")
		}
	})
}

// TestStageAnswers: on a mesh with random shortest paths (issue 27's family) the
// bufferless stage meets the wormhole lower bound, so the wormhole solve builds
// no wormhole formula, says that the bufferless stage answered, and its schedule
// is the bufferless one (no worm waits) and legal.
func TestStageAnswers(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{5, 5}, Routing: "random-shortest",
		Traffic: "random", Messages: 100, Flits: 2, Seed: 1})
	require.NoError(t, err)
	res, err := Solve(context.Background(), in, Options{})
	require.NoError(t, err)
	require.True(t, res.Optimal)
	require.NoError(t, verify.Schedule(in, res.Schedule))
	st := res.Stats
	require.True(t, st.Stage.Ran)
	require.Equal(t, "bufferless", st.Answered)
	require.Equal(t, "bufferless", st.UpperSource)
	require.Zero(t, st.Vars)
	require.Equal(t, res.Schedule.Makespan, st.Stage.Makespan)
	for _, m := range res.Schedule.Messages {
		for k := 1; k < len(m.Cross); k++ {
			require.Equal(t, m.Cross[k-1]+1, m.Cross[k], "message %s waits", m.ID)
		}
	}
}

// TestStageSkipsRepeatedSearch checks the premise on which a wormhole solve
// skips the bufferless schedule search at the horizon where its bufferless stage
// ran it with the same budget and failed (Options.blFailed): the search is
// deterministic, so two fresh searches of an instance at the same horizon, budget
// and seed give the same starts after the same failures and nodes. And the
// stage's record is honest: at the horizon it records, a fresh search finds
// nothing. And schedules, told of it, leaves out that search alone (one call
// and its failures fewer), so the test fails with the skip deleted.
func TestStageSkipsRepeatedSearch(t *testing.T) {
	var recorded atomic.Int64 // instances whose lower-bound search failed
	defer func() { t.Logf("%d instances with a failed search at the lower bound", recorded.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 5, 4, 3)
		lb := in.LowerBound().Value
		T := rapid.IntRange(lb, lb+3).Draw(t, "T")
		budget := int64(rapid.IntRange(1, 300).Draw(t, "budget"))
		a, as := newCPSearch(in, true).solve(context.Background(), T, budget, 1)
		b, bs := newCPSearch(in, true).solve(context.Background(), T, budget, 1)
		require.Equal(t, a, b)
		require.Equal(t, as.Fails, bs.Fails)
		require.Equal(t, as.Nodes, bs.Nodes)
		br, err := Solve(context.Background(), in, Options{Model: model.Bufferless, NoEdgeSet: true, NoClique: true})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, br.Schedule))
		if br.cpFailed > 0 {
			recorded.Add(1)
			starts, first := newCPSearch(in, true).solve(context.Background(), br.cpFailed, cpFirstFails, 1)
			require.Nil(t, starts, "the stage recorded a failure at %d", br.cpFailed)
			// And the skip happens: schedules told of that failure (blFailed)
			// runs every search but that one (each search starts afresh, so
			// the others are the same).
			gs, err := greedy(context.Background(), in)
			require.NoError(t, err)
			cross := make([][]int, len(gs.Messages))
			for i, x := range gs.Messages {
				cross[i] = x.Cross
			}
			best := model.NewSchedule(in, model.Bufferless, cross)
			if best.Makespan > br.cpFailed {
				searches := func(blFailed int) Stats {
					s := &search{ctx: context.Background(), in: in, opt: Options{Model: model.Bufferless, blFailed: blFailed},
						res: &Result{Lower: br.cpFailed}, best: best}
					require.NoError(t, s.schedules(false))
					require.NoError(t, verify.Schedule(in, s.best), "blFailed %d", blFailed)
					return s.res.Stats
				}
				all, skipped := searches(0), searches(br.cpFailed)
				require.Equal(t, all.CPCalls-1, skipped.CPCalls, "searches without and with the skip")
				require.Equal(t, all.CPFails-first.Fails, skipped.CPFails, "failures without and with the skip")
			}
		}
	})
}
