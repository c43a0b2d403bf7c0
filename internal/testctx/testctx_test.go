package testctx

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/cputime"
)

// A test's context is live when it starts, has the wall-clock guard as its
// deadline, and is cancelled when the test ends.
func TestFor(t *testing.T) {
	var ctx context.Context
	t.Run("inner", func(t *testing.T) {
		ctx = For(t)
		end, ok := ctx.Deadline()
		require.True(t, ok)
		require.False(t, end.After(time.Now().Add(Hang)))
		require.NoError(t, ctx.Err())
	})
	require.Error(t, ctx.Err(), "cancelled when its test ended")
}

// spin uses CPU time until ctx ends, or until give-up of wall-clock time, and
// returns the process's CPU time it watched pass.
func spin(ctx context.Context, giveUp time.Duration) time.Duration {
	start, end := cputime.Used(), time.Now().Add(giveUp)
	x := 0
	for ctx.Err() == nil && time.Now().Before(end) {
		for i := range 100000 {
			x += i
		}
	}
	_ = x
	return cputime.Used() - start
}

// The CPU bounds fire: a test that works past its CPU time is stopped with
// ErrCPU once it has used it (and not long after: looked at every 20 ms), and so
// is one started after the package's tests spent their budget, at once. The
// machine's load stretches the wall-clock time these take, not the CPU time.
func TestCPUBudgetFires(t *testing.T) {
	const per = 200 * time.Millisecond
	ctx, cancel := bounded(per, time.Hour, time.Minute)
	defer cancel()
	got := spin(ctx, 50*time.Second)
	require.ErrorIs(t, context.Cause(ctx), ErrCPU, "after %v of CPU time", got)
	require.GreaterOrEqual(t, got, per)

	ctx, cancel = bounded(time.Hour, cputime.Used(), time.Minute)
	defer cancel()
	spin(ctx, 50*time.Second)
	require.ErrorIs(t, context.Cause(ctx), ErrCPU, "the package's budget spent")
}

// A test that waits without working is not stopped by the CPU bounds but by the
// wall-clock guard.
func TestHangGuard(t *testing.T) {
	ctx, cancel := bounded(50*time.Millisecond, time.Hour, 300*time.Millisecond)
	defer cancel()
	<-ctx.Done()
	require.False(t, errors.Is(context.Cause(ctx), ErrCPU), "a waiting test used no CPU time")
	require.ErrorIs(t, ctx.Err(), context.DeadlineExceeded)
}

// Spent is live until its thread has used After of CPU time and cancelled from
// then on, while its parent stays live.
func TestSpentEndsOnThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := ThreadCPU(t)
	c := &Spent{Context: context.Background(), After: start + 20*time.Millisecond}
	require.NoError(t, c.Err())
	for c.Err() == nil {
		require.Less(t, ThreadCPU(t)-start, 2*time.Second, "Spent still live after 2 s of the thread's CPU")
	}
	require.ErrorIs(t, c.Err(), context.Canceled)
	require.NoError(t, c.Context.Err())
}
