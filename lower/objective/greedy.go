package objective

import (
	"context"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/model"
)

// Greedy is the makespan of online greedy under message-order arbitration (seed
// 002, section 2: every worm advances whenever it can), on the flit-level engine.
type Greedy struct{}

var _ Measure = Greedy{}

// Measure runs greedy; it is exact, and its schedule is kept for verify.
func (Greedy) Measure(ctx context.Context, m *Memo, _ bool) (Side, error) {
	g, err := m.Greedy(ctx)
	if err != nil {
		return Side{}, err
	}
	return Side{Value: adversary.Value{V: g.Makespan, How: "greedy", Exact: true}, Schedule: g.Schedule, Model: model.Wormhole}, nil
}
