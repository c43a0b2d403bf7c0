// Package objective holds the ratios wormlab adversary maximises (the
// lower/adversary.Objective values): each is a numerator and a denominator, both a
// Measure of the instance, one per file: the optimum (offline/optimal, with the
// bounds of package lower), online greedy, the offline colorer, the best lower
// bound of package lower, the closed forms max(c_L, d + L - 1), c_L + d - 1 and
// c_L d, and the theorems' own bounds (Lemma 1 and Theorem 1 of seed 002, Theorem 4
// of seed 000, the colorer's plan) with the algorithms they bound (theorems.go).
//
// # Exactness
//
// A side is exact when it is what it names: an optimum proven (a schedule whose
// makespan meets a proven lower bound, the bound named so that a certificate can
// be written), a bound or a makespan computed. Where the solver does not prove an
// optimum within its time, an optimum in a numerator takes the best proven lower
// bound and one in a denominator the best schedule's makespan, so that an
// unfinished measurement can only understate a ratio, and the Value says so
// (Exact false). A search that keeps understated ratios never reports a hard
// instance that is not.
//
// # Screening
//
// Given a floor (the ratio a strategy needs), Ratio first bounds each side
// cheaply (Estimator: the optimum between model.LowerBound and a greedy schedule)
// and returns Below when the ratio provably falls under the floor: the exact
// measurement, the expensive part, runs only for candidates a strategy may keep.
//
// # Cost
//
// Per candidate: the closed forms O(sum d_i + edges); greedy one engine run,
// O(makespan * worms); the colorer O(worms^2 d) over its orders; the best lower
// bound the budgeted searches of lower.Bounds; the optimum those bounds, the
// greedy and phase schedules and, only where they leave a gap, optimal.Solve
// within Timeout.
package objective
