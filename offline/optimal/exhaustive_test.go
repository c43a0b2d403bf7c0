package optimal

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestOptimumMatchesExhaustive checks the theorem the package rests on: Solve's
// optimum, proven by an unsatisfiable formula one step shorter, equals the least
// makespan over every legal schedule (found by brute force and judged by the
// verifier), in both models, with and without the structural aids, the schedule
// search and the bufferless stage of a wormhole solve; and every
// returned schedule is legal.
func TestOptimumMatchesExhaustive(t *testing.T) {
	var checked, skipped atomic.Int64
	defer func() { t.Logf("%d instances compared, %d too large", checked.Load(), skipped.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		aids := rapid.Bool().Draw(t, "aids")
		cp := rapid.Bool().Draw(t, "cp")
		stage := rapid.Bool().Draw(t, "bufferless stage")
		res, err := Solve(context.Background(), in, Options{Model: modelName, NoSymmetry: !aids, NoClique: !aids, NoCards: !aids, NoCP: !cp, NoStage: !stage})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		require.Equal(t, modelName, res.Schedule.Model)
		require.True(t, res.Optimal)
		want, ok := brute.Optimum(in, modelName, res.Schedule.Makespan, 300000)
		if !ok {
			skipped.Add(1)
			t.Skip("search space too large")
		}
		checked.Add(1)
		require.Equal(t, want, res.Schedule.Makespan, "optimum")
		require.Equal(t, want, res.Lower)
	})
}
