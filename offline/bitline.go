package offline

import (
	"math"
	"math/bits"
)

// The busy steps of a heavily used edge as a bitset, for the greedy colorer of
// Ranade, Schleimer and Wilkerson (seed 002, sections 4.2 and 4.5): bit t is step
// t. A timeline (timeline.go) keeps runs of busy steps, 8 bytes a run; an edge
// that most messages cross (the links at a tree's root, every link of a small mesh
// with 10^6 paths) holds runs over most of the schedule's length, and a placement
// there tries many candidate starts, each a step from run to run through memory
// the placements before it scattered. Its bitset takes one bit a step, less than
// its runs when the edge carries more messages than the schedule has 64-step
// words, and finds the next free block with word operations.

// bitline is the set of busy steps of one edge: step t is busy when bit t%64 of
// w[t/64] is set. Steps at or beyond 64 len(w) are free. Bit i%64 of full[i/64]
// is set when word i is all busy, so that the search for a free step skips a
// packed stretch 4,096 steps at a time; the words before packed are all busy, so
// that a search from step 0 starts at once where the packed start of the edge
// ends (the edges at a tree's root fill up from step 1 on, and every placement
// there starts its search at step 0). busy counts the busy steps (the
// timeline's own count, kept here so that recording a step on the edge reads
// no memory but the bitline's).
type bitline struct {
	w, full []uint64
	packed  int
	busy    int
}

// newBitline returns an empty bitline with room for steps 0 .. horizon-1 (it
// grows past them if a block lies further).
func newBitline(horizon int) bitline {
	var b bitline
	b.grow((horizon + 63) / 64)
	return b
}

// grow makes room for n words.
func (b *bitline) grow(n int) {
	if n > len(b.w) {
		b.w = append(b.w, make([]uint64, n-len(b.w))...)
		b.full = append(b.full, make([]uint64, (n+63)/64-len(b.full))...)
	}
}

// add marks the steps lo..hi busy (0 <= lo <= hi); they must be free.
// Only filling word packed can move packed (the words before it are all busy
// already), so a block elsewhere reads no word but its own: at 10^6 mesh
// paths, where every link keeps a bitline, reading word packed on every
// recorded step was a second cache miss a hop.
//
// A block within one word (every block of a one-flit message) sets its bits
// with one mask: at 10^6 mesh paths the loop over words took 85 instructions
// a recorded step.
func (b *bitline) add(lo, hi int32) {
	if int(hi>>6) >= len(b.w) {
		b.grow(int(hi>>6) + 1)
	}
	b.busy += int(hi - lo + 1)
	if lo>>6 == hi>>6 {
		b.set(int(lo>>6), ^uint64(0)>>uint(63-(hi-lo))<<uint(lo&63))
		return
	}
	for wi := int(lo >> 6); wi <= int(hi>>6); wi++ {
		b.set(wi, wordMask(lo, hi, wi))
	}
}

// set sets the bits m of word wi, and keeps full and packed.
func (b *bitline) set(wi int, m uint64) {
	w := b.w[wi] | m
	b.w[wi] = w
	if w != ^uint64(0) {
		return
	}
	b.full[wi>>6] |= 1 << uint(wi&63)
	if wi == b.packed {
		b.packed++
		for b.packed < len(b.w) && b.w[b.packed] == ^uint64(0) {
			b.packed++
		}
	}
}

// wordMask returns the bits of word wi among the steps lo..hi.
func wordMask(lo, hi int32, wi int) uint64 {
	from, to := max(int(lo), wi*64)-wi*64, min(int(hi), wi*64+63)-wi*64
	return (^uint64(0) >> (63 - uint(to-from))) << uint(from)
}

// clearBits frees the steps lo..hi, which lie within w, and keeps full and
// packed.
func (b *bitline) clearBits(lo, hi int32) {
	b.busy -= int(hi - lo + 1)
	for wi := int(lo / 64); wi <= int(hi/64); wi++ {
		b.w[wi] &^= wordMask(lo, hi, wi)
		b.full[wi/64] &^= 1 << uint(wi%64)
		b.packed = min(b.packed, wi)
	}
}

// remove frees the steps lo..hi; it reports whether they were all busy, and
// changes nothing if not.
func (b *bitline) remove(lo, hi int32) bool {
	if b.nextFree(lo) <= hi {
		return false
	}
	b.clearBits(lo, hi)
	return true
}

// firstFree returns the smallest x >= t (t >= 0) such that steps x .. x+l-1 are
// free: the first free step from t, and if the next busy step comes within l of
// it, the same again from that busy step.
func (b *bitline) firstFree(t, l int32) int32 {
	for {
		x := b.nextFree(t)
		if l == 1 {
			return x
		}
		y := b.nextBusy(x)
		if y-x >= l {
			return x
		}
		t = y
	}
}

