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

// Most decides "most cases hold" only where the level cases cannot change the
// answer: with yes, level and no cases of n, it holds iff yes > n/2, fails iff
// yes + level <= n/2, and is level between (seed001's 2a: 4 ahead, 4 level, 2
// behind of 10 could be 8 of 10 or 4). Every holds iff all hold, fails iff one
// fails.
func TestMostEvery(t *testing.T) {
	for n := 0; n <= 7; n++ {
		for yes := 0; yes <= n; yes++ {
			for level := 0; yes+level <= n; level++ {
				no := n - yes - level
				// the majority counted every way the level cases may fall
				best, worst := 2*(yes+level) > n, 2*yes > n
				want := Inconclusive
				if best == worst {
					want = map[bool]Outcome{true: Holds, false: Fails}[best]
				}
				require.Equal(t, want, Most(yes, level, n), "most: yes %d level %d of %d", yes, level, n)
				want = Inconclusive
				if yes+level == n && (level == 0) {
					want = Holds
				} else if no > 0 {
					want = Fails
				}
				require.Equal(t, want, Every(yes, no, n), "every: yes %d no %d of %d", yes, no, n)
			}
		}
	}
	require.Equal(t, Inconclusive, Most(4, 4, 10))
	require.Equal(t, Fails, Most(2, 3, 10))
	require.Equal(t, Holds, Most(6, 3, 10))
}
