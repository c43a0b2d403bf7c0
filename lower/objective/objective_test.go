package objective

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
)

// MODEL.md's example: optimum 7 (README), lower bound below it, greedy legal.
const example = fixture.ExampleInstance

func TestObjectivesOnExample(t *testing.T) {
	in, err := model.ParseInstance([]byte(example))
	require.NoError(t, err)
	ctx := context.Background()
	up, err := Solver{Model: model.Wormhole, Timeout: 10 * time.Second, Upper: true}.Measure(ctx, in)
	require.NoError(t, err)
	require.Equal(t, fixture.ExampleOptimum, up.V)
	require.Contains(t, up.How, "solver optimum")
	g, err := Greedy.Measure(ctx, in)
	require.NoError(t, err)
	require.GreaterOrEqual(t, g.V, 7)
	c, err := Colorer.Measure(ctx, in)
	require.NoError(t, err)
	require.GreaterOrEqual(t, c.V, 7) // bufferless is a special case of wormhole
	for _, n := range Names() {
		r, err := Lookup(n, DefaultModel(n), 10*time.Second)
		require.NoError(t, err)
		num, err := r.Num.Measure(ctx, in)
		require.NoError(t, err)
		den, err := r.Den.Measure(ctx, in)
		require.NoError(t, err)
		require.GreaterOrEqual(t, num.V, den.V, n) // every objective's ratio is >= 1 here
	}
	_, err = Lookup("fast/slow", model.Wormhole, time.Second)
	require.ErrorContains(t, err, `unknown objective "fast/slow"`)
	require.Equal(t, model.Bufferless, DefaultModel("colorer/opt"))
	require.Equal(t, model.Wormhole, DefaultModel("greedy/opt"))
}

// An unfinished solve (no time at all) falls back: the upper side to a schedule
// that is legal, the lower side to a value at least lower.Best.
func TestSolverFallback(t *testing.T) {
	in, err := model.ParseInstance([]byte(example))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	low, err := Solver{Model: model.Wormhole, Timeout: time.Nanosecond}.Measure(ctx, in)
	require.NoError(t, err)
	require.LessOrEqual(t, low.V, 7)
	require.GreaterOrEqual(t, low.V, 6) // lower.Best of the example
	if low.V < 7 {
		require.Contains(t, low.How, "solver unfinished")
	}
}
