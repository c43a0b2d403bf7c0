package objective

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/online"
)

// Memo holds what the measures of one candidate share, computed at most once: its
// measures, model.LowerBound, lower.Best and the online greedy run. One Memo
// serves one candidate on one goroutine.
type Memo struct {
	In *model.Instance

	ms       *model.Measures
	lb       *model.Bound
	best     *model.Bound
	greedy   *online.Result
	greedyOK bool
	greedyE  error
	upper    map[string]*model.Schedule
	colour   []int
	cb       *model.Bound
}

// NewMemo returns an empty memo for in.
func NewMemo(in *model.Instance) *Memo { return &Memo{In: in} }

// Measures returns the instance's congestion and dilation figures.
func (m *Memo) Measures() *model.Measures {
	if m.ms == nil {
		ms := m.In.Measure()
		m.ms = &ms
	}
	return m.ms
}

// LowerBound is the model's best closed-form bound (dilation, c_L, the edge bound).
func (m *Memo) LowerBound() model.Bound {
	if m.lb == nil {
		b := m.In.LowerBound()
		m.lb = &b
	}
	return *m.lb
}

// Best is lower.Best: the largest bound of the model and of package lower.
func (m *Memo) Best() model.Bound {
	if m.best == nil {
		b := lower.Best(m.In)
		m.best = &b
	}
	return *m.best
}

// Greedy is the online greedy run under message-order arbitration.
func (m *Memo) Greedy(ctx context.Context) (*online.Result, error) {
	if !m.greedyOK {
		m.greedy, m.greedyE = online.Run(ctx, m.In, online.Greedy{}, online.Options{})
		if m.greedyE != nil {
			m.greedyE = fmt.Errorf("greedy: %w", m.greedyE)
		}
		m.greedyOK = true
	}
	return m.greedy, m.greedyE
}

// Upper is a legal schedule in the model (model.Wormhole or model.Bufferless), an
// upper bound on its optimum: online greedy in the wormhole model or, in the
// bufferless model or where greedy deadlocks (a cycle of worms waiting for each
// other), the offline greedy colouring in input order (seed 002, section 4.2),
// which never waits.
func (m *Memo) Upper(ctx context.Context, modelName string) (*model.Schedule, error) {
	if s, ok := m.upper[modelName]; ok {
		return s, nil
	}
	if m.upper == nil {
		m.upper = map[string]*model.Schedule{}
	}
	if modelName == model.Wormhole {
		if g, err := m.Greedy(ctx); err == nil {
			m.upper[modelName] = g.Schedule
			return g.Schedule, nil
		}
	}
	order := make([]int, len(m.In.Messages))
	for i := range order {
		order[i] = i
	}
	starts, err := offline.Greedy(m.In, order)
	if err != nil {
		return nil, err
	}
	s := model.FromStarts(m.In, starts)
	m.upper[modelName] = s
	return s, nil
}

// Colouring is lower.ColouringBound within lower.DefaultBudget: the
// aligned-colouring bound and the colouring found.
func (m *Memo) Colouring() (model.Bound, []int) {
	if m.cb == nil {
		b, c := lower.ColouringBound(m.In, lower.DefaultBudget)
		m.cb, m.colour = &b, c
	}
	return *m.cb, m.colour
}
