// Package testctx bounds the simulations and searches of a package's tests, so
// that a broken simulator or a search that never ends fails the tests instead of
// hanging the suite (issue 26: a delivery not counted or a hop count not
// incremented hung it for five minutes; several tests stuck at two minutes each
// passed the package's timeout). Only tests import it.
//
// The bounds are CPU time of the test binary (user and system, every thread and
// the collector: cputime.Process), not wall-clock time: a test's work does not
// change with the machine's load, its wall-clock time does (sim's tests, 100-160 s
// at load 20 on two cores, ran past the six minutes of wall-clock time this package
// allowed them at load 26-30).
// A generous wall-clock bound stays, only to end a test that hangs without
// working. A test binary runs one package's tests, so the process's CPU time
// bounds all of that package's tests together.
package testctx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/watch"
)

// PerTest bounds the CPU time the process uses during one test (tests run in
// parallel share it).
const PerTest = 2 * time.Minute

// Hang bounds one test's wall-clock time: a guard against a test that waits
// forever without using CPU time, far above what any test takes at any load.
const Hang = 20 * time.Minute

// Budget is the CPU time all of a package's tests share: six minutes (sim's
// tests, the largest share, used 32 s of CPU time in 126 s of wall-clock time at
// load 18-20 on two cores, 2026-11-27), an hour with WORMLAB_LONG=1, when the gated tests
// run too (sim's TestBookSimAgreement alone runs 48 simulations of up to 60,000
// cycles beside BookSim2).
func Budget() time.Duration {
	if os.Getenv("WORMLAB_LONG") == "1" {
		return time.Hour
	}
	return 6 * time.Minute
}

// ErrCPU is the cause of a context that For ended on its CPU bounds.
var ErrCPU = errors.New("testctx: the CPU time of the test or of the package's tests is spent")

// For is a test's context: it ends once the process has used PerTest of CPU time
// since the call, or Budget in all, or Hang from now, whichever comes first, and
// is cancelled when the test ends.
func For(t interface{ Cleanup(func()) }) context.Context {
	ctx, cancel := bounded(PerTest, Budget(), Hang)
	t.Cleanup(cancel)
	return ctx
}

// bounded is For's context with its bounds as arguments: perTest of CPU time
// from now, suite of CPU time since the process began, hang of wall-clock time
// from now.
func bounded(perTest, suite, hang time.Duration) (context.Context, context.CancelFunc) {
	wall, cancelWall := context.WithTimeoutCause(context.Background(), hang,
		fmt.Errorf("testctx: %v of wall-clock time (a test that hangs)", hang))
	ctx, cancel := context.WithCancelCause(wall)
	b := &bound{start: cputime.Used(), perTest: perTest, suite: suite, cancel: cancel}
	mu.Lock()
	live[b] = true
	mu.Unlock()
	watching.Do(func() { go watchLive() })
	return ctx, func() {
		mu.Lock()
		delete(live, b)
		mu.Unlock()
		cancel(context.Canceled)
		cancelWall()
	}
}

// bound is a live context of bounded: the process's CPU time when it began, its
// CPU bounds, and how to end it.
type bound struct {
	start, perTest, suite time.Duration
	cancel                context.CancelCauseFunc
}

// live are bounded's contexts not yet ended, which one goroutine (watchLive)
// looks at together. A goroutine each (watch.Context) woke some 2,000 tickers
// 50 times a second in sim's TestZeroLoadLatencyExact and
// TestZeroLoadWithLinkLatencies, whose short simulations each take a context
// that lives until the test ends: it doubled their CPU time.
var (
	mu       sync.Mutex
	live     = map[*bound]bool{}
	watching sync.Once
)

// watchLive ends, with ErrCPU, every live context whose CPU bounds are spent,
// looking every watch.Every (one reading of the CPU time for all of them).
func watchLive() {
	for range time.Tick(watch.Every) {
		mu.Lock()
		if len(live) > 0 {
			now := cputime.Used()
			for b := range live {
				if now-b.start >= b.perTest || now >= b.suite {
					b.cancel(ErrCPU)
					delete(live, b)
				}
			}
		}
		mu.Unlock()
	}
}

// Spent is a context that also reports itself cancelled (context.Canceled) once
// the calling thread has used After of CPU time (cputime.Thread): a Ctrl-C at a
// point fixed by the work done, whatever the machine's load. Its test locks its
// OS thread, so that the thread's time is the test's.
type Spent struct {
	context.Context
	After time.Duration
}

func (c *Spent) Err() error {
	if t, ok := cputime.Thread(); ok && t > c.After {
		return context.Canceled
	}
	return c.Context.Err()
}

// ThreadCPU is the calling thread's CPU time; the test is skipped where the
// system cannot tell it.
func ThreadCPU(t interface{ Skip(...any) }) time.Duration {
	d, ok := cputime.Thread()
	if !ok {
		t.Skip("no thread CPU time here")
	}
	return d
}
