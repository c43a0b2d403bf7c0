package optimal

import (
	"sync/atomic"
	"testing"

	"github.com/go-air/gini/z"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// fixTimes returns the literals that fix every time chain of f to the schedule's
// crossing times.
func fixTimes(f *Formula, cross [][]int) []int {
	var lits []int
	for _, c := range f.chains {
		t := cross[c.msg][c.hop-1]
		for v := c.lo; v < c.hi; v++ {
			if l := f.le(c, v); t <= v {
				lits = append(lits, l)
			} else {
				lits = append(lits, -l)
			}
		}
	}
	return lits
}

// satUnder reports whether f is satisfiable under the assumptions lits (gini).
func satUnder(f *Formula, lits []int) bool {
	if f.empty {
		return false
	}
	g := load(f, nil)
	zl := make([]z.Lit, len(lits))
	for x, l := range lits {
		zl[x] = z.Dimacs2Lit(l)
	}
	g.Assume(zl...)
	return g.Solve() == 1
}

// TestBusyKeepsEveryLegalSchedule checks the lemma of busy.go directly: every legal
// schedule of makespan <= T (all of them, enumerated and judged by the verifier)
// extends to a model of the formula with the busy-slot clauses of horizon T, both
// outright (Encode at T) and under their activation literal in a formula built for
// T + 2 with T imposed by horizonLits (Solve's way). Symmetry breaking is off, so
// that no legal schedule is excluded for another reason.
func TestBusyKeepsEveryLegalSchedule(t *testing.T) {
	var families, schedules atomic.Int64
	defer func() { t.Logf("%d tight families, %d legal schedules checked", families.Load(), schedules.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, rapid.IntRange(2, 5).Draw(t, "worms"), 4, rapid.IntRange(1, 4).Draw(t, "L"))
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt, ok := brute.Optimum(in, modelName, 40, 100000)
		if !ok {
			t.Skip("search space too large")
		}
		for T := opt; T <= opt+1; T++ {
			nf := len(busyFamilies(in, T))
			if nf == 0 {
				continue
			}
			all, ok := brute.Legal(in, modelName, T, 100000)
			if !ok {
				continue
			}
			families.Add(int64(nf))
			outright, err := encode(in, modelName, T, encodeOptions{cards: true, busy: true})
			require.NoError(t, err)
			guarded, err := encode(in, modelName, T+2, encodeOptions{cards: true, busy: true, busyAt: T})
			require.NoError(t, err)
			require.NotZero(t, guarded.busyAct, "a tight family at %d gives an activation literal", T)
			horizon, ok := guarded.horizonLits(T)
			require.True(t, ok)
			for _, cross := range all {
				schedules.Add(1)
				require.True(t, satUnder(outright, fixTimes(outright, cross)), "legal schedule %v excluded at horizon %d", cross, T)
				require.True(t, satUnder(guarded, append(fixTimes(guarded, cross), horizon...)), "legal schedule %v excluded under the activation literal", cross)
			}
		}
	})
}
