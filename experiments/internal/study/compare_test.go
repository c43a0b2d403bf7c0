package study

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Compare separates two estimates only when their intervals are disjoint, and
// Judge reads a claim from that: overlapping intervals are inconclusive whatever
// the means say (seed 001's claim 5 at saturation: +21.5% ± 4.6 against +17.6% ±
// 7.3 overlap, so "smaller with 64-flit packets" is level, not reproduced).
func TestCompareJudge(t *testing.T) {
	g8 := Est{Mean: 1.215, Half: 0.046, N: 5}
	g64 := Est{Mean: 1.176, Half: 0.073, N: 5}
	require.Equal(t, Level, Compare(g64, g8))
	require.Equal(t, Level, Compare(g8, g64))
	require.Equal(t, Inconclusive, Judge(g64, g8, Lower))

	past8 := Est{Mean: 2.452, Half: 0.051, N: 5}
	past64 := Est{Mean: 1.657, Half: 0.092, N: 5}
	require.Equal(t, Lower, Compare(past64, past8))
	require.Equal(t, Higher, Compare(past8, past64))
	require.Equal(t, Holds, Judge(past64, past8, Lower))
	require.Equal(t, Fails, Judge(past64, past8, Higher))

	// touching intervals are level; a single replication is its mean
	require.Equal(t, Level, Compare(Est{Mean: 2, Half: 1, N: 3}, Est{Mean: 0, Half: 1, N: 3}))
	require.Equal(t, Higher, Compare(Est{Mean: 1.01, N: 1}, Est{Mean: 1, N: 1}))
}

// Within decides a band as Compare decides two intervals: inside holds, wholly
// outside fails, across or touching an end is inconclusive (seed 001's claim 4a:
// +17.6% ± 7.3 holds 15%).
func TestWithin(t *testing.T) {
	for _, c := range []struct {
		a    Est
		want Outcome
	}{
		{Est{Mean: 1.25, Half: 0.05, N: 5}, Holds},
		{Est{Mean: 1.176, Half: 0.073, N: 5}, Inconclusive},
		{Est{Mean: 1.30, Half: 0.10, N: 5}, Inconclusive},
		{Est{Mean: 1.20, Half: 0.05, N: 5}, Inconclusive}, // touches 1.15
		{Est{Mean: 1.30, Half: 0.05, N: 5}, Inconclusive}, // touches 1.35
		{Est{Mean: 1.10, Half: 0.05, N: 5}, Inconclusive}, // touches 1.15 from below
		{Est{Mean: 1.108, Half: 0.069, N: 5}, Inconclusive},
		{Est{Mean: 1.05, Half: 0.05, N: 5}, Fails},
		{Est{Mean: 1.45, Half: 0.05, N: 5}, Fails},
		{Est{Mean: 1.0, Half: 1.0, N: 5}, Inconclusive}, // holds the whole band
	} {
		require.Equal(t, c.want, Within(c.a, 1.15, 1.35), "%+v", c.a)
	}
	// ends exact in binary: an interval that touches both ends is level with them,
	// one strictly inside holds
	require.Equal(t, Inconclusive, Within(Est{Mean: 1.25, Half: 0.125, N: 5}, 1.125, 1.375))
	require.Equal(t, Inconclusive, Within(Est{Mean: 1.25, Half: 0.125, N: 5}, 1.125, 1.5))
	require.Equal(t, Holds, Within(Est{Mean: 1.25, Half: 0.0625, N: 5}, 1.125, 1.375))
	require.Equal(t, Fails, Within(Est{Mean: 1, Half: 0.0625, N: 5}, 1.125, 1.375))
}
