package objective

import (
	"context"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
)

// LowerBound is the best lower bound wormlab computes (lower.Best: the model's
// bounds and package lower's clique, colouring, independence, prefix, edge-sequence
// and disjunctive bounds), named.
type LowerBound struct{}

var (
	_ Measure   = LowerBound{}
	_ Estimator = LowerBound{}
)

// Measure computes lower.Best; it is exact (the bound, not the optimum).
func (LowerBound) Measure(_ context.Context, m *Memo, _ bool) (Side, error) {
	b := m.Best()
	return Side{Value: adversary.Value{V: b.Value, How: "lower bound " + b.Name, Exact: true}}, nil
}

// Estimate bounds lower.Best below by the model's bounds and the aligned-colouring
// bound (two of the bounds it takes the largest of) and above by a legal
// schedule's makespan (every lower bound is at most the optimum).
func (LowerBound) Estimate(ctx context.Context, m *Memo) (int, int, error) {
	u, err := m.Upper(ctx, model.Wormhole)
	if err != nil {
		return 0, 0, err
	}
	cb, _ := m.Colouring()
	return max(m.LowerBound().Value, cb.Value), u.Makespan, nil
}
