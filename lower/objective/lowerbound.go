package objective

import (
	"context"
	"time"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
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

// AllBounds is the best of every lower bound wormlab computes, what wormlab lower
// bounds reports: lower.Best and, from it, the solver's edge-set bound
// (optimal.EdgeSetBound in the wormhole model, which bounds both models, within
// EdgeSetTime).
type AllBounds struct {
	EdgeSetTime time.Duration
}

var (
	_ Measure   = AllBounds{}
	_ Estimator = AllBounds{}
)

// Measure computes the bounds; it is exact (the bound, not the optimum).
func (a AllBounds) Measure(ctx context.Context, m *Memo, _ bool) (Side, error) {
	b := m.Best()
	v, _, err := optimal.EdgeSetBound(ctx, m.In, model.Wormhole, b.Value, a.EdgeSetTime)
	if err != nil {
		return Side{}, err
	}
	if v > b.Value {
		return Side{Value: adversary.Value{V: v, How: "lower bound edge-set", Exact: true}}, nil
	}
	return Side{Value: adversary.Value{V: b.Value, How: "lower bound " + b.Name, Exact: true}}, nil
}

// Estimate is LowerBound's: the edge-set bound is at most the optimum too.
func (AllBounds) Estimate(ctx context.Context, m *Memo) (int, int, error) {
	return LowerBound{}.Estimate(ctx, m)
}
