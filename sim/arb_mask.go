package sim

import "math/bits"

// maskArbiter is an Arbiter whose choice rests on its requesters' IDs alone, not on
// the packets they carry: it can pick from a bit mask of IDs, so that switch
// allocation need not describe a packet per request (switchRequest) nor build a
// request list. PickMask(m) is the ID reqs[Pick(reqs)].ID would be for requests
// with the IDs of m in increasing order (every ID below 64), drawing the same
// random numbers and leaving the same state. The three registered arbitrations
// are such arbiters (arb_mask_test.go checks the equality); the engine falls back
// to Pick for any other.
type maskArbiter interface {
	Arbiter
	PickMask(m uint64) int32
}

var (
	_ maskArbiter = (*roundRobin)(nil)
	_ maskArbiter = fixedOrder{}
	_ maskArbiter = randomArb{}
)

// PickMask is the first ID at or after the pointer, else the lowest.
func (a *roundRobin) PickMask(m uint64) int32 {
	if a.ptr < 64 {
		if at := m &^ (uint64(1)<<uint(a.ptr) - 1); at != 0 {
			return int32(bits.TrailingZeros64(at))
		}
	}
	return int32(bits.TrailingZeros64(m))
}

// PickMask is the lowest ID.
func (fixedOrder) PickMask(m uint64) int32 { return int32(bits.TrailingZeros64(m)) }

// PickMask is the k-th ID of m for one uniform draw k.
func (a randomArb) PickMask(m uint64) int32 {
	for k := a.r.IntN(bits.OnesCount64(m)); k > 0; k-- {
		m &= m - 1
	}
	return int32(bits.TrailingZeros64(m))
}

// maskArbiters returns arbs as maskArbiters, or nil if one of them is not.
func maskArbiters(arbs []Arbiter) []maskArbiter {
	ms := make([]maskArbiter, len(arbs))
	for i, a := range arbs {
		m, ok := a.(maskArbiter)
		if !ok {
			return nil
		}
		ms[i] = m
	}
	return ms
}
