package objective

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/online"
)

// Online is the makespan of a randomised online algorithm of package online (the
// phased algorithm, Algorithm A) in one run with seed Seed, so that the measure is
// deterministic: the ratio to the algorithm's theorem is the ratio of that run.
type Online struct {
	Algo online.Algorithm
	Seed uint64
}

var _ Measure = Online{}

// Measure runs the algorithm; it is exact, and its schedule is kept for verify.
func (o Online) Measure(ctx context.Context, m *Memo, _ bool) (Side, error) {
	res, err := online.Run(ctx, m.In, o.Algo, online.Options{Seed: o.Seed})
	if err != nil {
		return Side{}, fmt.Errorf("%s: %w", o.Algo.Name(), err)
	}
	return Side{Value: adversary.Value{V: res.Makespan, How: fmt.Sprintf("%s (seed %d)", o.Algo.Name(), o.Seed), Exact: true},
		Schedule: res.Schedule, Model: model.Wormhole}, nil
}
