package objective

import (
	"context"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
)

// Side is a measured side of a ratio: the value, and the schedule behind it when
// it is a makespan (with its model), and the optimum's proof when it is one.
type Side struct {
	adversary.Value
	Schedule *model.Schedule
	Model    string
	Opt      *adversary.Optimum
}

// Measure measures one side of a ratio. num says whether it is the numerator,
// which decides the conservative stand-in of an unfinished measurement (see the
// package doc). memo caches what both sides and the screening share.
type Measure interface {
	Measure(ctx context.Context, m *Memo, num bool) (Side, error)
}

// Estimator is a Measure that can bound its value cheaply: lo <= value <= hi.
type Estimator interface {
	Estimate(ctx context.Context, m *Memo) (lo, hi int, err error)
}
