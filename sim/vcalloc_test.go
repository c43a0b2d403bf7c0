package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// own gives output VC ov to input VC iv, as grantVC does (the tests' setup of
// a held output VC).
func (e *engine) own(ov, iv int32) {
	e.ov[ov].owner = iv
	e.out[e.port(ov)].free &^= 1 << uint(ov&e.vm&63)
}

// A release puts back into the waiting set the parked heads (passBy) of its
// router with a choice of the released VC's port that allows its VC, and leaves
// the others parked (what they may take has not changed): the heads of the same
// port allowing another VC, those of another port, another router's.
func TestReleaseUnparks(t *testing.T) {
	e := line(t, false, 2, 2, Pipeline{Link: 1, Credit: 1})
	require.GreaterOrEqual(t, e.inBase[2]-e.inBase[1], int32(2), "b has two input ports")
	iv, ov := e.ivOf(1, 0, 0), e.ovOf(1, 0, 0) // b's input from a, its output to c
	in, in2 := e.port(iv), e.port(e.ivOf(1, 1, 0))
	far := e.port(e.ivOf(0, 0, 0))                            // a's injection port: another router's
	e.heads[iv].ch = []Choice{{Port: 0, VCs: 1}}              // VC 0 to c: takes ov
	e.heads[e.ivOf(1, 0, 1)].ch = []Choice{{Port: 0, VCs: 2}} // VC 1 to c only
	e.heads[e.ivOf(1, 1, 0)].ch = []Choice{{Port: 1, VCs: 3}} // the other port
	e.heads[e.ivOf(0, 0, 0)].ch = []Choice{{Port: 0, VCs: 3}} // a's port 0
	bit := func(x int32) uint64 { return 1 << uint(x-e.inBase[e.in[x].rtr]) }
	e.passBy[in], e.passBy[in2], e.passBy[far] = 3, 1, 1 // and their routers' parked marks
	e.parked[1], e.parked[0] = bit(in)|bit(in2), bit(far)
	e.own(ov, iv)
	e.release(e.outRtr[e.port(ov)], ov)
	require.Equal(t, uint64(1), e.waiting.vcs[in], "the head allowed ov is asked again")
	require.Equal(t, uint64(2), e.passBy[in], "the head allowed VC 1 only stays parked")
	require.Equal(t, uint64(1), e.passBy[in2], "a head of another port stays parked")
	require.Zero(t, e.waiting.vcs[in2])
	require.Equal(t, bit(in), e.waiting.ports[1])
	require.Equal(t, uint64(1)<<1, e.waiting.rtrs[0], "router 1 alone waits")
	require.Equal(t, uint64(1), e.passBy[far], "another router's parked head stays")
	require.Zero(t, e.waiting.vcs[far])
	require.Equal(t, bit(in)|bit(in2), e.parked[1], "both ports still have parked heads")
	require.Equal(t, bit(far), e.parked[0])

	// VC 1 to c released: its head is back, and its port has none parked
	ov1 := e.ovOf(1, 0, 1)
	e.own(ov1, e.ivOf(1, 0, 1))
	e.release(e.outRtr[e.port(ov1)], ov1)
	require.Equal(t, uint64(3), e.waiting.vcs[in])
	require.Zero(t, e.passBy[in])
	require.Equal(t, bit(in2), e.parked[1], "only the other port has a parked head")
	require.Equal(t, uint64(1), e.passBy[in2])
}
