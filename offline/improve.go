package offline

// The improvement pass: beyond the paper. It keeps the schedules bufferless and
// never returns one longer than it was given, so the bound proved for the
// construction (Lemma 6, section 4.5) still holds for the result.

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// compactRounds bounds the rounds of Compact; each round moves every message to its
// earliest conflict-free start, latest deliveries first, and the rounds stop early
// once nothing moves or, after the first, once a round leaves the makespan as it
// was.
const compactRounds = 8

// Compact takes a legal bufferless schedule (starts indexed like in.Messages) and
// repeatedly moves each message, latest delivery first, to its earliest start that
// conflicts with no other message. A start never grows, so neither does the
// makespan. It returns the new starts.
func Compact(in *model.Instance, starts []int) ([]int, error) {
	return compact(model.PathsOf(in), starts)
}

func compact(ps *model.Paths, starts []int) ([]int, error) {
	if len(starts) != ps.Len() {
		return nil, fmt.Errorf("offline: %d starts for %d messages", len(starts), ps.Len())
	}
	c, err := newColorer(ps)
	if err != nil {
		return nil, err
	}
	for i, s := range starts {
		if s < 0 {
			return nil, fmt.Errorf("offline: message %q: start %d is negative", ps.ID(i), s)
		}
		if got := c.Place(i, s); got != s {
			// The given schedule was not legal: message i conflicts at its start.
			c.Remove(i)
			return nil, fmt.Errorf("offline: message %q conflicts with another message at its start", ps.ID(i))
		}
	}
	order := make([]int, ps.Len())
	for i := range order {
		order[i] = i
	}
	delivery := func(i int) int { return c.Start(i) + ps.D(i) + ps.L[i] - 1 }
	span := makespanPaths(ps, starts)
	for round := range compactRounds {
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(delivery(b), delivery(a)) })
		moved := false
		for _, i := range order {
			old := c.Start(i)
			if old == 0 {
				continue // nothing is earlier
			}
			c.Remove(i)
			if c.Place(i, 0) != old {
				moved = true
			}
		}
		now := makespanPaths(ps, c.starts)
		if !moved || (round > 0 && now == span) {
			break
		}
		span = now
	}
	return c.Starts(), nil
}

// Improve returns a schedule no longer than the given one (starts, built from
// plan), and the name of the candidate that won ("" when none beat the given one):
// the given schedule compacted ("compact"), and the greedy colouring over other
// orders, each compacted: the plan's parts run as one order without waiting for
// each other ("merged"), longest messages first ("longest"), and the messages whose
// paths carry most load first ("loaded"). Ties keep the earlier candidate.
func Improve(in *model.Instance, plan *Plan, starts []int) ([]int, string, error) {
	return improve(model.PathsOf(in), plan, starts)
}

func improve(ps *model.Paths, plan *Plan, starts []int) ([]int, string, error) {
	best, bestBy := starts, ""
	bestSpan := makespanPaths(ps, starts)
	try := func(name string, s []int) error {
		s, err := compact(ps, s)
		if err != nil {
			return err
		}
		if ms := makespanPaths(ps, s); ms < bestSpan {
			best, bestBy, bestSpan = s, name, ms
		}
		return nil
	}
	if err := try("compact", starts); err != nil {
		return nil, "", err
	}
	var merged []int
	for _, part := range plan.Parts {
		merged = append(merged, part...)
	}
	ms := ps.Measure()
	weight := make([]int, ps.Len())
	for i := range weight {
		for _, e := range ps.Path(i) {
			weight[i] += ms.FlitLoad[e]
		}
	}
	loaded := make([]int, ps.Len())
	for i := range loaded {
		loaded[i] = i
	}
	slices.SortStableFunc(loaded, func(a, b int) int { return cmp.Compare(weight[b], weight[a]) })
	for _, cand := range []struct {
		name  string
		order []int
	}{
		{"merged", merged},
		{"longest", longestFirst(ps)},
		{"loaded", loaded},
	} {
		s, err := greedy(ps, cand.order)
		if err != nil {
			return nil, "", err
		}
		if err := try(cand.name, s); err != nil {
			return nil, "", err
		}
	}
	return best, bestBy, nil
}
