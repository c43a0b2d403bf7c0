package adversary

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// Candidate is a measured set: the set, its score, and the Guide that breaks ties
// between equal ratios (the search's Ranking gives it).
type Candidate struct {
	Set   *Set
	Score Score
	Guide Guide
}

// Valid reports whether c holds a measured set.
func (c Candidate) Valid() bool { return c.Set != nil && !c.Score.Below }

// Ratio is the candidate's ratio (0 for no candidate).
func (c Candidate) Ratio() float64 {
	if !c.Valid() {
		return 0
	}
	return c.Score.Ratio()
}

// Better reports whether a is strictly better than b: a higher ratio (compared
// exactly), or the same ratio and a higher guide. Any candidate beats none.
func Better(a, b Candidate) bool {
	if !a.Valid() {
		return false
	}
	if !b.Valid() {
		return true
	}
	if c := cmpRatio(a.Score, b.Score); c != 0 {
		return c > 0
	}
	return a.Guide.cmp(b.Guide) > 0
}

// Chain is one independent search: its random source, counters and best, and the
// best of all chains as of the last synchronisation. A Strategy drives it through
// Neighbour, Evaluate and Done; a chain is used by one goroutine.
type Chain struct {
	// ID numbers the chains 0 .. workers-1; R is the chain's random source, seeded
	// from the search's seed and ID.
	ID int
	R  *rand.Rand

	e      *engine
	moves  int
	evals  int
	failed int
	first  string
	best   Candidate
	shared Candidate
	done   bool
	traced time.Time // the last sync row traced
}

// Space is the search space.
func (c *Chain) Space() *Space { return c.e.cfg.Space }

// Done reports whether the chain must stop: its move limit reached, the stop
// ratio reached (by it or, as of the last synchronisation, by another chain), the
// time or CPU budget spent, or the search cancelled. Strategies check it every step.
func (c *Chain) Done() bool {
	if c.done {
		return true
	}
	cfg := &c.e.cfg
	switch {
	case cfg.Iterations > 0 && c.moves >= cfg.Iterations,
		cfg.Stop > 0 && (c.best.Ratio() >= cfg.Stop || c.shared.Ratio() >= cfg.Stop),
		c.e.ctx.Err() != nil,
		cfg.CPU > 0 && processCPU()-c.e.cpu0 >= cfg.CPU:
		c.done = true
	}
	return c.done
}

// Start returns the search's start set (Config.Start), or a random one of
// Config.Messages worms when there is none.
func (c *Chain) Start() *Set {
	if c.e.cfg.Start != nil {
		return c.e.cfg.Start
	}
	return c.Random()
}

// Random returns a random set of Config.Messages worms (the start's size when a
// start is given) that the space admits; when 100 draws find none (a kept measure
// random sets rarely have), the start perturbed by a few moves, or the start.
func (c *Chain) Random() *Set {
	n := c.e.cfg.Messages
	start := c.e.cfg.Start
	if start != nil {
		n = len(start.Worms)
	}
	for range 100 {
		s, err := c.Space().RandomSet(n, c.R)
		if err != nil {
			break // checked at the search's start: cannot happen
		}
		if c.Space().Admit(s) {
			return s
		}
	}
	if start == nil {
		s, _ := c.Space().RandomSet(n, c.R)
		return s
	}
	return c.Perturb(start, 1+c.R.IntN(6))
}

// Neighbour counts one move and returns a neighbour of s drawn from the move mix,
// admitted by the space; false when no move applied or the neighbour is not
// admitted. Every Config.SyncEvery moves the chain synchronises with the others.
func (c *Chain) Neighbour(s *Set) (*Set, bool) {
	c.CountMove()
	t, _, ok := c.e.cfg.Mix.Neighbour(c.Space(), s, c.R)
	if !ok || !c.Space().Admit(t) {
		return nil, false
	}
	return t, true
}

// CountMove counts a move a strategy made itself (a crossover, say), and
// synchronises with the other chains every Config.SyncEvery moves.
func (c *Chain) CountMove() {
	c.moves++
	if c.moves%c.e.syncEvery == 0 {
		c.shared = c.e.hub.sync(c.ID, c.best)
		c.e.traceRow(c, "sync")
	}
}

// Perturb applies k moves to s (each admitted), counting them.
func (c *Chain) Perturb(s *Set, k int) *Set {
	for range k {
		if c.Done() {
			break
		}
		if t, ok := c.Neighbour(s); ok {
			s = t
		}
	}
	return s
}

// Shared is the best candidate of all chains as of the last synchronisation
// (invalid before the first).
func (c *Chain) Shared() Candidate { return c.shared }

// Best is the chain's own best candidate.
func (c *Chain) Best() Candidate { return c.best }

// Evaluate measures s, with floor passed to the objective (ratios below it may
// come back Below). It keeps the chain's best. False when s is outside the space
// or cannot be measured (the failure is counted) or the search was cancelled during the measurement
// (then the chain is done and nothing measured is kept).
func (c *Chain) Evaluate(s *Set, floor float64) (Candidate, bool) {
	if !c.Space().Admit(s) {
		if c.failed == 0 {
			c.first = "a candidate outside the search space (worm count, lengths or a kept measure)"
		}
		c.failed++
		return Candidate{}, false
	}
	c.evals++
	in := c.Space().Instance(c.e.cfg.Name, s)
	sc, err := c.e.cfg.Objective.Score(c.e.ctx, in, floor)
	if c.e.ctx.Err() != nil {
		c.done = true
		return Candidate{}, false
	}
	if err != nil {
		if c.failed == 0 {
			c.first = err.Error()
		}
		c.failed++
		return Candidate{}, false
	}
	if sc.Den.V < 1 {
		if c.failed == 0 {
			c.first = fmt.Sprintf("denominator %d (%s) is below 1", sc.Den.V, sc.Den.How)
		}
		c.failed++
		return Candidate{}, false
	}
	cand := Candidate{Set: s, Score: sc}
	if !sc.Below {
		cand.Guide = c.e.cfg.Ranking.Rank(c.Space(), s)
		if Better(cand, c.best) {
			c.best = cand
			c.e.traceRow(c, "improved")
		}
	}
	return cand, true
}
