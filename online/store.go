package online

// Store-and-forward: seed 000, section B.2, algorithm STORE.

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

func runStore(ctx context.Context, in *model.Instance, cfg Config, rng *rand.Rand, r *Result) error {
	if cfg.R < 0 || cfg.Unit < 0 {
		return fmt.Errorf("online: parameters R and Unit must not be negative")
	}
	R, unit := max(1, cfg.R), max(1, cfg.Unit)
	if err := fitsClock("store: R * Unit", R, unit); err != nil {
		return err
	}
	rel := make([]int, len(in.Messages))
	for i := range rel {
		rel[i] = rng.IntN(R) * unit
	}
	sr, err := engine.Store(ctx, in, rel, engine.Config{Arb: cfg.Arb, Seed: cfg.Seed, RecordSteps: cfg.RecordSteps})
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
