package objective

// The theorems' own upper bounds as denominators, from the functions that state
// them (packages online and offline): a ratio near 1 is an instance on which the
// theorem is tight, one above 1 an instance the theorem does not cover (a bound
// that holds only with high probability, or a formula taken outside its
// hypotheses).

import (
	"context"
	"fmt"

	"github.com/wormlab/wormlab/lower/adversary"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/online"
)

// TheoremBound is a denominator computed by a theorem's bound function; an
// instance outside the theorem's setting cannot be measured (an error: the search
// skips it).
type TheoremBound struct {
	Name  string
	Bound func(m *Memo) (int, error)
}

var _ Measure = TheoremBound{}

// Measure computes the bound; it is exact.
func (t TheoremBound) Measure(_ context.Context, m *Memo, _ bool) (Side, error) {
	v, err := t.Bound(m)
	if err != nil {
		return Side{}, err
	}
	return Side{Value: adversary.Value{V: v, How: t.Name, Exact: true}}, nil
}

// The theorems.
var (
	// Lemma1 is seed 002's Lemma 1, d + sum_C L over the largest path-graph
	// component C (online.GreedyBound): greedy on a levelled network with every
	// path from level 0 to the last level.
	Lemma1 = TheoremBound{"Lemma 1 (seed 002): d + sum over a component of L", func(m *Memo) (int, error) {
		b, err := online.GreedyBound(m.In)
		if err != nil {
			return 0, err
		}
		return b.Bound, nil
	}}
	// Theorem1 is seed 002's Theorem 1 as its proof states it (online.PhasedBound)
	// at the phased algorithm's default colour factor; the theorem's own alpha is
	// 128^2, at which the bound holds with probability 1 - 1/N.
	Theorem1 = TheoremBound{fmt.Sprintf("Theorem 1 (seed 002) at alpha %v: K S + d + (U0 - 1) L", online.DefaultAlpha), func(m *Memo) (int, error) {
		b, err := online.PhasedBound(m.In, online.DefaultAlpha, 0)
		if err != nil {
			return 0, err
		}
		return b.Bound, nil
	}}
	// Theorem4 is seed 000's Theorem 4, P T (online.AlgorithmABound) at the
	// defaults (k = 32e, T = 2d + 2 L ceil(log2 n)): Algorithm A's makespan when
	// every worm is delivered in its phase.
	Theorem4 = TheoremBound{"Theorem 4 (seed 000): P T", func(m *Memo) (int, error) {
		b, err := online.AlgorithmABound(m.In, online.AlgorithmA{})
		if err != nil {
			return 0, err
		}
		return b.Bound, nil
	}}
	// ColorerPlan is the bound the colorer's plan proves (offline.ColorerBound in
	// the order Colorer uses, "auto": section 4's (2L - 1) k (c - 1) + d + L - 1 per
	// part).
	ColorerPlan = TheoremBound{"the colorer's proven bound (seed 002, section 4)", func(m *Memo) (int, error) {
		return offline.ColorerBound(m.In, "auto")
	}}
)
