package optimal

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestLNSMovesKeepSchedules checks lns.go's lemma (a move's answer): a
// move's answer is a legal bufferless schedule (judged by package verify, which shares no code
// with the schedule search), no worm fixed by the move changes its start, no
// worm finishes later than the old makespan, and the worms finishing at it
// are fewer than before (or the makespan is lower). Some move must answer
// over the run, so a search whose moves never answer fails the test.
func TestLNSMovesKeepSchedules(t *testing.T) {
	answered := 0
	rapid.Check(t, func(t *rapid.T) {
		in := someMesh(t, 30, 4)
		g, err := greedy(context.Background(), in)
		require.NoError(t, err)
		l := newLNS(in, g, rapid.Uint64().Draw(t, "seed"))
		for range 30 {
			M, before := l.M, append([]int32(nil), l.starts...)
			lateBefore := l.late(M)
			if !l.move(context.Background()) {
				require.Equal(t, before, l.starts, "a move that failed changed the schedule")
				continue
			}
			answered++
			sch := l.schedule()
			require.NoError(t, verify.Schedule(in, sch))
			require.Equal(t, l.M, sch.Makespan)
			require.LessOrEqual(t, l.M, M)
			if l.M == M {
				require.Less(t, l.late(M), lateBefore, "an answer left as many worms finishing at the makespan")
			}
			for i := range before {
				if !l.free[i] {
					require.Equal(t, before[i], l.starts[i], "worm %d was fixed", i)
				}
			}
		}
	})
	require.Positive(t, answered, "no move answered")
}

// late counts the worms of the incumbent that finish at or after M.
func (l *lnsSearch) late(M int) int {
	n := 0
	for i, s := range l.starts {
		if l.finish(int32(i), s) >= int32(M) {
			n++
		}
	}
	return n
}

// TestLNSImprovesRandomMesh: on a mesh of issue 27's family the
// neighbourhood search, from the greedy schedule, finds a shorter schedule
// than the greedy one within a 64th of its first budget (lnsFirstWork),
// verified, and the search says where its best schedule came from (and the
// turn that it improved it: interleave's idle count reads that).
func TestLNSImprovesRandomMesh(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Routing: "random-shortest",
		Traffic: "random", Messages: 144, Flits: 4, Seed: 1})
	require.NoError(t, err)
	g, err := greedy(context.Background(), in)
	require.NoError(t, err)
	s := &search{ctx: context.Background(), in: in, opt: Options{Model: model.Bufferless}, res: &Result{Lower: 1}, best: g}
	_, improved, err := s.lnsTurn(lnsFirstWork / 64)
	require.NoError(t, err)
	require.Less(t, s.best.Makespan, g.Makespan, "greedy %d", g.Makespan)
	require.True(t, improved, "the turn improved the best schedule and says so")
	require.NoError(t, verify.Schedule(in, s.best))
	require.Equal(t, "lns", s.res.Stats.UpperSource)
	t.Logf("greedy %d, after the neighbourhood search %d (%d moves, %d answered)", g.Makespan, s.best.Makespan, s.lns.Moves, s.lns.Improved)
}

// Lemma (the budget charges every store alive at once): the memory charged for
// the schedule searches counts every store that can be
// alive at once (cpStores): in the wormhole model the bufferless and the
// wormhole stores, in the bufferless model the neighbourhood search's beside
// the search at the bound kept for boundRest (or withoutFormula's). At a
// budget where one store fits and two do not, the bufferless schedule search
// runs and the neighbourhood search does not (Stats.LNSMoves is zero), and the
// wormhole searches do not run; at two stores both run. Some solve at two
// stores must make a move, so an lnsOn that never runs fails the test. Before,
// one store was charged, so the neighbourhood search ran at one store's budget
// and peak use could reach twice it.
func TestCPBudgetChargesTwoStores(t *testing.T) {
	moved := 0
	rapid.Check(t, func(t *rapid.T) {
		in := someMesh(t, 30, 4)
		one := int64(math.Ceil(cpStoreBytes(in)))
		if one == 0 {
			t.Skip("no edge shared")
		}
		for _, c := range []struct {
			budget    int64
			bl, wh, l bool
		}{{one, true, false, false}, {2*one - 1, true, false, false}, {2 * one, true, true, true}} {
			require.Equal(t, c.bl, cpFits(in, model.Bufferless, c.budget, cpStores(model.Bufferless)), "bufferless searches at %d of %d bytes", c.budget, one)
			require.Equal(t, c.wh, cpFits(in, model.Wormhole, c.budget, cpStores(model.Wormhole)), "wormhole searches at %d of %d bytes", c.budget, one)
			s := &search{in: in, opt: Options{Model: model.Bufferless, MaxMemory: c.budget}}
			require.Equal(t, c.l, s.lnsOn(), "neighbourhood search at %d of %d bytes", c.budget, one)
		}
		for _, budget := range []int64{one, 2 * one} {
			res, err := Solve(context.Background(), in, Options{Model: model.Bufferless, MaxMemory: budget, NoEdgeSet: true})
			require.NoError(t, err)
			require.NoError(t, verify.Schedule(in, res.Schedule))
			if budget == one {
				require.Zero(t, res.Stats.LNSMoves, "neighbourhood search at one store's budget")
			} else if res.Stats.LNSMoves > 0 {
				moved++
			}
		}
	})
	require.Positive(t, moved, "no solve at two stores' budget made a neighbourhood move")
	t.Logf("%d solves at two stores made moves", moved)
}
