package optimal

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// cpSchedule turns the starts of the schedule search into a schedule of the model.
func cpSchedule(in *model.Instance, modelName string, starts []int) *model.Schedule {
	cross := make([][]int, len(starts))
	for i, v := range starts {
		for k := range in.Messages[i].Path {
			cross[i] = append(cross[i], v+k)
		}
	}
	return model.NewSchedule(in, modelName, cross)
}

// searches are the two schedule searches as functions "a schedule of makespan <=
// T, or nil", with an unlimited failure budget.
var searches = []struct {
	model string
	build func(in *model.Instance, sym bool) func(T int, seed uint64) (*model.Schedule, cpStats)
}{
	{model.Bufferless, func(in *model.Instance, sym bool) func(int, uint64) (*model.Schedule, cpStats) {
		c := newCPSearch(in, sym)
		return func(T int, seed uint64) (*model.Schedule, cpStats) {
			starts, st := c.solve(context.Background(), T, 1<<40, seed)
			if starts == nil {
				return nil, st
			}
			return cpSchedule(in, model.Bufferless, starts), st
		}
	}},
	{model.Wormhole, func(in *model.Instance, sym bool) func(int, uint64) (*model.Schedule, cpStats) {
		c := newCPWSearch(in, sym)
		return func(T int, seed uint64) (*model.Schedule, cpStats) {
			cross, st := c.solve(context.Background(), T, 1<<40, seed)
			if cross == nil {
				return nil, st
			}
			return model.NewSchedule(in, model.Wormhole, cross), st
		}
	}},
}

// TestCPCompleteOnTiny checks the lemma of cp.go and cpwormhole.go: the
// propagation removes no value that some legal schedule of makespan <= T (in the
// search's model) takes, up to the symmetry relabelling, and every leaf is legal.
// Hence with an unlimited budget a search finds a schedule at T exactly when the
// optimum is at most T: it finds one at the optimum found by brute force (judged by
// the verifier alone) and exhausts its tree one step below.
func TestCPCompleteOnTiny(t *testing.T) {
	for _, sr := range searches {
		t.Run(sr.model, func(t *testing.T) {
			var checked, skipped atomic.Int64
			defer func() { t.Logf("%d instances compared, %d too large", checked.Load(), skipped.Load()) }()
			rapid.Check(t, func(t *rapid.T) {
				in := fixture.Walks(t, 4, 3, 3)
				sym := rapid.Bool().Draw(t, "symmetry")
				opt, ok := brute.Optimum(in, sr.model, 40, 300000)
				if !ok {
					skipped.Add(1)
					t.Skip("search space too large")
				}
				checked.Add(1)
				find := sr.build(in, sym)
				s, _ := find(opt, 1)
				require.NotNil(t, s, "no schedule found at the optimum %d", opt)
				require.NoError(t, verify.Schedule(in, s))
				require.LessOrEqual(t, s.Makespan, opt)
				below, st := find(opt-1, 1)
				require.Nil(t, below, "schedule found below the optimum %d", opt)
				require.Less(t, st.Fails, int64(1<<40), "the search below the optimum must exhaust its tree")
			})
		})
	}
}

// TestCPAgreesWithSAT checks the same lemma against the SAT search on meshes too
// large for brute force: at the optimum that Solve proves (with the schedule
// searches off, so the two share nothing but the instance) a search finds a
// verified schedule, and one step below it finds none.
func TestCPAgreesWithSAT(t *testing.T) {
	for _, sr := range searches {
		t.Run(sr.model, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				in := meshInstance(t, 3, 9, 4)
				if len(in.Messages) == 0 {
					t.Skip("no messages")
				}
				res, err := Solve(context.Background(), in, Options{Model: sr.model, NoCP: true})
				require.NoError(t, err)
				require.True(t, res.Optimal)
				opt := res.Schedule.Makespan
				find := sr.build(in, true)
				s, _ := find(opt, 7)
				require.NotNil(t, s, "no schedule at the proven optimum %d", opt)
				require.NoError(t, verify.Schedule(in, s))
				below, _ := find(opt-1, 7)
				require.Nil(t, below, "schedule below the proven optimum %d", opt)
			})
		})
	}
}

func TestLuby(t *testing.T) {
	want := []int64{1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1}
	for i, w := range want {
		require.Equal(t, w, luby(i+1), "luby(%d)", i+1)
	}
}

// TestCPDeterministic: the same instance, horizon, budget and seed give the same
// search, restarts included.
func TestCPDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 3, 10, 4)
		T := rapid.IntRange(1, 30).Draw(t, "T")
		budget := rapid.Int64Range(1, 500).Draw(t, "budget")
		a, sa := newCPSearch(in, true).solve(context.Background(), T, budget, 3)
		b, sb := newCPSearch(in, true).solve(context.Background(), T, budget, 3)
		require.Equal(t, a, b)
		require.Equal(t, sa.Nodes, sb.Nodes)
		require.Equal(t, sa.Fails, sb.Fails)
	})
}

