package optimal

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// A cancelled solve of 1000 one-hop worms on one edge returns within 2 s of CPU
// time (of its thread) with a legal schedule and a proven bound: the aligned
// cliques look at the context every cliqueCheck pair visits. Before, growing a
// clique from every message (n^3 / 2 offset checks) ignored it: 44 CPU-seconds
// for solve --timeout 1ms on this instance.
func TestCancelledSolveOnOneEdge(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"network":{"edges":[["a","b"]]},"messages":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","path":["a","b"]}`, i)
	}
	b.WriteString(`]}`)
	in, err := model.ReadInstance(strings.NewReader(b.String()))
	require.NoError(t, err)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := testctx.ThreadCPU(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, in, Options{})
	end, _ := cputime.Thread()
	require.NoError(t, err)
	require.Less(t, end-start, 2*time.Second, "CPU time of a cancelled solve")
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.LessOrEqual(t, res.Lower, res.Schedule.Makespan)
	require.GreaterOrEqual(t, res.Lower, 1000)
}

// The one-edge cliques (Jackson's rule on every edge's users) look at the context
// too, and a context already done is seen before the users are listed: on the
// 20,000 worms of gen mesh:50x50 --messages 20000 --flits 4 --seed 1 (662,583
// users of edges, 0.1 s of Jackson's rule) cliquesWithin with a context done
// at once returns nothing, and one done once the thread has used 5 ms returns
// by 80 ms (34-37 ms: the users listed, then a look within 6,554 users),
// where the one-edge loop ran whole (0.14 s) before the offsets' first look.
func TestCliquesStopInTheEdges(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{50, 50}, Messages: 20000, Flits: 4, Seed: 1})
	require.NoError(t, err)
	done, cancel := context.WithCancel(testctx.For(t))
	cancel()
	require.Empty(t, cliquesWithin(done, in, model.Wormhole))
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 5*time.Millisecond}
	cs := cliquesWithin(ctx, in, model.Wormhole)
	end, _ := cputime.Thread()
	t.Logf("thread CPU: %v, %d cliques", end-start, len(cs))
	require.Less(t, end-start, 80*time.Millisecond, "CPU time of cliquesWithin, cancelled at 5 ms")
	for _, c := range cs {
		require.True(t, c.edge, "only one-edge cliques before the stop")
	}
}
