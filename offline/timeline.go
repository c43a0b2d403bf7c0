package offline

import "slices"

// The per-edge record of occupied time that the greedy colorer of Ranade, Schleimer
// and Wilkerson (seed 002, sections 4.2 and 4.5) consults: a bufferless message with
// start s holds its k-th edge (1-based) during steps s+k .. s+k+L-1 (MODEL.md), so
// colouring a path with L contiguous colours is finding, on every edge of the path,
// a free block of L steps at the right offset.

// span is a block of busy steps lo..hi (inclusive): a run of steps during which
// one message or several, one after another, hold an edge.
type span struct{ lo, hi int32 }

// chunkMax is the largest number of spans a chunk holds before it is split in two.
// Most edges carry fewer spans than this and live in one sorted slice; a busy edge
// near a tree's root becomes a short list of chunks, so an insertion moves at most
// chunkMax spans and the chunks can be skipped whole by their largest gap.
const chunkMax = 128

// chunk is a sorted run of disjoint spans with the largest free gap between two of
// its consecutive spans (0 when it has fewer than two).
type chunk struct {
	s      []span
	maxGap int32
}

func (c *chunk) last() int32 { return c.s[len(c.s)-1].hi }

func (c *chunk) regap() {
	c.maxGap = 0
	for i := 1; i < len(c.s); i++ {
		if g := c.s[i].lo - c.s[i-1].hi - 1; g > c.maxGap {
			c.maxGap = g
		}
	}
}

// timeline is the set of busy steps of one edge, as runs (maximal within a chunk)
// in chunks sorted by time.
//
// Invariants: every chunk is non-empty; runs are disjoint and sorted across the
// whole list; two consecutive runs of one chunk do not touch (runs in neighbouring
// chunks may); a chunk holds at most chunkMax runs; lasts[i] is the last busy step
// of chunk i.
//
// lasts is the chunks' ends side by side, so that the binary search for a chunk
// reads one small array instead of following every probed chunk's slice into
// memory of its own (at 10^6 tree paths those cache misses were most of the
// colouring).
//
// Blocks recorded with add wait in pend, unsorted, until the timeline is next read
// (flush): an edge is read only when it is an entrance edge of a later message,
// often long after most of its blocks were recorded, and then the blocks go in
// together, sorted and merged with the runs in one pass, instead of one sorted
// insertion each into memory that is cold by then. The last block added waits in
// the timeline itself (tail), so that adding the next one reads no memory of
// the pending list's own (it only writes there, when the two do not touch): at
// 10^6 tree paths the read of the list's last block was a cache miss waited for
// at most of the recorded hops. The fields add uses come first.
type timeline struct {
	busy   int      // number of busy steps, pending blocks included
	tail   uint64   // ^packSpan of the last block added, 0 for none; pending like pend's
	pend   []uint64 // blocks added and not yet in the chunks (packSpan), tail not included
	chunks []chunk
	lasts  []int32
}

// add records the steps lo..hi busy; they must be free and not negative (a start
// is not). The block joins the runs at the next read (flush).
//
// A block that continues the last pending one (the next message of a tightly
// packed edge, common near a tree's root) extends it instead: the flush merges
// touching blocks anyway, and the pending list holds a span less.
func (tl *timeline) add(lo, hi int32) {
	tl.busy += int(hi - lo + 1)
	if tl.tail != 0 {
		last := unpackSpan(^tl.tail)
		switch {
		case last.hi+1 == lo:
			tl.tail = ^packSpan(span{last.lo, hi})
			return
		case hi+1 == last.lo:
			tl.tail = ^packSpan(span{lo, last.hi})
			return
		}
		tl.pend = append(tl.pend, ^tl.tail)
	}
	tl.tail = ^packSpan(span{lo, hi})
}

// packSpan packs a block of non-negative steps into one word that sorts like the
// block among disjoint blocks (by its last step, then its first), so that a
// flush sorts machine words instead of calling a comparison per pair.
func packSpan(sp span) uint64 { return uint64(uint32(sp.hi))<<32 | uint64(uint32(sp.lo)) }

func unpackSpan(w uint64) span { return span{lo: int32(uint32(w)), hi: int32(w >> 32)} }

