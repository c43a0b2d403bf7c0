package lower

// Memory and time limits for the bounds: which bounds an instance can afford, and
// the reasons for those skipped.

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// DefaultMaxMemory is the memory BoundsWithin plans for when Limits.MaxMemory is 0:
// 4 GiB, well under the 24 GB of the machines wormlab runs on.
const DefaultMaxMemory int64 = 4 << 30

// Limits bounds the work and memory of BoundsWithin.
type Limits struct {
	// Budget is the number of search nodes per clique, colouring or independent-set
	// search (a tenth for the disjunctive search); <= 0: no limit.
	Budget int
	// MaxMemory is the memory, in bytes, the bounds may plan for (0:
	// DefaultMaxMemory). A bound whose estimate exceeds it is skipped.
	MaxMemory int64
	// NoModel leaves out the model's own bounds (in.LowerBounds) for a caller that
	// has them already; Best is then the best of this package's.
	NoModel bool
}

// Skip is a bound not computed, and why.
type Skip struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Result is what BoundsWithin computed: the bounds of the model and of this package
// that fit the limits, the best of them, and those skipped.
type Result struct {
	Bounds  []model.Bound `json:"bounds"`
	Best    model.Bound   `json:"best"`
	Skipped []Skip        `json:"skipped,omitempty"`
	// Interrupted is set when the context was cancelled: Bounds holds those done.
	Interrupted bool `json:"interrupted,omitempty"`
}

// AlignedMemory estimates the peak memory of the aligned-conflict bounds (clique,
// colouring, independence, prefix) on n messages: the conflict graph's adjacency
// bitsets, n ceil(n/64) words, with half again for the searches and the prefix
// instance's own graph built after the first is dropped (measured: 1.65 GB peak
// heap at n = 10^5 for a 1.25 GB graph).
func AlignedMemory(n int) int64 {
	words := int64(n) * int64((n+63)/64)
	return words * 8 * 3 / 2
}

// BoundsWithin returns the model's lower bounds and those of this package that fit
// the limits, checking ctx between bounds, at every node of the clique,
// colouring, independent-set and disjunctive searches, and every stopCheck nodes
// of the edge-sequence search (Ctrl-C returns the bounds done, the one it cut
// short weaker but valid, with Interrupted set). The model's bounds
// (in.LowerBounds, package model) take no context. Every bound it returns
// obeys the invariants of Bounds; those it skips are listed with the reason, so
// that a report can say what it left out.
// The model's bounds and the edge-sequence bound cost O(sum_e c_e) memory and are
// always computed; the disjunctive search is skipped above MaxDisjunctions.
func BoundsWithin(ctx context.Context, in *model.Instance, lim Limits) *Result {
	maxMem := lim.MaxMemory
	if maxMem <= 0 {
		maxMem = DefaultMaxMemory
	}
	r := &Result{}
	if !lim.NoModel {
		r.Bounds = in.LowerBounds()
	}
	done := func() bool {
		if ctx.Err() != nil {
			r.Interrupted = true
			return true
		}
		return false
	}
	n := len(in.Messages)
	if need := AlignedMemory(n); need > maxMem {
		reason := fmt.Sprintf("the aligned conflict graph of %d messages needs about %s, more than the memory limit %s", n, Bytes(need), Bytes(maxMem))
		for _, name := range []string{BoundClique, BoundColouring, BoundIndependence, BoundPrefix} {
			r.Skipped = append(r.Skipped, Skip{name, reason})
		}
	} else if !done() {
		// the searches stop within a node, or stopCheck units of work, of a
		// cancelled ctx (with weaker, valid bounds), not after their whole budget
		sl := limit{nodes: lim.Budget, stop: func() bool { return ctx.Err() != nil }, work: &worked{}}
		g := alignedConflicts(in, sl)
		if !done() {
			r.Bounds = append(r.Bounds, cliqueBound(in, g, sl))
		}
		if !done() {
			r.Bounds = append(r.Bounds, colouringBound(in, g, sl))
		}
		if !done() {
			r.Bounds = append(r.Bounds, independenceBound(in, g, sl))
		}
		g = nil
		if !done() {
			if b, ok := prefixBound(in, sl); ok {
				r.Bounds = append(r.Bounds, b)
			}
		}
	}
	// the edge-sequence and disjunctive searches stop as the others do
	sl := limit{stop: func() bool { return ctx.Err() != nil }, work: &worked{}}
	if !done() {
		if b, ok := sequenceBound(in, sl); ok {
			r.Bounds = append(r.Bounds, b)
		}
	}
	if !done() {
		if k := DisjunctionCount(in); k > MaxDisjunctions {
			r.Skipped = append(r.Skipped, Skip{BoundDisjunctive, fmt.Sprintf("%d disjunctions (pairs of messages on a shared edge), more than %d", k, MaxDisjunctions)})
		} else if b, ok := disjunctiveBound(in, max(in.LowerBound().Value, BestOf(r.Bounds).Value), lim.Budget, sl); ok {
			r.Bounds = append(r.Bounds, b)
		}
		done() // Interrupted, when ctx ended the disjunctive search
	}
	r.Best = BestOf(r.Bounds)
	return r
}

// BestOf returns the largest bound of bs (the first on a tie); the zero Bound for
// none.
func BestOf(bs []model.Bound) model.Bound {
	if len(bs) == 0 {
		return model.Bound{}
	}
	best := bs[0]
	for _, b := range bs[1:] {
		if b.Value > best.Value {
			best = b
		}
	}
	return best
}

// Bytes writes a byte count with a binary unit ("1.5 GiB").
func Bytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 4; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTP"[exp])
}
