package online

// The phased algorithm: seed 002 (Ranade, Schleimer, Wilkerson), section 2.2, and its
// analysis in section 2.3 (Theorem 1, Lemmas 2 and 3).

import (
	"context"
	"flag"
	"fmt"
	"math"

	"github.com/wormlab/wormlab/measure"
	"github.com/wormlab/wormlab/model"
)

// DefaultAlpha is the phased algorithm's default colour factor (see doc.go).
const DefaultAlpha = 0.5

// PhasedParams returns, for colour factor alpha (0: DefaultAlpha), the path graph's
// degree Delta, the number of colours K = max(1, ceil(alpha Delta)), lambda =
// max(1, ceil(log2 Delta)) and the sub-phase length S = L lambda + d.
func PhasedParams(in *model.Instance, alpha float64) (delta, colours, lambda, sub int) {
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	delta, _ = measure.MaxDegree(in, in.Users())
	colours = max(1, satInt(math.Ceil(alpha*float64(delta))))
	lambda = max(1, ceilLog2(delta))
	ms := in.Measure()
	return delta, colours, lambda, ms.LMax*lambda + ms.D
}

// Phased is the phased algorithm with colour factor Alpha (0: DefaultAlpha).
type Phased struct {
	Alpha float64
}

var _ Algorithm = Phased{}

func init() {
	Register(&Entry{
		Name:    "phased",
		Summary: "random colours, one sub-phase of L lambda + d steps each, then greedy (seed 002, 2.2)",
		Params:  []string{"alpha"},
		Define: func(fs *flag.FlagSet) {
			defineFloat(fs, "alpha", "phased: ceil(alpha Delta) colours (0: 1/2)")
		},
		New: func(p Params) (Algorithm, error) {
			a := Phased{Alpha: param[float64](p, "alpha")}
			return a, positive("alpha", a.Alpha)
		},
	})
}

func (Phased) Name() string { return "phased" }

func (a Phased) Route(ctx context.Context, in *model.Instance, s *Setup, r *Result) error {
	if err := positive("alpha", a.Alpha); err != nil {
		return err
	}
	e, err := s.NewEngine(in)
	if err != nil {
		return err
	}
	rng := s.Rng
	n := len(in.Messages)
	info := &PhasedInfo{Alpha: a.Alpha, Colour: make([]int, n), PhaseOne: make([]bool, n)}
	if info.Alpha == 0 {
		info.Alpha = DefaultAlpha
	}
	r.Phased = info
	info.Delta, info.Colours, info.Lambda, info.SubPhase = PhasedParams(in, info.Alpha)
	if info.Colours > maxRounds {
		return fmt.Errorf("online: phased: ceil(alpha Delta) = %d colours: at most %d", info.Colours, maxRounds)
	}
	if err := fitsClock("phased: colours * S", info.Colours, info.SubPhase); err != nil {
		return err
	}
	byColour := make([][]int, info.Colours)
	for i := range in.Messages {
		c := rng.IntN(info.Colours)
		info.Colour[i] = c
		byColour[c] = append(byColour[c], i)
	}
	// Phase one: sub-phase c occupies the steps c S + 1 .. (c+1) S.
	for c, ws := range byColour {
		start := c * info.SubPhase
		for _, i := range ws {
			if err := e.Release(i, start); err != nil {
				return err
			}
		}
		if err := e.Run(ctx, start+info.SubPhase); err != nil {
			return err
		}
		for _, i := range ws {
			info.PhaseOne[i] = e.Delivered(i)
			e.Remove(i)
		}
	}
	info.PhaseOneEnd = info.Colours * info.SubPhase
	if err := e.Run(ctx, info.PhaseOneEnd); err != nil {
		return err
	}
	// Phase two: greedy on the undelivered worms.
	for i := range in.Messages {
		if !info.PhaseOne[i] {
			info.Undelivered++
			if err := e.Release(i, info.PhaseOneEnd); err != nil {
				return err
			}
		}
	}
	if err := e.Run(ctx, -1); err != nil {
		return err
	}
	finish(e, in, r)
	return nil
}