// flush moves the pending blocks into the chunks: one by one (insert) when they are
// few against the chunks' runs, else sorted and merged with every run at once.
func (tl *timeline) flush() {
	if tl.tail == 0 {
		return // no block added since the last flush
	}
	tl.pend = append(tl.pend, ^tl.tail)
	tl.tail = 0
	p := len(tl.pend)
	if p < 8 || p*32 < len(tl.chunks)*chunkMax {
		for _, w := range tl.pend {
			sp := unpackSpan(w)
			tl.busy -= int(sp.hi - sp.lo + 1) // insert counts them again
			tl.insert(sp.lo, sp.hi)
		}
		tl.pend = tl.pend[:0]
		return
	}
	pend := tl.pend
	slices.Sort(pend)
	n := p
	for ci := range tl.chunks {
		n += len(tl.chunks[ci].s)
	}
	all := make([]span, 0, n)
	push := func(sp span) {
		if k := len(all) - 1; k >= 0 && all[k].hi+1 >= sp.lo {
			all[k].hi = max(all[k].hi, sp.hi)
			return
		}
		all = append(all, sp)
	}
	k := 0
	for ci := range tl.chunks {
		for _, sp := range tl.chunks[ci].s {
			for k < p && unpackSpan(pend[k]).lo < sp.lo {
				push(unpackSpan(pend[k]))
				k++
			}
			push(sp)
		}
	}
	for ; k < p; k++ {
		push(unpackSpan(pend[k]))
	}
	// Chunks half full, each capped so that an insertion reallocates it rather
	// than writing into the next.
	const fill = chunkMax / 2
	tl.chunks, tl.lasts = tl.chunks[:0], tl.lasts[:0]
	for lo := 0; lo < len(all); lo += fill {
		hi := min(lo+fill, len(all))
		c := chunk{s: all[lo:hi:hi]}
		c.regap()
		tl.chunks = append(tl.chunks, c)
		tl.lasts = append(tl.lasts, c.last())
	}
	// A bulk merge mostly happens once, at an edge's first read after many
	// placements: keeping a buffer that long would hold the spans twice.
	tl.pend = nil
}

// sync records chunk ci's last step in lasts after the chunk changed.
func (tl *timeline) sync(ci int) { tl.lasts[ci] = tl.chunks[ci].last() }

