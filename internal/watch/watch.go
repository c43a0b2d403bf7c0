// Package watch cancels a context once a condition holds that no deadline can
// express, such as a process's CPU time passing a limit (wormlab solve
// --cpu-limit) or the time left falling to a stage's reserve (offline/optimal's
// bufferless stage).
package watch

import (
	"context"
	"time"
)

// Every is how often Context looks at its condition.
const Every = 20 * time.Millisecond

// Context returns a context derived from parent that is also cancelled, with
// cause, once cond() returns true (looked at every Every, from a goroutine that
// ends with the context). Its CancelFunc cancels with context.Canceled.
func Context(parent context.Context, cond func() bool, cause error) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	go func() {
		tick := time.NewTicker(Every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if cond() {
					cancel(cause)
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}