// nextFree returns the first free step at or after t, skipping words that are
// all busy by their bits in full.
func (b *bitline) nextFree(t int32) int32 {
	wi := int(t / 64)
	if wi < b.packed {
		wi, t = b.packed, int32(b.packed*64)
	}
	if wi >= len(b.w) {
		return t
	}
	if m := ^b.w[wi] >> uint(t%64); m != 0 {
		return t + int32(bits.TrailingZeros64(m))
	}
	for wi++; wi < len(b.w); {
		m := ^b.full[wi/64] >> uint(wi%64) // the words from wi on that are not all busy
		if m == 0 {
			wi = wi | 63 + 1
			continue
		}
		if wi += bits.TrailingZeros64(m); wi >= len(b.w) {
			break
		}
		return int32(wi*64 + bits.TrailingZeros64(^b.w[wi]))
	}
	return int32(len(b.w) * 64)
}

// nextBusy returns the first busy step at or after t, math.MaxInt32 if none.
func (b *bitline) nextBusy(t int32) int32 {
	wi := int(t / 64)
	if wi >= len(b.w) {
		return math.MaxInt32
	}
	if m := b.w[wi] >> uint(t%64); m != 0 {
		return t + int32(bits.TrailingZeros64(m))
	}
	for wi++; wi < len(b.w); wi++ {
		if b.w[wi] != 0 {
			return int32(wi*64 + bits.TrailingZeros64(b.w[wi]))
		}
	}
	return math.MaxInt32
}

// bitsAt returns the 64 steps t .. t+63 (t >= 0) as a word, step t in bit 0.
func (b *bitline) bitsAt(t int32) uint64 {
	wi, sh := int(t>>6), uint(t&63)
	var lo, hi uint64
	if wi < len(b.w) {
		lo = b.w[wi]
	}
	if wi+1 < len(b.w) {
		hi = b.w[wi+1]
	}
	return lo>>sh | hi<<(64-sh) // a shift by 64 gives 0: lo alone when sh is 0
}

// busyWindow returns a word whose bit i is set when any of the steps t+i ..
// t+i+l-1 is busy (1 <= l <= 64): the 64 blocks of l steps from t on, at once.
func (b *bitline) busyWindow(t, l int32) uint64 {
	x := b.bitsAt(t)
	if l == 1 {
		return x
	}
	y, m := b.bitsAt(t+64), x
	for d := uint(1); d < uint(l); d++ {
		m |= x>>d | y<<(64-d)
	}
	return m
}

// commonFree returns the smallest s >= from such that on every line j the
// steps s+off[j] .. s+off[j]+l-1 are free (1 <= l <= 64, offsets and from not
// negative): the greedy start of a message whose checked edges all keep
// bitlines. It takes 64 candidate starts a word: each line's busyWindow at its
// offset, the windows or-ed, the first clear bit the answer. Before each word
// every line moves s to its own first free step at its offset (nextFree, which
// skips all-busy words 64 at a time), which passes no candidate: a start that
// fits has every line free at its offset. On the two entrance edges of 10^6
// tree paths near the root, where both are packed but for scattered holes,
// trying one candidate at a time went from hole to hole on each edge in turn,
// 93 tries a message on average.
func commonFree(lines []*bitline, off []int32, from, l int32) int32 {
	if l == 1 && len(lines) == 2 {
		return commonFree2(lines[0], lines[1], off[0], off[1], from)
	}
	return commonFreeAny(lines, off, from, l)
}

// commonFreeAny is commonFree for any lines and block length, the loop
// commonFree2 specialises (TestCommonFreeMatchesStepByStep checks both on the
// same lines).
func commonFreeAny(lines []*bitline, off []int32, from, l int32) int32 {
	s := from
	for {
		for j, b := range lines {
			if x := b.nextFree(s + off[j]); x-off[j] > s {
				s = x - off[j]
			}
		}
		for range windows {
			busy := uint64(0)
			for j, b := range lines {
				busy |= b.busyWindow(s+off[j], l)
			}
			if busy != ^uint64(0) {
				return s + int32(bits.TrailingZeros64(^busy))
			}
			s += 64
		}
	}
}

// commonFree2 is commonFree for two lines a and b at offsets oa and ob and
// blocks of one step, the case of every placement of 10^6 one-flit paths on a
// tree or a 2-dimensional mesh (two entrance edges): a window is then the two
// lines' words at their offsets, read in place (bitsAt, inlined), where the
// general loop called busyWindow for each: about 130 instructions a window at
// 10^6 tree paths, 22 windows a message.
func commonFree2(a, b *bitline, oa, ob, s int32) int32 {
	for {
		if x := a.nextFree(s + oa); x-oa > s {
			s = x - oa
		}
		if x := b.nextFree(s + ob); x-ob > s {
			s = x - ob
		}
		for range windows {
			if busy := a.bitsAt(s+oa) | b.bitsAt(s+ob); busy != ^uint64(0) {
				return s + int32(bits.TrailingZeros64(^busy))
			}
			s += 64
		}
	}
}

// windows is the number of words commonFree tries after each move of the
// lines to their first free steps.
const windows = 8
