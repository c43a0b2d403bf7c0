// Package gctune sets the garbage collector's target for the commands whose work
// allocates and drops whole values (instances, simulations, sweep points) while
// their live heap stays small: at Go's default (GOGC 100) the collector runs every
// few milliseconds there. The commands call it, never the libraries they use: it
// is a setting of the process.
//
// What it bought, measured where each caller was tuned: wormlab sweep of
// experiments/online-phased on one worker 7.2 -> 5.7 s; BenchmarkRates20's
// critical path on two workers 1041 -> 914-983 ms of CPU; wormlab adversary's
// BenchmarkSearchWorkers with two workers 16.0-18.1k -> 26.5-29.0k evaluations a
// second (the collector ran every 2 ms on a 2 MB live heap, stopping both chains
// each time; interleaved runs at load 1).
package gctune

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// Percent is the collector's target while a tuned run lasts: collect at 5x the
// live heap instead of 2x.
const Percent = 400

var state struct {
	sync.Mutex
	want map[int]int // the targets asked for by the runs that last: how many runs each
	old  int         // the target before the first of them
}

// Tune sets the collector's target to Percent, unless the GOGC environment
// variable sets one, for as long as at least one tuned run lasts, and returns the
// function that ends this run's share (the last one restores the previous
// target). Concurrent runs (tests, a sweep's points) may each call it.
func Tune() func() { return Set(Percent) }

// Set is Tune with a target of percent: while several runs last that asked for
// different targets, the least of them holds (a run that keeps its heap lean,
// such as wormlab color's, keeps a memory bound a faster collector would break;
// the others only lose speed). The last run to end restores the target from
// before the first, whatever the order the runs end in.
func Set(percent int) func() {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	state.Lock()
	defer state.Unlock()
	if len(state.want) == 0 {
		state.want = map[int]int{}
		state.old = debug.SetGCPercent(percent)
	}
	state.want[percent]++
	apply()
	return func() {
		state.Lock()
		defer state.Unlock()
		if state.want[percent]--; state.want[percent] == 0 {
			delete(state.want, percent)
		}
		if len(state.want) == 0 {
			debug.SetGCPercent(state.old)
			return
		}
		apply()
	}
}

// apply sets the least target asked for (state locked, some run lasting).
func apply() {
	least := math.MaxInt
	for p := range state.want {
		least = min(least, p)
	}
	debug.SetGCPercent(least)
}
