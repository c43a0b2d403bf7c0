package online

// Greedy: seed 002 (Ranade, Schleimer, Wilkerson), section 2.1: all worms start at
// once and move whenever they can.

import (
	"context"
	"flag"

	"github.com/wormlab/wormlab/model"
)

// Greedy releases every worm at time 0; it has no parameters.
type Greedy struct{}

var _ Algorithm = Greedy{}

func init() {
	Register(&Entry{
		Name:    "greedy",
		Summary: "every worm starts at once and moves whenever it can (seed 002, 2.1)",
		Define:  func(*flag.FlagSet) {},
		New:     func(Params) (Algorithm, error) { return Greedy{}, nil },
	})
}

func (Greedy) Name() string { return "greedy" }

func (Greedy) Route(ctx context.Context, in *model.Instance, s *Setup, r *Result) error {
	e, err := s.NewEngine(in)
	if err != nil {
		return err
	}
	for i := range in.Messages {
		if err := e.Release(i, 0); err != nil {
			return err
		}
	}
	if err := e.Run(ctx, -1); err != nil {
		return err
	}
	finish(e, in, r)
	return nil
}
