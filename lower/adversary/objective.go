package adversary

import (
	"context"

	"github.com/wormlab/wormlab/model"
)

// Value is one side of a ratio: the number, how it was obtained ("solver optimum
// (wormhole), proven by the aligned-clique bound", "greedy", "max(c_L, d + L - 1)"),
// and whether it is exactly what the side names (an optimum proven, a bound or a
// makespan computed); an inexact side is a conservative stand-in (a lower bound
// for an optimum in a numerator, a schedule's makespan in a denominator), so that
// an unfinished measurement can only understate a ratio.
type Value struct {
	V     int    `json:"value"`
	How   string `json:"how"`
	Exact bool   `json:"exact"`
}

// Optimum is a proven optimum behind a side of a ratio: its schedule and the lower
// bound that meets it, named as the solver names it (optimal.Stats.LowerSource:
// "aligned-clique", "edge", "edge-set", "unsat", ...), for a certificate.
type Optimum struct {
	Model    string
	Schedule *model.Schedule
	Source   string
}

// Score is an objective's measurement of one candidate.
type Score struct {
	Num, Den Value
	// Below means the objective proved the ratio below the floor it was given
	// without measuring it exactly; Num and Den are then the bounds that prove it
	// and the candidate is not to be kept.
	Below bool
	// Schedule is a legal schedule whose makespan is Num.V when the numerator is a
	// makespan (the result is verified against it before it is reported), in the
	// model Model.
	Schedule *model.Schedule
	Model    string
	// Opt is set when a side is an optimum proven optimal.
	Opt *Optimum
}

// Ratio is Num / Den (0 when Den is 0).
func (s Score) Ratio() float64 {
	if s.Den.V == 0 {
		return 0
	}
	return float64(s.Num.V) / float64(s.Den.V)
}

// Exact reports whether both sides are exact.
func (s Score) Exact() bool { return s.Num.Exact && s.Den.Exact }

// cmpRatio compares a.Num/a.Den with b.Num/b.Den exactly: -1, 0 or 1.
func cmpRatio(a, b Score) int {
	x, y := int64(a.Num.V)*int64(b.Den.V), int64(b.Num.V)*int64(a.Den.V)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Objective measures the ratio a search maximises. The consumer (this package)
// declares it; package lower/objective holds the implementations and their
// registry. Score may stop early and return Below when it proves the ratio is
// under floor (floor <= 0: measure exactly). An error means the candidate cannot
// be measured (a greedy run that deadlocks, say); the search skips it. Score must
// be safe for concurrent use by several chains.
type Objective interface {
	Score(ctx context.Context, in *model.Instance, floor float64) (Score, error)
}
