package offline

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// The bitline against a plain set of busy steps: after random additions of free
// blocks (long packed stretches among them, so that whole words and whole summary
// words fill up, and blocks past the initial horizon, so that it grows) and
// removals, firstFree agrees with a step-by-step search, remove refuses a block
// that is not all busy, a word's summary bit is set exactly when the word is all
// busy, packed counts the leading words that are all busy, and busy counts the
// busy steps.
func TestBitlineMatchesStepByStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := newBitline(rapid.IntRange(0, 300).Draw(t, "initial horizon"))
		busy := make([]bool, 1<<16) // the steps up to 2^16 (blocks past them are not added)
		var placed []span
		// firstFree step by step: the first x >= at after which l steps are free.
		firstFree := func(at, l int32) int32 {
			want := at
			for x, run := at, int32(0); run < l; x++ {
				if int(x) < len(busy) && busy[x] {
					want, run = x+1, 0
				} else {
					run++
				}
			}
			return want
		}
		horizon := rapid.Int32Range(5, 8000).Draw(t, "horizon")
		for range rapid.IntRange(1, 200).Draw(t, "ops") {
			at := rapid.Int32Range(0, horizon).Draw(t, "at")
			l := rapid.SampledFrom([]int32{1, 1, 2, 3, 63, 64, 65, 700, 4100}).Draw(t, "l")
			want := firstFree(at, l)
			if int(want+l) > len(busy) {
				continue
			}
			require.Equal(t, want, b.firstFree(at, l), "first free block of %d from %d", l, at)
			if len(placed) > 0 && rapid.IntRange(0, 5).Draw(t, "remove") == 0 {
				j := rapid.IntRange(0, len(placed)-1).Draw(t, "victim")
				sp := placed[j]
				if sp.lo > 0 && !busy[sp.lo-1] {
					require.False(t, b.remove(sp.lo-1, sp.hi), "a free step before a busy block")
				}
				require.True(t, b.remove(sp.lo, sp.hi))
				for s := sp.lo; s <= sp.hi; s++ {
					busy[s] = false
				}
				placed = append(placed[:j], placed[j+1:]...)
				continue
			}
			b.add(want, want+l-1)
			for s := want; s < want+l; s++ {
				busy[s] = true
			}
			placed = append(placed, span{want, want + l - 1})
		}
		n := 0
		for _, x := range busy {
			if x {
				n++
			}
		}
		require.Equal(t, n, b.busy, "busy steps")
		for wi, w := range b.w {
			require.Equal(t, w == math.MaxUint64, b.full[wi/64]>>uint(wi%64)&1 == 1, "summary bit of word %d", wi)
		}
		for wi := range b.packed {
			require.Equal(t, uint64(math.MaxUint64), b.w[wi], "word %d before packed %d", wi, b.packed)
		}
		require.True(t, b.packed == len(b.w) || b.w[b.packed] != math.MaxUint64, "word packed %d is all busy", b.packed)
		for wi := len(b.w); wi < 64*len(b.full); wi++ {
			require.Zero(t, b.full[wi/64]>>uint(wi%64)&1, "summary bit past the words")
		}
		want := int32(len(busy)) // the first free step from s, s going down
		for s := int32(len(busy)) - 1; s >= 0; s-- {
			if !busy[s] {
				want = s
			}
			if got := b.nextFree(s); got != want {
				require.Equal(t, want, got, "next free step from %d", s)
			}
		}
	})
}

