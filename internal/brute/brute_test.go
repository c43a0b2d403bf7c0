package brute

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
)

// MODEL.md's example (three worms on a -> b -> c): its optimum is 7 in both models
// (the flit congestion of b->c), and no schedule fits in 6.
func TestOptimumOfTheExample(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{
  "network": {"edges": [["a", "b"], ["b", "c"]]},
  "flits": 2,
  "messages": [
    {"id": "m0", "path": ["a", "b", "c"]},
    {"id": "m1", "path": ["b", "c"], "flits": 3},
    {"id": "m2", "edges": [0, 1]}
  ]
}`))
	require.NoError(t, err)
	for _, m := range []string{model.Wormhole, model.Bufferless} {
		opt, ok := Optimum(in, m, 20, 1<<20)
		require.True(t, ok)
		require.Equal(t, 7, opt, m)
		f, ok := Feasible(in, m, 6, 1<<20)
		require.True(t, ok)
		require.False(t, f, m)
	}
	_, ok := Feasible(in, model.Wormhole, 20, 10)
	require.False(t, ok, "over the budget")
}

// Vectors lists C(last, d) increasing vectors, and last - d + 1 without waits.
func TestVectorsCount(t *testing.T) {
	binom := func(n, k int) int {
		r := 1
		for i := 0; i < k; i++ {
			r = r * (n - i) / (i + 1)
		}
		return r
	}
	for d := 1; d <= 4; d++ {
		for last := d; last <= 8; last++ {
			require.Len(t, Vectors(d, last, false), binom(last, d), "d %d last %d", d, last)
			require.Len(t, Vectors(d, last, true), last-d+1)
		}
	}
}
