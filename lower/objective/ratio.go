package objective

import (
	"context"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
)

// Ratio is an objective: Num / Den.
type Ratio struct {
	Name     string
	Num, Den Measure
}

var _ adversary.Objective = Ratio{}

// Score measures both sides; with floor > 0 it first bounds them (Estimator) and
// returns Below when even the largest ratio the bounds allow is under floor.
func (r Ratio) Score(ctx context.Context, in *model.Instance, floor float64) (adversary.Score, error) {
	m := NewMemo(in)
	if floor > 0 {
		_, nhi, err := estimate(ctx, r.Num, m, true)
		if err != nil {
			return adversary.Score{}, err
		}
		dlo, _, err := estimate(ctx, r.Den, m, false)
		if err != nil {
			return adversary.Score{}, err
		}
		if dlo > 0 && float64(nhi)/float64(dlo) < floor {
			return adversary.Score{Below: true,
				Num: adversary.Value{V: nhi, How: "upper bound"}, Den: adversary.Value{V: dlo, How: "lower bound"}}, nil
		}
	}
	num, err := r.Num.Measure(ctx, m, true)
	if err != nil {
		return adversary.Score{}, err
	}
	den, err := r.Den.Measure(ctx, m, false)
	if err != nil {
		return adversary.Score{}, err
	}
	sc := adversary.Score{Num: num.Value, Den: den.Value, Schedule: num.Schedule, Model: num.Model, Opt: num.Opt}
	if sc.Opt == nil {
		sc.Opt = den.Opt
	}
	return sc, nil
}

// estimate bounds a side: its Estimator's bounds, or its exact value.
func estimate(ctx context.Context, ms Measure, m *Memo, num bool) (lo, hi int, err error) {
	if e, ok := ms.(Estimator); ok {
		return e.Estimate(ctx, m)
	}
	s, err := ms.Measure(ctx, m, num)
	if err != nil {
		return 0, 0, err
	}
	return s.V, s.V, nil
}