// findChunk returns the index of the first chunk from index lo on whose last span
// ends at or after t (len(chunks) when none does). O(log(number of chunks)).
func (tl *timeline) findChunk(lo int, t int32) int {
	hi := len(tl.lasts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tl.lasts[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// firstSpan returns the index in c.s of the first span from index lo on ending at
// or after t.
func (c *chunk) firstSpan(lo int, t int32) int {
	hi := len(c.s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c.s[m].hi < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// cursor is a position in a timeline: span j of chunk ci (ci = len(chunks) past
// the end). A placement keeps one per searched edge: its candidate start only
// grows, so each search resumes where the previous one on that edge stopped. A
// cursor is valid until the timeline changes.
type cursor struct{ ci, j int }

// seek moves cur forward to the first span ending at or after t; cur must not be
// past that span already. A short step stays in the chunk and walks a few spans; a
// long one binary-searches the chunks after cur and then the spans.
func (tl *timeline) seek(cur *cursor, t int32) {
	if cur.ci < len(tl.chunks) && tl.lasts[cur.ci] < t {
		cur.ci, cur.j = tl.findChunk(cur.ci+1, t), 0
	}
	if cur.ci == len(tl.chunks) {
		return
	}
	c := &tl.chunks[cur.ci]
	for n := 0; c.s[cur.j].hi < t; n++ {
		if n == 4 {
			cur.j = c.firstSpan(cur.j+1, t)
			return
		}
		cur.j++
	}
}

// firstFree returns the smallest x >= t such that steps x .. x+l-1 are free.
func (tl *timeline) firstFree(t, l int32) int32 {
	var cur cursor
	return tl.firstFreeFrom(&cur, t, l)
}

// firstFreeFrom is firstFree resuming at cur (see seek), and leaves cur at the
// first span ending at or after the answer. It never looks at single steps: it
// jumps from span to span, and skips a whole chunk when the chunk's largest inner
// gap is shorter than l.
func (tl *timeline) firstFreeFrom(cur *cursor, t, l int32) int32 {
	tl.flush() // a cursor is taken on a flushed timeline: this does nothing then
	tl.seek(cur, t)
	ci, j := cur.ci, cur.j
	if ci == len(tl.chunks) {
		return t
	}
	x := t
	c := &tl.chunks[ci]
	for {
		for ; j < len(c.s); j++ {
			sp := c.s[j]
			if x+l-1 < sp.lo {
				cur.ci, cur.j = ci, j
				return x
			}
			if sp.hi+1 > x {
				x = sp.hi + 1
			}
		}
		// x is just after chunk ci; move on, skipping chunks with no room inside.
		for {
			ci++
			if ci == len(tl.chunks) {
				cur.ci, cur.j = ci, 0
				return x
			}
			c = &tl.chunks[ci]
			if x+l-1 < c.s[0].lo {
				cur.ci, cur.j = ci, 0
				return x
			}
			if c.maxGap >= l {
				break
			}
			x = tl.lasts[ci] + 1
		}
		j = 0
	}
}

// free reports whether steps lo..hi are free.
func (tl *timeline) free(lo, hi int32) bool {
	return tl.firstFree(lo, hi-lo+1) == lo
}

// insert marks the steps lo..hi busy; they must be free (the caller checked it).
// A block touching a run of the same chunk joins it, so a fully packed stretch is
// one run however many messages fill it. O(log r + chunkMax + r/chunkMax) for r
// runs on the edge.
func (tl *timeline) insert(lo, hi int32) {
	tl.busy += int(hi - lo + 1)
	if len(tl.chunks) == 0 {
		tl.chunks = append(tl.chunks, chunk{s: []span{{lo, hi}}})
		tl.lasts = append(tl.lasts, hi)
		return
	}
	ci := tl.findChunk(0, lo)
	if ci == len(tl.chunks) {
		ci--
	}
	c := &tl.chunks[ci]
	j := c.firstSpan(0, lo) // runs before j end before lo; run j (if any) starts after hi
	prevAdj := j > 0 && c.s[j-1].hi+1 == lo
	nextAdj := j < len(c.s) && c.s[j].lo == hi+1
	// The gap lo..hi fell in shrinks or closes; the largest gap needs a recount
	// only if it was that one.
	old := int32(-1)
	if j > 0 && j < len(c.s) {
		old = c.s[j].lo - c.s[j-1].hi - 1
	}
	switch {
	case prevAdj && nextAdj:
		c.s[j-1].hi = c.s[j].hi
		c.s = append(c.s[:j], c.s[j+1:]...)
	case prevAdj:
		c.s[j-1].hi = hi
	case nextAdj:
		c.s[j].lo = lo
	default:
		c.s = append(c.s, span{})
		copy(c.s[j+1:], c.s[j:])
		c.s[j] = span{lo, hi}
		switch {
		case old >= 0:
		case j == 0:
			c.maxGap = max(c.maxGap, c.s[1].lo-hi-1) // a new gap at the front
		default:
			c.maxGap = max(c.maxGap, lo-c.s[j-1].hi-1) // a new gap at the back
		}
	}
	if old == c.maxGap {
		c.regap()
	}
	tl.sync(ci)
	tl.splitIfFull(ci)
}

// splitIfFull splits chunk ci in two halves when it holds more than chunkMax runs.
func (tl *timeline) splitIfFull(ci int) {
	c := &tl.chunks[ci]
	if len(c.s) <= chunkMax {
		return
	}
	half := len(c.s) / 2
	right := chunk{s: append(make([]span, 0, chunkMax), c.s[half:]...)}
	c.s = c.s[:half]
	c.regap()
	right.regap()
	tl.chunks = append(tl.chunks, chunk{})
	copy(tl.chunks[ci+2:], tl.chunks[ci+1:])
	tl.chunks[ci+1] = right
	tl.lasts = append(tl.lasts, 0)
	copy(tl.lasts[ci+2:], tl.lasts[ci+1:])
	tl.sync(ci)
	tl.sync(ci + 1)
}

// remove frees the steps lo..hi; it reports whether they were all busy (in one
// run), and changes nothing if not.
func (tl *timeline) remove(lo, hi int32) bool {
	tl.flush()
	ci := tl.findChunk(0, lo)
	if ci == len(tl.chunks) {
		return false
	}
	c := &tl.chunks[ci]
	j := c.firstSpan(0, lo)
	if j == len(c.s) || c.s[j].lo > lo || c.s[j].hi < hi {
		return false
	}
	tl.busy -= int(hi - lo + 1)
	run := c.s[j]
	switch {
	case run.lo == lo && run.hi == hi:
		inner := j > 0 && j < len(c.s)-1
		c.s = append(c.s[:j], c.s[j+1:]...)
		if len(c.s) == 0 {
			tl.chunks = append(tl.chunks[:ci], tl.chunks[ci+1:]...)
			tl.lasts = append(tl.lasts[:ci], tl.lasts[ci+1:]...)
			return true
		}
		if inner {
			c.maxGap = max(c.maxGap, c.s[j].lo-c.s[j-1].hi-1) // two gaps merge
		} else {
			c.regap() // a gap at an end disappeared
		}
	case run.lo == lo:
		c.s[j].lo = hi + 1
		if j > 0 {
			c.maxGap = max(c.maxGap, c.s[j].lo-c.s[j-1].hi-1)
		}
	case run.hi == hi:
		c.s[j].hi = lo - 1
		if j < len(c.s)-1 {
			c.maxGap = max(c.maxGap, c.s[j+1].lo-c.s[j].hi-1)
		}
	default: // the run splits around a new gap lo..hi
		c.s = append(c.s, span{})
		copy(c.s[j+1:], c.s[j:])
		c.s[j].hi = lo - 1
		c.s[j+1].lo = hi + 1
		c.maxGap = max(c.maxGap, hi-lo+1)
	}
	tl.sync(ci)
	tl.splitIfFull(ci)
	return true
}
