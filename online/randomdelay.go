package online

// Random delays: seed 000 (Greenberg, Oh), section B.2, the plain random-delay
// variant of delayed greedy used in the simulations (WORM).

import (
	"context"
	"flag"
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// RandomDelay releases worm i at x_i Unit with x_i uniform in [0, R - 1], then routes
// greedily (defaults R = c, Unit = L).
type RandomDelay struct {
	R, Unit int
}

var _ Algorithm = RandomDelay{}

func init() {
	Register(&Entry{
		Name:    "delayed-random",
		Summary: "random delays x Unit, x uniform in [0, R-1], then greedy (seed 000, B.2)",
		Params:  []string{"R", "unit"},
		Define: func(fs *flag.FlagSet) {
			defineInt(fs, "R", "delayed-random, store: delays drawn from [0, R-1] (0: c for delayed-random, 1 for store)")
			defineInt(fs, "unit", "delayed-random, store: delays are multiplied by this (0: L for delayed-random, 1 for store)")
		},
		New: func(p Params) (Algorithm, error) {
			a := RandomDelay{R: param[int](p, "R"), Unit: param[int](p, "unit")}
			return a, checkDelays(a.R, a.Unit)
		},
	})
}

func (RandomDelay) Name() string { return "delayed-random" }

func checkDelays(r, unit int) error {
	if r < 0 || unit < 0 {
		return fmt.Errorf("online: parameters R and Unit must not be negative")
	}
	return nil
}

func (a RandomDelay) Route(ctx context.Context, in *model.Instance, s *Setup, r *Result) error {
	if err := checkDelays(a.R, a.Unit); err != nil {
		return err
	}
	e, err := s.NewEngine(in)
	if err != nil {
		return err
	}
	ms := in.Measure()
	info := &DelayedInfo{Variant: DelayRandom, Delay: make([]int, len(in.Messages)), Rounds: 1, R: a.R, Unit: a.Unit}
	r.Delayed = info
	if info.R == 0 {
		info.R = max(1, ms.C)
	}
	if info.Unit == 0 {
		info.Unit = max(1, ms.LMax)
	}
	if err := fitsClock("delayed-random: R * Unit", info.R, info.Unit); err != nil {
		return err
	}
	for i := range in.Messages {
		info.Delay[i] = s.Rng.IntN(info.R)
		if err := e.Release(i, info.Delay[i]*info.Unit); err != nil {
			return err
		}
	}
	if err := e.Run(ctx, -1); err != nil {
		return err
	}
	finish(e, in, r)
	return nil
}
