package sim

import (
	"math/bits"
	"math/rand/v2"
)

// flatArbitration is an Arbitration whose arbiters choose by their requesters'
// IDs alone, not by the packets they carry, and keep their whole state in one
// int32 (0 when made), by the rule flatRule describes. Switch allocation then
// keeps the states of its input and output arbiters in two tables of the engine
// and picks from bit masks of IDs: no request is built, no packet read, no
// arbiter visited through an interface per grant.
//
// For an arbiter of n requesters, rule.pick(s, m, r) is the ID that Pick would
// choose among requests with the IDs of m in increasing order (every ID below
// min(n, 64)), drawing the same numbers from r, the stream NewArbiter was given;
// rule.next(s, n, id) is the state after Granted(id). The three registered
// arbitrations are flat (arb_flat_test.go checks the equality); the engine falls
// back to Pick and Granted for any other.
type flatArbitration interface {
	Arbitration
	flatRule() flatRule
}

// flatRule is a flat arbitration: the first requester at or after a pointer (the
// state) wins, and the pointer moves past each used grant if rotate
// (round-robin) or stays at 0 (fixed order); or, if random, one uniform draw
// picks.
type flatRule struct{ rotate, random bool }

var (
	_ flatArbitration = RoundRobin{}
	_ flatArbitration = FixedOrder{}
	_ flatArbitration = Random{}
)

func (RoundRobin) flatRule() flatRule { return flatRule{rotate: true} }
func (FixedOrder) flatRule() flatRule { return flatRule{} }
func (Random) flatRule() flatRule     { return flatRule{random: true} }

// pick is the winner among the IDs of m (not 0) for state s.
func (f flatRule) pick(s int32, m uint64, r *rand.Rand) int32 {
	if f.random {
		for k := r.IntN(bits.OnesCount64(m)); k > 0; k-- {
			m &= m - 1
		}
		return int32(bits.TrailingZeros64(m))
	}
	return pickAt(s, m)
}

// pickAt is the first ID of m (not 0) at or after s, else the lowest; for a
// lone ID, that ID. It is the first ID met going round the 64 IDs from s (m
// rotated so that s comes first): a state is at most 64 (nextPointer after
// an ID below 64), and 64 starts the round at 0, as the lowest is wanted. No
// branch: which of the two cases holds is as unpredictable as arbitration.
func pickAt(s int32, m uint64) int32 {
	return int32((uint(s) + uint(bits.TrailingZeros64(bits.RotateLeft64(m, -int(s&63))))) & 63)
}

// next is state s after a used grant to id among n requesters.
func (f flatRule) next(s, n, id int32) int32 {
	if !f.rotate {
		return s
	}
	return nextPointer(id, n)
}

// nextPointer is a rotating pointer's state after a grant to id among n
// requesters: the next ID, 0 after the last.
func nextPointer(id, n int32) int32 {
	id++
	if id >= n {
		id = 0 // a conditional move, not a branch
	}
	return id
}