// TestCPResumeKeepsTheSearch checks cpRestarts's lemma: a search stopped
// between restarts at failure counts drawn at random, with searches at other
// horizons run on the same store in between, and resumed until it ends, ends
// as one call with the same horizon, budget and seed: the same starts (or
// none), search nodes and failures.

func TestCPResumeKeepsTheSearch(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Routing: "random-shortest",
			Traffic: "random", Messages: 64, Flits: rapid.IntRange(1, 4).Draw(t, "L"), Seed: rapid.Uint64Range(1, 1000).Draw(t, "instance")})
		require.NoError(t, err)
		T := in.LowerBound().Value + rapid.IntRange(-1, 3).Draw(t, "T - bound")
		budget := rapid.Int64Range(1, 3000).Draw(t, "budget")
		seed := rapid.Uint64().Draw(t, "seed")
		want, ws := newCPSearch(in, true).solve(context.Background(), T, budget, seed)
		c := newCPSearch(in, true)
		r := newCPRestarts(T, budget, seed)
		var got []int
		var nodes, fails int64
		for !r.ended {
			var st cpStats
			got, st = c.resume(context.Background(), r, r.total+rapid.Int64Range(1, 400).Draw(t, "slice"))
			nodes += st.Nodes
			fails += st.Fails
			c.solve(context.Background(), T+rapid.IntRange(-2, 5).Draw(t, "other T - T"), 50, seed+1)
		}
		require.Equal(t, want, got)
		require.Equal(t, want != nil, r.found)
		require.Equal(t, ws.Nodes, nodes)
		require.Equal(t, ws.Fails, fails)
		require.Equal(t, ws.Fails, r.total)
	})
}

// TestCPResumeOnFrontier is TestCPResumeKeepsTheSearch where the search
// restarts 14 times within its budget (issue 16's frontier tree at 149, one
// below its optimum, 3,000 failures): stopped after 1, 150, 999, 1,000 and
// 2,500 failures, with another search on the store in between each time.
func TestCPResumeOnFrontier(t *testing.T) {
	in := frontierTree(t)
	want, ws := newCPSearch(in, true).solve(context.Background(), 149, 3000, 1)
	require.Nil(t, want)
	require.Equal(t, 14, ws.Restarts)
	c := newCPSearch(in, true)
	r := newCPRestarts(149, 3000, 1)
	var nodes int64
	for _, until := range []int64{1, 150, 999, 1000, 2500, 3000} {
		got, st := c.resume(context.Background(), r, until)
		require.Nil(t, got)
		require.GreaterOrEqual(t, r.total, until, "a part ends at the first restart past its failures")
		nodes += st.Nodes
		c.solve(context.Background(), 150, 100, 2)
	}
	require.True(t, r.ended)
	require.Equal(t, ws.Fails, r.total)
	require.Equal(t, ws.Nodes, nodes)
}

// TestCPCancelled: a cancelled context stops the search before its first node.
func TestCPCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	starts, st := newCPSearch(lineInstance(3, false), true).solve(ctx, 100, 1<<40, 1)
	require.Nil(t, starts)
	require.Zero(t, st.Nodes)
}

// TestPortfolioMatchesSequential: the portfolio (Options.Workers = 2) proves the
// same optimum as the sequential search, on small complete digraphs where the SAT
// search runs (schedule searches off), and its schedule is legal. Run with -race to check its
// locking.
func TestPortfolioMatchesSequential(t *testing.T) {
	var both atomic.Int64 // instances where the two solvers both ran
	defer func() { t.Logf("%d instances ran both solvers", both.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 6, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		seq, err := Solve(context.Background(), in, Options{Model: modelName, NoCP: true})
		require.NoError(t, err)
		par, err := Solve(context.Background(), in, Options{Model: modelName, NoCP: true, Workers: 2})
		require.NoError(t, err)
		require.True(t, seq.Optimal)
		require.True(t, par.Optimal)
		require.Equal(t, seq.Schedule.Makespan, par.Schedule.Makespan)
		require.NoError(t, verify.Schedule(in, par.Schedule))
		if par.Stats.Calls >= 2 {
			both.Add(1)
		}
	})
}

// TestCPFrontierWithinSlice checks the figure cpBoundSlice rests on (and
// doc.go quotes): on issue 16's frontier tree the bufferless schedule search
// at the optimum 150 finds a schedule in 1,632 failures, within the first
// part of a search at the bound (cpBoundSlice), so splitting that search
// does not delay this answer.
func TestCPFrontierWithinSlice(t *testing.T) {
	in := frontierTree(t)
	starts, st := newCPSearch(in, true).solve(context.Background(), 150, cpFirstFails, 1)
	require.NotNil(t, starts)
	require.Equal(t, int64(1632), st.Fails)
	require.LessOrEqual(t, st.Fails, int64(cpBoundSlice))
}
