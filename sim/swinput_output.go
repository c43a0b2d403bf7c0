package sim

// BookSim2's input stage of its separable input-first switch allocator
// (allocators/separable_input_first.cpp, separable.cpp, arbiters/roundrobin_arb.cpp
// and routers/iq_router.cpp's _SWAllocAddReq and _SWAllocUpdate, with
// input_speedup and output_speedup 1 and no packet priorities): an input port
// makes at most one request per output port, from the VC first at or after the
// port's VC pointer (_sw_rr_offset, moved to one past the VC of a used grant)
// among its VCs asking for that output; the port's input arbiter, a round-robin
// arbiter over the output ports, then forwards the request of the output first
// at or after its pointer (moved to one past the granted output by UpdateState
// when the output arbiter grants it). Under wormlab's default (ByVC) one pointer
// over the VCs decides alone, so a port's VCs take turns whatever outputs they
// ask for; here the outputs take turns, and ports whose VCs ask for the same
// outputs drift apart in what they ask (docs/dragonfly.md).

import "math/bits"

// ByOutput is BookSim2's input stage: the output first at or after the port's
// output pointer among those its bidding VCs ask for, then among the VCs
// asking for it the first at or after the port's VC pointer.
type ByOutput struct{}

var _ SwitchInput = ByOutput{}

func init() { RegisterSwitchInput("output", ByOutput{}) }

func (ByOutput) pick(bid uint64, vcs []inVC, vcPtr, outPtr int32) int32 {
	if bid&(bid-1) == 0 {
		return int32(bits.TrailingZeros64(bid))
	}
	var outs uint64 // the output ports asked for
	for m := bid; m != 0; m &= m - 1 {
		outs |= 1 << (vcs[bits.TrailingZeros64(m)].op & 63)
	}
	o := uint8(pickAt(outPtr, outs))
	var asking uint64 // the bidding VCs that ask for o
	for m := bid; m != 0; m &= m - 1 {
		v := bits.TrailingZeros64(m)
		if vcs[v].op&63 == o {
			asking |= 1 << uint(v)
		}
	}
	return pickAt(vcPtr, asking)
}
