package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A release puts its router's parked heads (passBy) back into the waiting set,
// so that a head that found no free output VC there is asked again, and leaves
// another router's parked heads where they are.
func TestReleaseUnparks(t *testing.T) {
	e := line(t, false, 1, 2, Pipeline{Link: 1, Credit: 1})
	iv, ov := e.ivOf(1, 0, 0), e.ovOf(1, 0, 0) // b's input from a, its output to c
	other := e.ivOf(0, 0, 0)                   // a's injection VC: another router's
	in, far := e.port(iv), e.port(other)

	e.passBy[in], e.passBy[far] = 1, 1 // (and their routers' parked marks)
	e.parked[1], e.parked[0] = 1<<uint(in-e.inBase[1]), 1<<uint(far-e.inBase[0])
	e.own(ov, iv)
	e.release(ov)
	for i := e.inBase[1]; i < e.inBase[2]; i++ {
		require.Zero(t, e.passBy[i], "input port %d of the router", i)
	}
	require.Equal(t, uint64(1), e.waiting.vcs[in], "the head is asked again")
	require.Equal(t, uint64(1)<<uint(in-e.inBase[1]), e.waiting.ports[1])
	require.Equal(t, uint64(1)<<1, e.waiting.rtrs[0], "router 1 alone waits")
	require.Equal(t, uint64(1), e.passBy[far], "another router's parked head stays")
	require.Zero(t, e.waiting.vcs[far])
	require.Zero(t, e.parked[1], "the router has none parked")
	require.NotZero(t, e.parked[0])
}
