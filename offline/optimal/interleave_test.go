package optimal

import (
	"context"
	"testing"

	"github.com/go-air/gini/z"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
)

// TestSlicesKeepTheSearch: a solver call run in turns (resume with a budget of
// propagations, paused in between, as interleave runs the probe and the descent)
// ends with the same answer after the same number of conflicts, and the same
// schedule, as the call run at once: gini's Pause suspends the search without
// changing it, which is what lets interleave take turns without losing work.
// Without the structural aids: the repaired prime construction (p = 3, worms of
// 3 flits) at one below its bufferless optimum (unsatisfiable, about 7,000
// conflicts in turns of 20,000 propagations). (Satisfiable calls on instances this small end
// before gini's first pause point, every 20,000 propagations.)
func TestSlicesKeepTheSearch(t *testing.T) {
	prime, err := lower.Prime(3, 7, true)
	require.NoError(t, err)
	prime = prime.Clone()
	for i := range prime.Messages {
		prime.Messages[i].L = 3
	}
	prime.Flits = 3
	for _, tc := range []struct {
		in     *model.Instance
		model  string
		below  int // the horizon is the optimum minus below
		budget int64
	}{{prime, model.Bufferless, 1, 20000}} {
		res, err := Solve(context.Background(), tc.in, Options{Model: tc.model})
		require.NoError(t, err)
		require.True(t, res.Optimal)
		opt := res.Schedule.Makespan
		f, err := encode(tc.in, tc.model, opt, encodeOptions{})
		require.NoError(t, err)
		T := opt - tc.below
		run := func(budget int64) (r int, n int64, turns int, sch [][]int) {
			s := &search{ctx: context.Background(), in: tc.in, res: &Result{}, best: res.Schedule, f: f}
			c := &call{g: load(f, nil), f: f, T: T}
			for {
				turns++
				var done bool
				if r, done = s.resume(s.ctx, c, budget); done {
					break
				}
			}
			n = conflicts(c.g) - c.before
			if r == 1 {
				got, err := f.Decode(func(v int) bool { return c.g.Value(z.Dimacs2Lit(v)) })
				require.NoError(t, err)
				for _, m := range got.Messages {
					sch = append(sch, m.Cross)
				}
			}
			_, err := s.finish(c, r)
			require.NoError(t, err)
			return r, n, turns, sch
		}
		r0, n0, _, s0 := run(0)
		require.Greater(t, n0, int64(1000), "%s T = %d: the call should take thousands of conflicts", tc.in.Name, T)
		r1, n1, turns, s1 := run(tc.budget)
		require.Greater(t, turns, 2, "%s T = %d: the call should have been paused", tc.in.Name, T)
		require.Equal(t, r0, r1, "%s T = %d", tc.in.Name, T)
		require.Equal(t, n0, n1, "%s T = %d: conflicts at once and in %d turns", tc.in.Name, T, turns)
		require.Equal(t, s0, s1, "%s T = %d: the schedule found", tc.in.Name, T)
		require.Equal(t, map[int]int{0: 1, 1: -1}[tc.below], r0)
	}
}

// TestNextLane checks interleave's rule for the next turn (nextLane) on
// fixed counts: the lane furthest below its share goes next, the first of
// equals (the descent before the neighbourhood search, so the descent has
// the SAT search's first turn); in the descent's head start the
// neighbourhood search takes turns beside it until an idle turn, and waits
// for the probes after one; once they run, an idle neighbourhood search
// keeps its lane (its turns cost more instead); with last the descent
// gives way to the probes; without the neighbourhood search its lane never
// runs.
func TestNextLane(t *testing.T) {
	const M = turnProps
	lnsW, w := lnsWeight, laneWeight
	for _, c := range []struct {
		name                string
		used                [4]int64
		w                   [4]int64
		probes              int
		last, lns, lnsWaits bool
		want                int
	}{
		{"head start: the descent first", [4]int64{}, lnsW, 0, false, true, false, 2},
		{"head start: the neighbourhood search behind", [4]int64{0, 0, M, M / 2}, lnsW, 0, false, true, false, 3},
		{"head start: level, the descent", [4]int64{0, 0, M, M}, lnsW, 0, false, true, false, 2},
		{"head start: idle, it waits", [4]int64{0, 0, M, 0}, lnsW, 0, false, true, true, 2},
		{"head start: no neighbourhood search", [4]int64{0, 0, M, 0}, w, 0, false, false, false, 2},
		{"probes run: an idle search behind", [4]int64{2 * M, M, M, 0}, lnsW, 2, false, true, false, 3},
		{"probes run: level, the unhinted probe", [4]int64{2 * M, M, M, M}, lnsW, 2, false, true, false, 0},
		{"probes run: the hinted probe behind", [4]int64{2 * M, M / 2, M, M}, lnsW, 2, false, true, false, 1},
		{"last: the descent gives way", [4]int64{4 * M, 2 * M, 0, 4 * M}, lnsW, 2, true, true, false, 0},
		{"not last: the descent behind", [4]int64{4 * M, 2 * M, 0, 4 * M}, lnsW, 2, false, true, false, 2},
		{"no neighbourhood search: 2 : 1 : 2", [4]int64{2 * M, M, 2 * M, 0}, w, 2, false, false, false, 0},
	} {
		require.Equal(t, c.want, nextLane(c.used, c.w, c.probes, c.last, c.lns, c.lnsWaits), c.name)
	}
}
