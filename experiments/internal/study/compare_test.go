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
