package offline

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The timeline against a plain set of busy steps: after random insertions of free
// spans and removals, firstFree agrees with a step-by-step search, and the chunk
// invariants of timeline (sorted, disjoint, chunk sizes, largest gaps) hold.
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
		for range rapid.IntRange(1, 600).Draw(t, "ops") {
			at := rapid.Int32Range(1, horizon).Draw(t, "at")
			l := rapid.Int32Range(1, 6).Draw(t, "l")
			want := at
			for !free(want, l) {
				want++
			}
			require.Equal(t, want, tl.firstFree(at, l), "first free block of %d from %d", l, at)
			if len(placed) > 0 && rapid.IntRange(0, 3).Draw(t, "op") == 0 {
				j := rapid.IntRange(0, len(placed)-1).Draw(t, "victim")
				sp := placed[j]
				require.True(t, tl.remove(sp.lo, sp.hi))
				for s := sp.lo; s <= sp.hi; s++ {
					delete(busy, s)
				}
				placed = append(placed[:j], placed[j+1:]...)
				continue
			}
			tl.insert(want, want+l-1)
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
	})
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
