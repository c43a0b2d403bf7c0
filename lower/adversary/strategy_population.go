package adversary

import "slices"

// A steady-state population search. Size members start from the search's start
// (the first) and random sets; each step picks a parent by a tournament of two,
// makes a child by 1..3 moves or, a fifth of the time, by crossover (a random half
// of the parent's worms with a random half of another member's), and replaces the
// worst member when the child beats it (the floor given to the objective is the
// worst member's ratio). At each synchronisation the best of all chains replaces
// the worst member when it beats it (migration).

// Population is the population strategy.
type Population struct {
	Size int
}

func init() {
	registerStrategy(Population{Size: 12},
		"a steady-state population of 12: tournament parents, mutation by moves or crossover of worm sets, the worst replaced")
}

// Name is "population".
func (Population) Name() string { return "population" }

// Run evolves the population until the chain is done.
func (p Population) Run(c *Chain) {
	var pop []Candidate
	for len(pop) < p.Size && !c.Done() {
		s := c.Start()
		if len(pop) > 0 {
			s = c.Random()
			if c.e.cfg.Start != nil && c.R.IntN(2) == 0 {
				s = c.Perturb(c.e.cfg.Start, 1+c.R.IntN(6))
			}
		}
		if cand := evaluateStart(c, s); cand.Valid() {
			pop = append(pop, cand)
		}
	}
	if len(pop) == 0 {
		return
	}
	worst := func() int {
		w := 0
		for i := range pop {
			if Better(pop[w], pop[i]) {
				w = i
			}
		}
		return w
	}
	lastShared := Candidate{}
	for !c.Done() {
		if sh := c.Shared(); sh.Valid() && sh.Set != lastShared.Set {
			lastShared = sh
			if w := worst(); Better(sh, pop[w]) && !slices.ContainsFunc(pop, func(x Candidate) bool { return x.Set == sh.Set }) {
				pop[w] = sh
			}
		}
		a, b := pop[c.R.IntN(len(pop))], pop[c.R.IntN(len(pop))]
		parent := a
		if Better(b, a) {
			parent = b
		}
		var child *Set
		if c.R.IntN(5) == 0 && len(pop) > 1 {
			other := pop[c.R.IntN(len(pop))]
			child = crossover(c, parent.Set, other.Set)
			c.CountMove()
			if !c.Space().Admit(child) {
				continue
			}
		} else {
			child = parent.Set
			for k := 1 + c.R.IntN(3); k > 0 && !c.Done(); k-- {
				if t, ok := c.Neighbour(child); ok {
					child = t
				}
			}
			if child == parent.Set {
				continue
			}
		}
		w := worst()
		cand, ok := c.Evaluate(child, pop[w].Ratio())
		if ok && Better(cand, pop[w]) {
			pop[w] = cand
		}
	}
}

// crossover takes each worm of a and of b with probability 1/2, keeping the order
// (a's first), and at least one worm.
func crossover(c *Chain, a, b *Set) *Set {
	t := &Set{}
	for _, s := range []*Set{a, b} {
		for _, w := range s.Worms {
			if c.R.IntN(2) == 0 {
				t.Worms = append(t.Worms, w)
			}
		}
	}
	if len(t.Worms) == 0 {
		t.Worms = append(t.Worms, a.Worms[c.R.IntN(len(a.Worms))])
	}
	return t
}
