package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A release moves its router's epoch on, so that a head recorded as finding no
// free output VC there (blocked equal to the epoch) is asked again; when the epoch
// wraps, the router's records are cleared and it restarts at 1, so that no record
// left from before the wrap can equal it.
func TestReleaseMovesEpoch(t *testing.T) {
	e := line(t, false, 1, 2, Pipeline{Link: 1, Credit: 1})
	iv, ov := e.ivOf(1, 0, 0), e.ovOf(1, 0, 0) // b's input from a, its output to c
	other := e.ivOf(0, 0, 0)                   // a's injection VC: another router's record

	e.epoch[1], e.heads[iv].blocked, e.heads[other].blocked = 5, 5, 7
	e.own(ov, iv)
	e.release(ov)
	require.Equal(t, uint32(6), e.epoch[1])
	require.NotEqual(t, e.epoch[1], e.heads[iv].blocked, "the head is asked again")

	e.epoch[1], e.heads[iv].blocked = ^uint32(0), ^uint32(0)
	e.own(ov, iv)
	e.release(ov)
	require.Equal(t, uint32(1), e.epoch[1], "a wrapped epoch restarts at 1")
	require.Equal(t, uint32(0), e.heads[iv].blocked, "the router's records are cleared")
	require.Equal(t, uint32(7), e.heads[other].blocked, "another router's records are kept")
}
