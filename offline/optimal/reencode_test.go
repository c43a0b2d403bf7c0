package optimal

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestReencodedDescentKeepsTheOptimum checks descentStep's lemma: the formula
// encoded at the step's horizon T has a schedule exactly when the first
// formula with T as unit clauses has one (both say "a schedule of makespan at
// most T exists"), so a descent that encodes again on its way down ends at the
// same optimum. The descent alone (descend), from the greedy schedule
// (often several steps above the optimum) on the formula of one below it,
// ends with a schedule and a refuted horizon at the makespan Solve proves;
// some of the runs must have encoded again, or the test checks nothing.
func TestReencodedDescentKeepsTheOptimum(t *testing.T) {
	reencoded := 0
	rapid.Check(t, func(t *rapid.T) {
		in := someMesh(t, 40, 6)
		ctx := context.Background()
		ref, err := Solve(ctx, in, Options{Model: model.Bufferless})
		require.NoError(t, err)
		require.True(t, ref.Optimal)
		// the greedy schedule, every worm delayed by the same steps: still
		// legal, and the descent starts well above the optimum
		g, err := greedy(in)
		require.NoError(t, err)
		delay := rapid.IntRange(0, 8).Draw(t, "delay")
		cross := make([][]int, len(g.Messages))
		for i, m := range g.Messages {
			for _, v := range m.Cross {
				cross[i] = append(cross[i], v+delay)
			}
		}
		g = model.NewSchedule(in, model.Bufferless, cross)
		require.NoError(t, verify.Schedule(in, g))
		if g.Makespan <= ref.Schedule.Makespan {
			t.Skip("the greedy schedule is optimal")
		}
		opt := Options{Model: model.Bufferless}
		f, err := encode(in, opt.Model, g.Makespan-1, encodeOptions{symmetry: true, cards: true})
		require.NoError(t, err)
		s := &search{ctx: ctx, in: in, opt: opt, res: &Result{}, best: g, f: f, df: f, g: load(f, nil)}
		found, err := s.descend(ctx)
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, ref.Schedule.Makespan, s.best.Makespan)
		require.Equal(t, ref.Schedule.Makespan, s.res.Lower)
		require.NoError(t, verify.Schedule(in, s.best))
		reencoded += s.res.Stats.Reencoded
	})
	require.Positive(t, reencoded, "no descent encoded again")
}
