package main

import (
	"context"
	"errors"
	"time"

	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/watch"
)

// errCPULimit is the cause of a context stopped by cpuLimitContext.
var errCPULimit = errors.New("CPU limit reached")

// processCPU is the CPU time (user and system) this process has used, 0
// where the system cannot tell.
var processCPU = cputime.Used

// cpuLimitContext returns a context that is cancelled, with cause errCPULimit,
// once this process has used limit more CPU time than when it was called (it
// looks every 20 ms). On a shared machine a wall-clock timeout gives a solver as
// much work as the other users leave it; a CPU limit gives it the same work
// whatever the load (docs/solver.md measures that way).
func cpuLimitContext(parent context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	start := processCPU()
	return watch.Context(parent, func() bool { return processCPU()-start >= limit }, errCPULimit)
}
