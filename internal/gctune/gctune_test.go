package gctune

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// Nested runs keep the target at Percent until the last ends, which restores the
// target from before the first.
func TestTuneNests(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(123)
	defer debug.SetGCPercent(before)
	end1 := Tune()
	end2 := Tune()
	require.Equal(t, Percent, debug.SetGCPercent(Percent))
	end1()
	require.Equal(t, Percent, debug.SetGCPercent(Percent))
	end2()
	require.Equal(t, 123, debug.SetGCPercent(123))
}

// GOGC set in the environment wins: Tune changes nothing.
func TestTuneLeavesGOGC(t *testing.T) {
	t.Setenv("GOGC", "50")
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	Tune()()
	require.Equal(t, 77, debug.SetGCPercent(77))
}

// Runs asking for different targets: the least of those lasting holds, and the
// last to end restores the target from before the first, in either order of
// ending (wormlab color's lean target inside a sweep's points, whose Tune set
// 400: before Set, color restored the target it found, leaving the sweep at 50
// when two points overlapped).
func TestSetLeastHolds(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(123)
	defer debug.SetGCPercent(before)
	cur := func() int { p := debug.SetGCPercent(0); debug.SetGCPercent(p); return p }
	for _, lastFirst := range []bool{false, true} {
		endA := Tune()
		require.Equal(t, Percent, cur())
		endB := Set(50)
		require.Equal(t, 50, cur())
		endC := Tune()
		require.Equal(t, 50, cur())
		if lastFirst {
			endB()
			require.Equal(t, Percent, cur())
			endA()
			require.Equal(t, Percent, cur())
			endC()
		} else {
			endA()
			require.Equal(t, 50, cur())
			endC()
			require.Equal(t, 50, cur())
			endB()
		}
		require.Equal(t, 123, cur())
	}
}
