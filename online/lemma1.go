package online

// The greedy algorithm's own bound: seed 002 (Ranade, Schleimer, Wilkerson), section
// 2.1, Lemma 1.

import (
	"errors"
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// ErrNotLevelled is wrapped by the bound functions of seed 002, section 2 (GreedyBound,
// PhasedBound) when the instance is not in their setting: a d-levelled network with
// every path running from level 0 to level d.
var ErrNotLevelled = errors.New("not every path runs from level 0 to the last level of a levelled network")

// ComponentBound is Lemma 1's bound for one connected component C of the path graph:
// its worms (message indices, increasing) and d + sum_{i in C} L_i.
type ComponentBound struct {
	Worms []int
	Bound int
}

// Lemma1 is seed 002's Lemma 1 for an instance: on a d-levelled network with every
// path from level 0 to level d, greedy delivers every worm of a path-graph component
// C by time d + |C| L, whatever the arbitration. The proof counts the flits of C (one
// reaches level d in every step from step d on), so with worms of different lengths
// the bound is d + sum_{i in C} L_i, which is the paper's d + |C| L when all worms
// have L flits.
type Lemma1 struct {
	// D is the network's last level d (every path's length).
	D int
	// Components lists every component of the path graph with its bound, largest
	// component first (model.PathGraph.Components' order).
	Components []ComponentBound
	// Bound is the largest component bound: greedy's makespan is at most Bound.
	Bound int
}

// GreedyBound returns Lemma 1 of seed 002 for in, or an error wrapping
// ErrNotLevelled outside the lemma's setting. Cost O(sum_e c_e^2) (the path graph).
func GreedyBound(in *model.Instance) (*Lemma1, error) {
	d, ok := fullDepth(in)
	if !ok {
		return nil, fmt.Errorf("online: Lemma 1: %w", ErrNotLevelled)
	}
	b := &Lemma1{D: d}
	for _, c := range in.PathGraph().Components() {
		s := d
		for _, i := range c {
			s += in.Messages[i].L
		}
		b.Components = append(b.Components, ComponentBound{Worms: c, Bound: s})
		b.Bound = max(b.Bound, s)
	}
	return b, nil
}
