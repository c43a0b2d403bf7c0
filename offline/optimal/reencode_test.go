package optimal

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestReencodedDescentKeepsTheOptimum checks descentStep's lemma: the formula
// encoded at the step's horizon T has a schedule exactly when the first
// formula with T as unit clauses has one (both say "a schedule of makespan at
// most T exists"), so a descent that encodes again on its way down ends at the
// same optimum. The descent alone (descend), from the greedy schedule
// (often several steps above the optimum) on the formula of one below it,
// ends with a schedule and a refuted horizon at the makespan Solve proves;
// some of the runs must have encoded again, or the test checks nothing. Each
// call's Progress reports the formula it runs on (the re-encoded one's size
// after a re-encoding, not the first formula's), and the last answer, the
// refuted horizon, is reported as it comes (finish).
func TestReencodedDescentKeepsTheOptimum(t *testing.T) {
	reencoded := 0
	rapid.Check(t, func(t *rapid.T) {
		in := someMesh(t, 40, 6)
		ctx := context.Background()
		ref, err := Solve(ctx, in, Options{Model: model.Bufferless})
		require.NoError(t, err)
		require.True(t, ref.Optimal)
		// the greedy schedule, every worm delayed by the same steps: still
		// legal, and the descent starts well above the optimum
		g, err := greedy(context.Background(), in)
		require.NoError(t, err)
		delay := rapid.IntRange(0, 8).Draw(t, "delay")
		cross := make([][]int, len(g.Messages))
		for i, m := range g.Messages {
			for _, v := range m.Cross {
				cross[i] = append(cross[i], v+delay)
			}
		}
		g = model.NewSchedule(in, model.Bufferless, cross)
		require.NoError(t, verify.Schedule(in, g))
		if g.Makespan <= ref.Schedule.Makespan {
			t.Skip("the greedy schedule is optimal")
		}
		opt := Options{Model: model.Bufferless}
		f, err := encode(in, opt.Model, g.Makespan-1, encodeOptions{symmetry: true, cards: true})
		require.NoError(t, err)
		s := &search{ctx: ctx, in: in, opt: opt, res: &Result{}, best: g, f: f, df: f, g: load(f, nil)}
		// each call's progress reports the size of the formula it runs
		// on: the first one's until the descent encodes again, then the
		// new one's
		calls := 0
		var answer Progress // the last report with no horizon
		s.opt.Progress = func(p Progress) {
			if p.Horizon == 0 {
				answer = p
				return
			}
			calls++
			require.Equal(t, s.df.Vars, p.Vars, "horizon %d", p.Horizon)
			require.Equal(t, len(s.df.Clauses), p.Clauses, "horizon %d", p.Horizon)
		}
		found, err := s.descend(ctx)
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, ref.Schedule.Makespan, s.best.Makespan)
		require.Equal(t, ref.Schedule.Makespan, s.res.Lower)
		require.NoError(t, verify.Schedule(in, s.best))
		require.Positive(t, calls)
		// the last answer, the refuted horizon, is reported when it
		// comes (finish), with no call after it
		require.Equal(t, s.best.Makespan, answer.Upper)
		require.Equal(t, s.res.Lower, answer.Lower)
		require.Equal(t, len(s.df.Clauses), answer.Clauses)
		reencoded += s.res.Stats.Reencoded
	})
	require.Positive(t, reencoded, "no descent encoded again")
}

// BenchmarkReencodeCost is the basis of reencodeCost: the CPU time of what
// descentStep does to encode again (encode the formula at the step's horizon
// and load it on a fresh gini) against that of one propagation of a gini call
// on the formula it built, as propagations per clause (the metric
// "props/clause"; reencodeCost rounds it), on issue 27's meshes at horizons
// where the descent encodes again (bufferless, busy-slot clauses at the lower
// bound, as in Solve). Process CPU time, so that other load distorts it less
// (`go test ./offline/optimal -run '^$' -bench ReencodeCost -benchtime 3x`).
func BenchmarkReencodeCost(b *testing.B) {
	cases := []struct {
		name      string
		spec      instances.Spec
		T, busyAt int
	}{
		{"mesh10x10-400-L4-s1-T90", instances.Spec{Kind: "mesh", Sides: []int{10, 10}, Routing: "random-shortest",
			Traffic: "random", Messages: 400, Flits: 4, Seed: 1}, 90, 80},
		{"mesh8x8-256-L4-s1-T64", instances.Spec{Kind: "mesh", Sides: []int{8, 8}, Routing: "random-shortest",
			Traffic: "random", Messages: 256, Flits: 4, Seed: 1}, 64, 60},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			in, err := instances.Generate(c.spec)
			require.NoError(b, err)
			ctx := context.Background()
			s := &search{ctx: ctx, in: in, opt: Options{Model: model.Bufferless}, res: &Result{}}
			var encode1, solve time.Duration
			var clauses, props int64
			for b.Loop() {
				t0 := processCPU(b)
				f, err := encode(in, model.Bufferless, c.T, encodeOptions{symmetry: true, cards: true, busy: true, busyAt: c.busyAt})
				require.NoError(b, err)
				g := load(f, nil)
				t1 := processCPU(b)
				call := &call{g: g, f: f, T: c.T}
				p0 := propagations(g)
				if _, done := s.resume(ctx, call, 4*turnProps); !done {
					s.abandon(call)
				}
				t2 := processCPU(b)
				encode1 += t1 - t0
				solve += t2 - t1
				clauses += int64(len(f.Clauses))
				props += propagations(g) - p0
			}
			perClause := encode1.Seconds() / float64(clauses)
			perProp := solve.Seconds() / float64(props)
			b.ReportMetric(perClause*1e9, "encode-ns/clause")
			b.ReportMetric(perProp*1e9, "ns/prop")
			b.ReportMetric(perClause/perProp, "props/clause")
		})
	}
}

// processCPU is the process's CPU time (cputime.Process).
func processCPU(b *testing.B) time.Duration {
	d, ok := cputime.Process()
	if !ok {
		b.Skip("no process CPU time on this system")
	}
	return d
}
