package offline

// The per-edge record of occupied time that the greedy colorer of Ranade, Schleimer
// and Wilkerson (seed 002, sections 4.2 and 4.5) consults: a bufferless message with
// start s holds its k-th edge (1-based) during steps s+k .. s+k+L-1 (MODEL.md), so
// colouring a path with L contiguous colours is finding, on every edge of the path,
// a free block of L steps at the right offset.

// span is a block of steps lo..hi (inclusive) during which one message holds an edge.
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

// timeline is the set of disjoint spans held on one edge, as chunks sorted by time.
//
// Invariants: every chunk is non-empty; spans are disjoint and sorted across the
// whole list; a chunk holds at most chunkMax spans.
type timeline struct {
	chunks []chunk
	size   int // number of spans
}

// findChunk returns the index of the first chunk whose last span ends at or after t
// (len(chunks) when none does). O(log(number of chunks)).
func (tl *timeline) findChunk(t int32) int {
	lo, hi := 0, len(tl.chunks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tl.chunks[m].last() < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// firstSpan returns the index in c.s of the first span ending at or after t.
func (c *chunk) firstSpan(t int32) int {
	lo, hi := 0, len(c.s)
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
	if cur.ci < len(tl.chunks) && tl.chunks[cur.ci].last() < t {
		lo, hi := cur.ci+1, len(tl.chunks)
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if tl.chunks[m].last() < t {
				lo = m + 1
			} else {
				hi = m
			}
		}
		cur.ci, cur.j = lo, 0
	}
	if cur.ci == len(tl.chunks) {
		return
	}
	c := &tl.chunks[cur.ci]
	for n := 0; c.s[cur.j].hi < t; n++ {
		if n == 4 {
			lo, hi := cur.j+1, len(c.s)
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if c.s[m].hi < t {
					lo = m + 1
				} else {
					hi = m
				}
			}
			cur.j = lo
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
			x = c.last() + 1
		}
		j = 0
	}
}

// free reports whether steps lo..hi are free.
func (tl *timeline) free(lo, hi int32) bool {
	return tl.firstFree(lo, hi-lo+1) == lo
}

// insert adds the span lo..hi, which must be free (the caller checked it).
// O(log c + chunkMax + c/chunkMax) for c spans on the edge.
func (tl *timeline) insert(lo, hi int32) {
	tl.size++
	if len(tl.chunks) == 0 {
		tl.chunks = append(tl.chunks, chunk{s: []span{{lo, hi}}})
		return
	}
	ci := tl.findChunk(lo)
	if ci == len(tl.chunks) {
		ci--
	}
	c := &tl.chunks[ci]
	j := c.firstSpan(lo)
	// The new span either splits the gap between s[j-1] and s[j], whose two parts are
	// smaller (recount only if it was the largest), or adds a gap at an end.
	split := int32(-1)
	if j > 0 && j < len(c.s) {
		split = c.s[j].lo - c.s[j-1].hi - 1
	}
	c.s = append(c.s, span{})
	copy(c.s[j+1:], c.s[j:])
	c.s[j] = span{lo, hi}
	if len(c.s) <= chunkMax {
		switch {
		case split == c.maxGap:
			c.regap()
		case split < 0 && j == 0:
			c.maxGap = max(c.maxGap, c.s[1].lo-hi-1)
		case split < 0:
			c.maxGap = max(c.maxGap, lo-c.s[j-1].hi-1)
		}
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
}

// remove deletes the span starting at lo; it reports whether there was one.
func (tl *timeline) remove(lo int32) bool {
	ci := tl.findChunk(lo)
	if ci == len(tl.chunks) {
		return false
	}
	c := &tl.chunks[ci]
	j := c.firstSpan(lo)
	if j == len(c.s) || c.s[j].lo != lo {
		return false
	}
	tl.size--
	inner := j > 0 && j < len(c.s)-1
	c.s = append(c.s[:j], c.s[j+1:]...)
	if len(c.s) == 0 {
		tl.chunks = append(tl.chunks[:ci], tl.chunks[ci+1:]...)
		return true
	}
	if inner {
		// Two gaps merge into a larger one.
		c.maxGap = max(c.maxGap, c.s[j].lo-c.s[j-1].hi-1)
	} else {
		c.regap() // a gap at an end disappeared
	}
	return true
}

// spans returns every span in time order (for tests and debugging).
func (tl *timeline) spans() []span {
	var out []span
	for _, c := range tl.chunks {
		out = append(out, c.s...)
	}
	return out
}
