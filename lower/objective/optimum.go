package objective

import (
	"context"
	"fmt"
	"time"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// Optimum is the least makespan of the instance in Model (wormhole or
// bufferless), proven: a schedule whose makespan meets a lower bound. It tries,
// cheapest first: (1) a legal schedule (Memo.Upper) against model.LowerBound;
// (2) the aligned-colouring bound and the phase schedule of its colouring
// (lower.ColouringBound, lower.PhaseSchedule: on a levelled network whose worms
// end on one level and have L >= d the phase schedule meets the bound, so the
// optimum of instances like seed 002, section 5's costs no SAT call); (3)
// optimal.Solve within Timeout; (4) lower.Best, whose disjunctive search may prove
// what the solver could not. The schedule behind the value is kept (it is
// verified before a result is reported) and the bound that proves it is named in
// Opt.Source.
type Optimum struct {
	Model   string
	Timeout time.Duration
}

var (
	_ Measure   = Optimum{}
	_ Estimator = Optimum{}
)

// Estimate bounds the optimum by model.LowerBound, the aligned-colouring bound
// and a legal schedule.
func (o Optimum) Estimate(ctx context.Context, m *Memo) (int, int, error) {
	u, err := m.Upper(ctx, o.Model)
	if err != nil {
		return 0, 0, err
	}
	cb, _ := m.Colouring()
	return max(m.LowerBound().Value, cb.Value), u.Makespan, nil
}

// Measure proves the optimum when it can within Timeout; otherwise it returns the
// conservative side (num: the best lower bound; denominator: the best makespan),
// not exact.
func (o Optimum) Measure(ctx context.Context, m *Memo, num bool) (Side, error) {
	u, err := m.Upper(ctx, o.Model)
	if err != nil {
		return Side{}, err
	}
	proven := func(s *model.Schedule, source string) Side {
		return Side{Value: adversary.Value{V: s.Makespan, Exact: true,
			How: fmt.Sprintf("optimum (%s), proven by the %s bound", o.Model, source)},
			Schedule: s, Model: o.Model, Opt: &adversary.Optimum{Model: o.Model, Schedule: s, Source: source}}
	}
	lb := m.LowerBound()
	if u.Makespan <= lb.Value {
		return proven(u, lb.Name), nil
	}
	cb, colour := m.Colouring()
	if cb.Value > lb.Value {
		lb = cb
	}
	if u.Makespan <= lb.Value {
		return proven(u, lb.Name), nil
	}
	if p, err := lower.PhaseSchedule(m.In, colour); err == nil {
		p.Model = o.Model
		if p.Makespan <= lb.Value {
			return proven(p, lb.Name), nil
		}
		if p.Makespan < u.Makespan {
			u = p
		}
	}
	sctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	opt := optimal.Options{Model: o.Model, Upper: u}
	res, err := optimal.Solve(sctx, m.In, opt)
	if err != nil {
		return Side{}, err
	}
	if res.Optimal {
		return proven(res.Schedule, res.Stats.LowerSource), nil
	}
	bound := max(res.Lower, lb.Value)
	if res.Schedule.Makespan > bound {
		if best := m.Best(); best.Value > bound {
			lb, bound = best, best.Value
		}
	}
	if res.Schedule.Makespan <= bound {
		return proven(res.Schedule, lb.Name), nil
	}
	if num {
		return Side{Value: adversary.Value{V: bound,
			How: fmt.Sprintf("lower bound on the optimum (%s; not proven within %v: between %d and %d)", o.Model, o.Timeout, bound, res.Schedule.Makespan)}}, nil
	}
	return Side{Value: adversary.Value{V: res.Schedule.Makespan,
		How: fmt.Sprintf("best schedule (%s; optimum not proven within %v: at least %d)", o.Model, o.Timeout, bound)},
		Schedule: res.Schedule, Model: o.Model}, nil
}
