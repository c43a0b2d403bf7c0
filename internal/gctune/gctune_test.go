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
