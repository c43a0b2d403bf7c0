package lower

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
)

// exhaustiveMeasure is the exact wormhole optimum (tiny instances only).
var exhaustiveMeasure = MeasureFunc(func(_ context.Context, in *model.Instance) (Value, error) {
	return Value{wormholeOptimum(in), "exhaustive optimum"}, nil
})

func TestAdversaryOptimumOverLower(t *testing.T) {
	top, err := ParseNetwork("line:4", 1)
	require.NoError(t, err)
	cfg := AdversaryConfig{Objective: "opt/lower", Num: exhaustiveMeasure, Den: LowerMeasure,
		Messages: 3, MaxMessages: 4, Flits: 2, Seed: 7, Iterations: 60}
	res, err := Adversary(context.Background(), top, cfg)
	require.NoError(t, err)
	require.NoError(t, res.Instance.Validate())
	// the recorded values are those of the returned instance, and a lower bound
	// never exceeds the optimum (ratio >= 1).
	assert.Equal(t, wormholeOptimum(res.Instance), res.Num.V)
	assert.Equal(t, Best(res.Instance).Value, res.Den.V)
	assert.GreaterOrEqual(t, res.Ratio, 1.0)
	assert.LessOrEqual(t, len(res.Instance.Messages), 4)
	var extra map[string]any
	require.NoError(t, json.Unmarshal(res.Instance.Extra["adversary"], &extra))
	assert.Equal(t, "opt/lower", extra["objective"])
	assert.Equal(t, 60, res.Iterations)

	// same seed, same search, bit for bit.
	again, err := Adversary(context.Background(), top, cfg)
	require.NoError(t, err)
	a, _ := res.Instance.MarshalJSON()
	b, _ := again.Instance.MarshalJSON()
	assert.Equal(t, string(a), string(b))
}

// The search never returns a ratio below the start's: the best only improves.
func TestAdversaryMonotone(t *testing.T) {
	top, err := ParseNetwork("mesh:3x3", 1)
	require.NoError(t, err)
	var seen []float64
	cfg := AdversaryConfig{Objective: "lower/dilation", Num: LowerMeasure,
		Den: MeasureFunc(func(_ context.Context, in *model.Instance) (Value, error) {
			return Value{in.Measure().D + in.Flits - 1, "dilation"}, nil
		}),
		Messages: 6, Flits: 3, Seed: 3, Iterations: 100,
		Progress: func(p AdversaryProgress) { seen = append(seen, p.Best) }}
	res, err := Adversary(context.Background(), top, cfg)
	require.NoError(t, err)
	for i := 1; i < len(seen); i++ {
		require.GreaterOrEqual(t, seen[i], seen[i-1])
	}
	assert.Equal(t, seen[len(seen)-1], res.Ratio)
	assert.Greater(t, res.Improved, 0)
}

func TestParseNetworkErrors(t *testing.T) {
	for _, spec := range []string{"mesh", "mesh:3y3", "foo:3", "butterfly:6", "kary-tree:2", "line:x"} {
		_, err := ParseNetwork(spec, 1)
		assert.Error(t, err, spec)
	}
	for _, spec := range []string{"line:5", "mesh:3x3", "torus:3x3", "tree:7", "kary-tree:2x3", "butterfly:8", "fat-tree:16", "levelled:3x4"} {
		_, err := ParseNetwork(spec, 1)
		assert.NoError(t, err, spec)
	}
}

// Cancelling the context (Ctrl-C) stops the search at once with the best instance
// so far, marked interrupted; a value measured under the cancelled context is not
// kept.
func TestAdversaryInterrupted(t *testing.T) {
	top, err := ParseNetwork("line:4", 1)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	num := MeasureFunc(func(ctx context.Context, in *model.Instance) (Value, error) {
		calls++
		if calls == 3 {
			cancel()
			return Value{1 << 20, "inflated by an interrupted solve"}, nil
		}
		return Value{wormholeOptimum(in), "exhaustive optimum"}, nil
	})
	cfg := AdversaryConfig{Num: num, Den: LowerMeasure, Messages: 3, Flits: 2, Seed: 7, Iterations: 1000}
	res, err := Adversary(ctx, top, cfg)
	require.NoError(t, err)
	require.True(t, res.Interrupted)
	require.Less(t, res.Iterations, 1000)
	require.Less(t, res.Num.V, 1<<20)
	require.Equal(t, wormholeOptimum(res.Instance), res.Num.V)
}
