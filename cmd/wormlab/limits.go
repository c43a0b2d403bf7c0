package main

// Limits of the network half's commands (issue 26): estimates made before the
// work allocates, against --max-memory, and the convention for a command stopped
// early.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/topology"
)

// overBudget is the one line of a run refused for its memory: what, its estimate
// and the budget, naming --max-memory.
func overBudget(what string, need, budget int64) error {
	return usageError("--max-memory: %s needs about %s, more than the budget of %s", what, lower.Bytes(need), lower.Bytes(budget))
}

// deadlockPairBytes is a floor on the memory deadlock's enumeration takes per
// source-destination pair: every pair has at least one state, and the largest
// resident size over the pairs was 564 bytes on torus:16x16 and 461 on
// torus:24x24 (dor, the exact decision's graph).
const deadlockPairBytes = 128

// tablePairBytes is a floor on the memory --write-table takes per
// source-destination pair: routing.WriteTable walks every destination's states
// from every source, and keeps, for each router's entry, the list of the
// destinations it serves, in which every source router other than the
// destination puts that destination (an int, 8 bytes). Measured resident sizes
// were above it: about 140 bytes a pair on mesh:16x16 and 54 on mesh:32x32
// (dor, the runtime's base of 10 MB left out).
const tablePairBytes = 8

// pairsFit refuses what (enumerating, or writing the routing table of) routing
// on net when its pairs cannot fit in budget bytes, perPair each; counted says
// how the pairs were counted ("" on the built network, "at least" from the spec).
func pairsFit(what, routing, net, counted string, pairs, perPair, budget int64) error {
	if need := satarith.Mul(pairs, perPair); need > budget {
		return overBudget(fmt.Sprintf("%s %s on %s (%s source-destination pairs)", what, routing, net, strings.TrimSpace(counted+" "+fmt.Sprint(pairs))), need, budget)
	}
	return nil
}

// deadlockPairs counts the source-destination pairs the enumeration visits
// (sources times sinks, a router paired with itself left out), in O(routers).
func deadlockPairs(net topology.Network) int64 {
	srcs, dsts := topology.Sources(net), topology.Sinks(net)
	isDst := make([]bool, net.Nodes())
	for _, d := range dsts {
		isDst[d] = true
	}
	pairs := int64(len(srcs)) * int64(len(dsts))
	for _, s := range srcs {
		if isDst[s] {
			pairs--
		}
	}
	return pairs
}

// stopped is the one convention of the network half's commands for a run that
// stops early (Ctrl-C, SIGTERM or --timeout): the command writes what it has,
// marked as partial in its output ("interrupted" in JSON, a line in text), and
// exits with status 1 and one line on stderr saying why and what is missing.
func stopped(ctx context.Context, format string, a ...any) error {
	return negative("%s: %s", stopReason(ctx), fmt.Sprintf(format, a...))
}

// stopReason is "interrupted" for Ctrl-C or SIGTERM, "timed out" when the time
// limit ran out (--timeout, or a sweep spec's timeout for its points).
func stopReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "timed out"
	}
	return "interrupted"
}

// withTimeout is the command's context: cancelled on Ctrl-C or SIGTERM (or when
// the caller's e.ctx ends: a sweep's point leaves the signals to the sweep, which
// then knows the point was interrupted, not failed), and after d when d > 0.
func withTimeout(e *env, d time.Duration) (context.Context, context.CancelFunc) {
	var ctx context.Context
	var stop context.CancelFunc
	if e.ctx != nil {
		ctx, stop = context.WithCancel(e.ctx)
	} else {
		ctx, stop = interruptContext()
	}
	if d <= 0 {
		return ctx, stop
	}
	tctx, cancel := context.WithTimeout(ctx, d)
	return tctx, func() { cancel(); stop() }
}
