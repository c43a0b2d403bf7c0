package offline

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The timeline against a plain set of busy steps: after random insertions of free
// spans (placed at once, or added and merged at the next read, one by one or in
// bulk) and removals, firstFree agrees with a step-by-step search, and the chunk
// invariants of timeline (sorted, disjoint, chunk sizes, largest gaps, lasts) hold.
func TestTimelineMatchesStepByStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var tl timeline
		busy := map[int32]bool{}
		var placed []span // the blocks inserted and not removed
		free := func(x, l int32) bool {
			for s := x; s < x+l; s++ {
				if busy[s] {
					return false
				}
			}
			return true
		}
		horizon := rapid.Int32Range(5, 3000).Draw(t, "horizon")
		adds := rapid.IntRange(0, 4).Draw(t, "adds in 4 insertions")
		removals := rapid.IntRange(0, 4).Draw(t, "removals in 16 operations")
		for range rapid.IntRange(1, 600).Draw(t, "ops") {
			at := rapid.Int32Range(1, horizon).Draw(t, "at")
			l := rapid.Int32Range(1, 6).Draw(t, "l")
			want := at
			for !free(want, l) {
				want++
			}
			// Not every step reads the timeline, so that added blocks pile up
			// and go in by the bulk merge.
			if rapid.IntRange(0, 7).Draw(t, "read") == 0 {
				require.Equal(t, want, tl.firstFree(at, l), "first free block of %d from %d", l, at)
			}
			if len(placed) > 0 && rapid.IntRange(1, 16).Draw(t, "op") <= removals {
				j := rapid.IntRange(0, len(placed)-1).Draw(t, "victim")
				sp := placed[j]
				require.True(t, tl.remove(sp.lo, sp.hi))
				for s := sp.lo; s <= sp.hi; s++ {
					delete(busy, s)
				}
				placed = append(placed[:j], placed[j+1:]...)
				continue
			}
			if rapid.IntRange(1, 4).Draw(t, "add") <= adds {
				tl.add(want, want+l-1)
			} else {
				tl.flush()
				tl.insert(want, want+l-1)
			}
			for s := want; s < want+l; s++ {
				busy[s] = true
			}
			placed = append(placed, span{want, want + l - 1})
		}
		require.False(t, tl.remove(-5, -5), "step -5 is not busy")
		if len(placed) > 0 && !busy[placed[0].lo-1] {
			sp := placed[0]
			require.False(t, tl.remove(sp.lo-1, sp.hi), "a free step before a busy block")
		}
		// A cursor carried through increasing queries (as a placement does) gives
		// the same answers as fresh searches.
		var cur cursor
		q := int32(1)
		for range 50 {
			l := rapid.Int32Range(1, 6).Draw(t, "cl")
			want := tl.firstFree(q, l)
			require.Equal(t, want, tl.firstFreeFrom(&cur, q, l), "cursor search of %d from %d", l, q)
			q = want + rapid.Int32Range(0, 40).Draw(t, "step")
		}
		checkTimeline(t, &tl, busy)
	})
}

// checkTimeline flushes tl and checks its invariants (sorted disjoint runs,
// chunk sizes, non-touching runs within a chunk, largest gaps, lasts) and that it
// holds exactly the steps of busy.
func checkTimeline(t require.TestingT, tl *timeline, busy map[int32]bool) {
	tl.flush()
	var prev int32 = -1
	n := 0
	require.Len(t, tl.lasts, len(tl.chunks))
	for ci, c := range tl.chunks {
		require.NotEmpty(t, c.s)
		require.Equal(t, c.s[len(c.s)-1].hi, tl.lasts[ci], "chunk %d's last step", ci)
		require.LessOrEqual(t, len(c.s), chunkMax)
		var gap int32
		for j, sp := range c.s {
			require.LessOrEqual(t, sp.lo, sp.hi)
			require.Greater(t, sp.lo, prev, "runs overlap or are out of order")
			if j > 0 {
				require.Greater(t, sp.lo, prev+1, "two runs of a chunk touch")
				gap = max(gap, sp.lo-prev-1)
			}
			prev = sp.hi
			n += int(sp.hi - sp.lo + 1)
		}
		require.Equal(t, gap, c.maxGap)
	}
	require.Equal(t, len(busy), n)
	require.Equal(t, len(busy), tl.busy)
}

// Blocks added without a read in between go in by one bulk merge (flush): the
// runs are merged where they touch, cut into chunks, and every answer is the
// step-by-step one.
func TestTimelineBulkMerge(t *testing.T) {
	var tl timeline
	busy := map[int32]bool{}
	mark := func(lo, hi int32) {
		tl.add(lo, hi)
		for s := lo; s <= hi; s++ {
			busy[s] = true
		}
	}
	for x := int32(1); x <= 4000; x += 4 { // busy at 1, 2, 5, 6, ...: runs of two
		mark(x+1, x+1)
		mark(x, x)
	}
	checkTimeline(t, &tl, busy)
	require.Greater(t, len(tl.chunks), 1000/chunkMax)
	tl.insert(4003, 4003)
	busy[4003] = true
	for x := int32(4005); x <= 6000; x += 3 { // a second merge into chunks present
		mark(x, x)
	}
	checkTimeline(t, &tl, busy)
	for at := int32(0); at <= 6010; at++ {
		for l := int32(1); l <= 3; l++ {
			want := at
			for busy[want] || (l > 1 && busy[want+1]) || (l > 2 && busy[want+2]) {
				want++
			}
			require.Equal(t, want, tl.firstFree(at, l), "first free block of %d from %d", l, at)
		}
	}
}

// A busy edge splits into chunks, and a search for a long block skips the chunks
// whose gaps are all too short.
func TestTimelineSkipsChunks(t *testing.T) {
	var tl timeline
	for x := int32(1); x <= 2000; x += 2 { // busy at odd steps, gaps of 1
		tl.insert(x, x)
	}
	tl.insert(2005, 2006) // a gap of 3 steps (2002..2004) before 2005... and 2000 free
	require.Greater(t, len(tl.chunks), 2000/2/chunkMax)
	require.Equal(t, int32(2), tl.firstFree(1, 1))
	require.Equal(t, int32(2000), tl.firstFree(1, 2), "2000..2001: the first two free steps in a row")
	require.Equal(t, int32(2000), tl.firstFree(1, 5), "2000..2004 is free")
	require.Equal(t, int32(2007), tl.firstFree(1, 6))
	require.True(t, tl.free(2007, 5000))
	require.False(t, tl.free(1999, 2000))
	for x := int32(1); x <= 2000; x += 2 {
		require.True(t, tl.remove(x, x))
	}
	require.Len(t, tl.chunks, 1)
	require.Equal(t, int32(1), tl.firstFree(1, 2004))
	require.Equal(t, int32(2007), tl.firstFree(1, 2005))
}
