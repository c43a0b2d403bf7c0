package optimal

// The memory guard of every path that builds a formula (Solve, Encode, and so
// `wormlab solve` with or without --dimacs): the size of the formula is estimated
// from the instance before a clause is built, and a formula over the budget is
// refused with a *SizeError instead of exhausting memory (issue 10: two worms of
// 2^40 flits once grew past 9 GB).

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// BytesPerClause is the memory one clause of the estimate is charged. What Solve
// holds at once, at most: two formulas, the first (the probes' formula, kept
// for loading them again) and the descent's once it encodes again at a lower
// horizon (descentStep; no larger than the first), and three gini solvers (the
// descent and the two probes of the interleaved search, each loaded with one
// of the formulas; two in the portfolio of Options.Workers; descentStep drops
// the descent's old solver before it loads the new one). BenchmarkFormulaBytes
// measures a formula at 47-52 bytes a clause and a gini solver just loaded at
// 61-89 (issue 27's meshes, session 9; the estimate is 1.04-1.54 times the
// clauses built), so 2 x 52 + 3 x 89 = 371 bytes a clause built, before the
// learnt clauses. (256, until session 9 of issue 27, covered one formula and
// two solvers.)
const BytesPerClause = 384

// DefaultMaxMemory is the memory budget of Encode and of Solve when
// Options.MaxMemory is 0 (that of `wormlab solve --max-memory`'s default).
const DefaultMaxMemory int64 = 4 << 30

// SizeError reports a formula whose estimated size exceeds the memory budget.
type SizeError struct {
	Horizon int
	Clauses float64 // estimated clauses (an upper estimate)
	Budget  int64   // bytes
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("optimal: the formula for horizon %d would have about %.3g clauses (%.3g bytes at %d bytes each), more than the memory budget of %d bytes",
		e.Horizon, e.Clauses, e.Clauses*BytesPerClause, BytesPerClause, e.Budget)
}

// estimateClauses is an upper estimate of the clauses Encode builds for in, model
// and horizon T, in O(n + sum_i d_i + edges) time and without building anything:
// per time chain its W - 1 variables give W - 2 chain clauses and (wormhole) W - 1
// hop-order clauses; per edge shared by c_e messages, at most c_e (c_e - 1) / 2
// pairs, each with two difference constraints of at most W + 1 clauses (doc.go);
// the cardinality counters are capped at 200,000 auxiliaries (card.go), about
// twice that in clauses. Floats: the product may not fit in an int.
func estimateClauses(in *model.Instance, modelName string, T int) float64 {
	total := 400000.0
	w := func(i int) float64 {
		m := &in.Messages[i]
		return max(float64(T)-float64(len(m.Path))-float64(m.L)+2, 1)
	}
	for i := range in.Messages {
		if modelName == model.Bufferless {
			total += w(i)
		} else {
			total += 2 * w(i) * float64(len(in.Messages[i].Path))
		}
	}
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue
		}
		wmax := 0.0
		for _, u := range us {
			wmax = max(wmax, w(u.Msg))
		}
		c := float64(len(us))
		total += c * (c - 1) / 2 * 2 * (wmax + 1)
	}
	return total
}

// checkSize returns a *SizeError when the formula for in, model and T would exceed
// budget bytes (0: DefaultMaxMemory).
func checkSize(in *model.Instance, modelName string, T int, budget int64) error {
	if budget <= 0 {
		budget = DefaultMaxMemory
	}
	if c := estimateClauses(in, modelName, T); c*BytesPerClause > float64(budget) {
		return &SizeError{Horizon: T, Clauses: c, Budget: budget}
	}
	return nil
}