// A plan's colouring does not depend on how the edges keep their busy steps: a
// bitline and a timeline hold the same set, and the search for the first free
// block is a function of the set, so colouring with a bitline on every edge read
// (colourWithin with horizons 0: every load reaches one word; the bitlines grow),
// with none (horizons whose words no load reaches) and as Color chooses gives the
// same starts and part offsets, for the tree, mesh and generic orders (the
// generic order searches every edge, so bitlines and timelines meet in one
// placement). The parts' last readers found in the scan's one pass in message
// order (partsScan.last) or part by part (planPart) are the same too.
func TestColourBitlinesAsTimelines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, order := orderInstance(t)
		plan, err := Choose(in, order, "")
		require.NoError(t, err)
		ps := model.PathsOf(in)
		every := func(h int) []int {
			hs := make([]int, len(plan.Parts))
			for j := range hs {
				hs[j] = h
			}
			return hs
		}
		want, wantOff, err := plan.colourWithin(ps, partsScan{horizon: every(math.MaxInt32 / 2)})
		require.NoError(t, err)
		sc := plan.scan(ps, true)
		for _, sc := range []partsScan{{horizon: every(0)}, {horizon: sc.horizon}, sc} {
			got, gotOff, err := plan.colourWithin(ps, sc)
			require.NoError(t, err)
			require.Equal(t, want, got, "starts with horizons %v (last readers found apart: %v)", sc.horizon, sc.last == nil)
			require.Equal(t, wantOff, gotOff, "offsets with horizons %v", sc.horizon)
		}
	})
}

// Lemma (commonFree is the greedy start): for one to three bitlines of random
// busy blocks (long packed stretches among them) over combs (one busy step every
// 2 or 3, so that a line is often free alone and the lines rarely together: many
// all-busy windows in a row), offsets, a block length of 1 to 64 and a first
// candidate, commonFree returns the smallest s >= from at which
// every line j is free at steps s+off[j] .. s+off[j]+l-1, found step by step;
// so does the general loop (commonFreeAny) on the same lines, which
// commonFree2 replaces for two lines and blocks of one step (a case that must
// be drawn, or commonFree2 goes unchecked).
func TestCommonFreeMatchesStepByStep(t *testing.T) {
	two := 0
	defer func() {
		if !t.Failed() {
			require.Positive(t, two, "no draw of two lines and blocks of one step (commonFree2)")
		}
	}()
	rapid.Check(t, func(t *rapid.T) {
		const steps = 1 << 14
		n := rapid.IntRange(1, 3).Draw(t, "lines")
		lines := make([]*bitline, n)
		busy := make([][]bool, n)
		off := make([]int32, n)
		for j := range lines {
			b := newBitline(rapid.IntRange(0, 3000).Draw(t, "horizon"))
			lines[j], busy[j] = &b, make([]bool, steps)
			off[j] = rapid.Int32Range(0, 40).Draw(t, "offset")
			// A comb: one busy step in every period over a long stretch, so that
			// two lines are each often free and rarely together.
			if period := rapid.Int32Range(0, 3).Draw(t, "comb period"); period > 0 {
				phase := rapid.Int32Range(0, period-1).Draw(t, "comb phase")
				for s := phase; s < 2500; s += period {
					b.add(s, s)
					busy[j][s] = true
				}
			}
			for range rapid.IntRange(0, 300).Draw(t, "blocks") {
				lo := rapid.Int32Range(0, 3000).Draw(t, "lo")
				hi := lo + rapid.SampledFrom([]int32{0, 1, 5, 63, 64, 200, 5000}).Draw(t, "length")
				if b.firstFree(lo, hi-lo+1) != lo {
					continue // not free: add needs free steps
				}
				b.add(lo, hi)
				for s := lo; s <= hi; s++ {
					busy[j][s] = true
				}
			}
		}
		l := rapid.SampledFrom([]int32{1, 1, 2, 3, 17, 63, 64}).Draw(t, "l")
		from := rapid.Int32Range(0, 3000).Draw(t, "from")
		fits := func(s int32) bool {
			for j := range lines {
				for x := s + off[j]; x < s+off[j]+l; x++ {
					if busy[j][x] {
						return false
					}
				}
			}
			return true
		}
		want := from
		for !fits(want) {
			want++
		}
		require.Equal(t, want, commonFree(lines, off, from, l))
		require.Equal(t, want, commonFreeAny(lines, off, from, l), "the general loop")
		if n == 2 && l == 1 {
			two++
		}
	})
}
