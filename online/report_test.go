package online

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

func TestReportShape(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network":{"edges":[["a","b"],["b","c"]]},"flits":2,
	  "messages":[{"id":"p","path":["a","b","c"]},{"id":"q","path":["a","b"]}]}`))
	require.NoError(t, err)
	keys := func(alg Algorithm) map[string]any {
		r, err := Run(context.Background(), in, alg, Options{Seed: 3})
		require.NoError(t, err)
		b, err := json.Marshal(r.Report())
		require.NoError(t, err)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		return m
	}
	g := keys(Greedy{})
	require.Equal(t, "greedy", g["algo"])
	require.Equal(t, "message", g["arb"])
	require.NotContains(t, g, "delayed")
	require.NotContains(t, g, "rotate")
	a := keys(AlgorithmA{K: 1})["delayed"].(map[string]any)
	require.Equal(t, "phases", a["variant"])
	require.Contains(t, a, "late") // 0 is printed
	require.NotContains(t, a, "rounds")
	require.NotContains(t, a, "R")
	a = keys(AlgorithmA{K: 1, T: 1, Doubling: true})["delayed"].(map[string]any)
	require.Contains(t, a, "rounds")
	require.NotContains(t, a, "late")
	rd := keys(RandomDelay{})["delayed"].(map[string]any)
	require.Equal(t, map[string]any{"variant": "random", "R": 2.0, "unit": 2.0}, rd)
	p := keys(Phased{})["phased"].(map[string]any)
	require.Equal(t, 0.5, p["alpha"])
	require.Contains(t, p, "undelivered_after_phase_one")
}

// Property: Running (Welford's one-pass update) agrees with the two-pass mean and
// sample standard deviation, and with the extremes.
func TestRunningMatchesTwoPass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.Float64Range(-1e6, 1e6), 1, 50).Draw(t, "xs")
		var r Running
		mean, lo, hi := 0.0, xs[0], xs[0]
		for _, x := range xs {
			r.Add(x)
			mean += x
			lo, hi = min(lo, x), max(hi, x)
		}
		mean /= float64(len(xs))
		ss := 0.0
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
		}
		s := r.Stat()
		require.InDelta(t, mean, s.Mean, 1e-6*(1+math.Abs(mean)))
		require.Equal(t, lo, s.Min)
		require.Equal(t, hi, s.Max)
		if len(xs) > 1 {
			sd := math.Sqrt(ss / float64(len(xs)-1))
			require.InDelta(t, sd, s.StdDev, 1e-6*(1+sd))
			require.LessOrEqual(t, s.Lo, s.Mean)
			require.GreaterOrEqual(t, s.Hi, s.Mean)
		}
	})
}

// A cancelled context stops Trials with the trials done, not an error.
func TestTrialsInterrupted(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network":{"edges":[["a","b"]]},"messages":[{"id":"p","path":["a","b"]}]}`))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := Trials(ctx, in, Greedy{}, Options{}, 2000000000)
	require.NoError(t, err)
	require.True(t, s.Interrupted)
	require.Equal(t, 0, s.Done)
	require.Equal(t, 2000000000, s.Trials)
	s, err = Trials(context.Background(), in, Greedy{}, Options{}, 5)
	require.NoError(t, err)
	require.False(t, s.Interrupted)
	require.Equal(t, 5, s.Done)
	require.Equal(t, 1.0, s.Makespan.Mean)
}
