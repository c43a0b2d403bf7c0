package optimal

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/verify"
)

// Lemma (neighbours are pairs of runs): the count of edge-sharing neighbours is the number of pairs of runs (runs.go)
// each message is in: messages i and j share an edge exactly when runs has a run
// of the pair, so byPair's pairs counted at both ends are the neighbours; and
// greedy's schedule, the best of the three orders, one sorted by this count,
// passes verify.
func TestNeighboursArePairsOfRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 3, 12, 3)
		want := make([]int, len(in.Messages))
		for _, rs := range byPair(runs(in)) {
			want[rs[0].I]++
			want[rs[0].J]++
		}
		require.Equal(t, want, neighbours(context.Background(), in))
		// greedy, whose third order sorts by this count, under a context
		// that does not end (all three orders made): a legal schedule.
		g, err := greedy(context.Background(), in)
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, g), "greedy's best of its three orders")
	})
}

// The count of neighbours looks at the context every checkWork units: 3000
// worms on one path of 60 edges (1.8e5 users met 3000 times, 5.4e8 units)
// cancelled at 0.05 s of thread CPU return nil by 0.5 s.
func TestNeighboursStop(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var b strings.Builder
	b.WriteString(`{"network":{"edges":[`)
	for k := range 60 {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `["n%d","n%d"]`, k, k+1)
	}
	b.WriteString(`]},"messages":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","edges":[%s],"flits":2}`, i, indexList(60))
	}
	b.WriteString(`]}`)
	in, err := model.ReadInstance(strings.NewReader(b.String()))
	require.NoError(t, err)
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 50*time.Millisecond}
	require.Nil(t, neighbours(ctx, in))
	require.Less(t, testctx.ThreadCPU(t)-start, 500*time.Millisecond, "neighbours ran on after its context was done")
}

func indexList(n int) string {
	s := make([]string, n)
	for k := range s {
		s[k] = fmt.Sprint(k)
	}
	return strings.Join(s, ",")
}

// A solve's greedy upper bound stops with its context, and a stopped greedy
// still leaves a legal schedule: the input order's (offline.Greedy), which it
// always makes. On the 20,000 worms of gen mesh:50x50 --messages 20000 --flits 4
// --seed 1 (where solve --timeout 3s ran 55 s, 13.8 CPU-s: the pairs of runs,
// before greedy looked at the context) a context done at 0.05 s of thread CPU
// ends greedy by 1.5 s, with a verified schedule of the input order's makespan.
func TestGreedyStopsWithItsContext(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{50, 50}, Messages: 20000, Flits: 4, Seed: 1})
	require.NoError(t, err)
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 50*time.Millisecond}
	s, err := greedy(ctx, in)
	require.NoError(t, err)
	require.Less(t, testctx.ThreadCPU(t)-start, 1500*time.Millisecond, "greedy ran on after its context was done")
	require.NoError(t, verify.Schedule(in, s))
	order := make([]int, len(in.Messages))
	for i := range order {
		order[i] = i
	}
	starts, err := offline.Greedy(in, order)
	require.NoError(t, err)
	require.Equal(t, model.FromStarts(in, starts).Makespan, s.Makespan)
}

// doneAfterFirstLook is a context that is done from its second look on, and
// records the thread's CPU time at its first.
type doneAfterFirstLook struct {
	context.Context
	looks int
	first time.Duration
}

func (c *doneAfterFirstLook) Err() error {
	if c.looks++; c.looks == 1 {
		c.first, _ = cputime.Thread()
		return nil
	}
	return context.Canceled
}

// A context that ends while greedy makes its second order (longest d + L first)
// gives that order up at offline.GreedyContext's next look (every 4096 hops), so
// greedy returns the input order's schedule within the sort of the order and a
// look: by 0.08 s of thread CPU after the context ended on the 20,000 worms of
// gen mesh:50x50 --messages 20000 --flits 4 --seed 1, where offline.Greedy, which
// has no context, ran the order to its end (0.16 s) before the count of
// neighbours looked: solve --timeout ended that much late.
func TestGreedyGivesUpAnOrderBegun(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{50, 50}, Messages: 20000, Flits: 4, Seed: 1})
	require.NoError(t, err)
	testctx.ThreadCPU(t) // skipped where the thread's time is not known
	ctx := &doneAfterFirstLook{Context: testctx.For(t)}
	s, err := greedy(ctx, in)
	end, _ := cputime.Thread()
	require.NoError(t, err)
	require.Greater(t, ctx.looks, 1, "the second order looked at the context")
	t.Logf("thread CPU after the context ended: %v", end-ctx.first)
	require.Less(t, end-ctx.first, 80*time.Millisecond, "CPU time of greedy after its context ended")
	require.NoError(t, verify.Schedule(in, s))
	order := make([]int, len(in.Messages))
	for i := range order {
		order[i] = i
	}
	starts, err := offline.Greedy(in, order)
	require.NoError(t, err)
	require.Equal(t, model.FromStarts(in, starts), s, "the input order's schedule")
}
