package watch

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestContext: the context stays live while the condition is false, and is
// cancelled with the given cause once it holds; its CancelFunc cancels with
// context.Canceled.
func TestContext(t *testing.T) {
	var done atomic.Bool
	stop := errors.New("condition")
	ctx, cancel := Context(context.Background(), done.Load, stop)
	defer cancel()
	time.Sleep(3 * Every)
	if ctx.Err() != nil {
		t.Fatal("cancelled before the condition held")
	}
	done.Store(true)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not cancelled once the condition held")
	}
	if !errors.Is(context.Cause(ctx), stop) {
		t.Fatalf("cause %v, want %v", context.Cause(ctx), stop)
	}
	ctx2, cancel2 := Context(context.Background(), func() bool { return false }, stop)
	cancel2()
	if !errors.Is(context.Cause(ctx2), context.Canceled) {
		t.Fatalf("cause after CancelFunc %v, want context.Canceled", context.Cause(ctx2))
	}
}
