package online

// Store-and-forward: seed 000, section B.2, algorithm STORE.

import (
	"context"
	"flag"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// StoreForward routes store-and-forward (engine.Store): packet i leaves its source
// at x_i Unit with x_i uniform in [0, R - 1] (defaults R = 1, Unit = 1).
type StoreForward struct {
	R, Unit int
}

var _ Algorithm = StoreForward{}

func init() {
	Register(&Entry{
		Name:    "store",
		Summary: "store-and-forward packets with unbounded queues (seed 000, B.2, STORE)",
		Params:  []string{"R", "unit"},
		Define: func(fs *flag.FlagSet) {
			defineInt(fs, "R", "delayed-random, store: delays drawn from [0, R-1] (0: c for delayed-random, 1 for store)")
			defineInt(fs, "unit", "delayed-random, store: delays are multiplied by this (0: L for delayed-random, 1 for store)")
		},
		New: func(p Params) (Algorithm, error) {
			a := StoreForward{R: param[int](p, "R"), Unit: param[int](p, "unit")}
			return a, checkDelays(a.R, a.Unit)
		},
	})
}

func (StoreForward) Name() string { return "store" }

func (a StoreForward) Route(ctx context.Context, in *model.Instance, st *Setup, r *Result) error {
	if err := checkDelays(a.R, a.Unit); err != nil {
		return err
	}
	R, unit := max(1, a.R), max(1, a.Unit)
	rng := st.Rng
	if err := fitsClock("store: R * Unit", R, unit); err != nil {
		return err
	}
	rel := make([]int, len(in.Messages))
	for i := range rel {
		rel[i] = rng.IntN(R) * unit
	}
	sr, err := engine.Store(ctx, in, rel, st.engineConfig())
	if err != nil {
		return err
	}
	s := &model.Schedule{Model: StoreModel, Makespan: sr.Makespan, Messages: make([]model.Times, len(in.Messages))}
	for i := range in.Messages {
		s.Messages[i] = model.Times{ID: in.Messages[i].ID, Cross: sr.Hops[i]}
	}
	r.Schedule = s
	r.Delivered = sr.Delivered
	r.Counters = sr.Counters
	r.Steps = sr.Steps
	return nil
}
