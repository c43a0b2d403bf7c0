package offline

// The generic order for any network (seed 002, opening of section 5): taking every
// edge of a path as its entrance set makes any total order d-entrant, so the greedy
// colorer of section 4.2 gives starts at most (2L - 1) d (c - 1), O(cd). The paper's
// prime construction shows that some instances need Omega(cd) steps.
//
// Here Lemma 6's count does not even need the routing problem to be simple: each
// earlier path p and each edge e that p shares with q forbid at most L_p + L_q - 1
// starts of q, and there are at most d (c - 1) such pairs (p, e).

import (
	"cmp"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// AnyPlan builds the generic order: longest messages first (largest d_i + L_i - 1,
// then by index), every path's edges as its entrance set, K = d.
func AnyPlan(in *model.Instance) *Plan { return anyPlan(model.PathsOf(in)) }

func anyPlan(ps *model.Paths) *Plan {
	// Every position of every path is an entrance (no sets to record), and k is
	// the dilation (Paths.Measure, computed once for the bound and the colorer too).
	plan := &Plan{Order: "any", K: ps.Measure().D, every: true, ps: ps}
	plan.Parts = [][]int{longestFirst(ps)}
	return plan
}

// ints returns the edges of a path as ints.
func ints(path []int32) []int {
	out := make([]int, len(path))
	for k, e := range path {
		out[k] = int(e)
	}
	return out
}

// longestFirst returns the message indices by largest d_i + L_i - 1 first, then by
// index: the generic order, and the improvement pass's "longest" candidate.
func longestFirst(ps *model.Paths) []int {
	order := make([]int, ps.Len())
	for i := range order {
		order[i] = i
	}
	span := func(i int) int { return ps.D(i) + ps.L[i] }
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(span(b), span(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return order
}
