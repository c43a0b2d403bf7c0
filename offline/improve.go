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
	if len(starts) != len(in.Messages) {
		return nil, fmt.Errorf("offline: %d starts for %d messages", len(starts), len(in.Messages))
	}
	c, err := NewColorer(in)
	if err != nil {
		return nil, err
	}
	for i, s := range starts {
		if s < 0 {
			return nil, fmt.Errorf("offline: message %q: start %d is negative", in.Messages[i].ID, s)
		}
		if got := c.Place(i, s); got != s {
			// The given schedule was not legal: message i conflicts at its start.
			c.Remove(i)
			return nil, errIllegal(in, i)
		}
	}
	order := make([]int, len(in.Messages))
	for i := range order {
		order[i] = i
	}
	delivery := func(i int) int { m := &in.Messages[i]; return c.Start(i) + len(m.Path) + m.L - 1 }
	span := makespan(in, starts)
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
		now := makespan(in, c.starts)
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
	best, bestBy := starts, ""
	bestSpan := makespan(in, starts)
	try := func(name string, s []int) error {
		s, err := Compact(in, s)
		if err != nil {
			return err
		}
		if ms := makespan(in, s); ms < bestSpan {
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
	ms := in.Measure()
	weight := make([]int, len(in.Messages))
	for i := range in.Messages {
		for _, e := range in.Messages[i].Path {
			weight[i] += ms.FlitLoad[e]
		}
	}
	loaded := make([]int, len(in.Messages))
	for i := range loaded {
		loaded[i] = i
	}
	slices.SortStableFunc(loaded, func(a, b int) int { return cmp.Compare(weight[b], weight[a]) })
	for _, cand := range []struct {
		name  string
		order []int
	}{
		{"merged", merged},
		{"longest", longestFirst(in)},
		{"loaded", loaded},
	} {
		s, err := Greedy(in, cand.order)
		if err != nil {
			return nil, "", err
		}
		if err := try(cand.name, s); err != nil {
			return nil, "", err
		}
	}
	return best, bestBy, nil
}

// errIllegal reports a schedule handed to Compact in which message i conflicts.
func errIllegal(in *model.Instance, i int) error {
	return fmt.Errorf("offline: message %q conflicts with another message at its start", in.Messages[i].ID)
}
