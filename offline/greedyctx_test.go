package offline

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// GreedyContext with a context that does not end is Greedy (the looks change no
// placement), on every order tried.
func TestGreedyContextIsGreedy(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{12, 12}, Messages: 600, Flits: 3, Seed: 2})
	require.NoError(t, err)
	n := len(in.Messages)
	fwd, back, odd := make([]int, n), make([]int, n), make([]int, 0, n)
	for i := range n {
		fwd[i], back[n-1-i] = i, i
	}
	for i := range n {
		odd = append(odd, (i*7)%n) // 7 and 600 are coprime
	}
	for _, order := range [][]int{fwd, back, odd} {
		want, err := Greedy(in, order)
		require.NoError(t, err)
		got, err := GreedyContext(context.Background(), in, order)
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.NoError(t, verify.Schedule(in, model.FromStarts(in, got)), "GreedyContext's starts must be a legal bufferless schedule")
	}
	_, err = GreedyContext(context.Background(), in, fwd[1:])
	require.ErrorContains(t, err, "order has")
}

// GreedyContext stops within a look of its context ending: on 50,000 worms of 4
// flits on a 100x100 mesh (Greedy: 1.1 s of thread CPU, GOMAXPROCS=1, load 12),
// cancelled once the thread has used 0.05 s, it returns the context's error by
// 0.3 s; Greedy has no context and places every message (optimal's upper bound
// ran the order it had begun to its end, so solve --timeout ended that much late).
func TestGreedyContextStops(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{100, 100}, Messages: 50000, Flits: 4, Seed: 1})
	require.NoError(t, err)
	order := make([]int, len(in.Messages))
	for i := range order {
		order[i] = i
	}
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 50*time.Millisecond}
	starts, err := GreedyContext(ctx, in, order)
	end, _ := cputime.Thread()
	require.Nil(t, starts)
	require.ErrorIs(t, err, context.Canceled)
	t.Logf("thread CPU: %v", end-start)
	require.Less(t, end-start, 300*time.Millisecond, "CPU time of GreedyContext, cancelled at 0.05 s")
}
