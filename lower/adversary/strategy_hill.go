package adversary

// Hill climbing with restarts. From the current candidate, a neighbour is kept
// when its ratio is higher, or equal and ranked at least as high by the Ranking (a
// plateau walk); neighbours whose ratio the objective proves lower are rejected
// without an exact measurement (the floor is the current ratio). After Patience
// moves without a higher ratio the chain restarts: half of the time from the best
// of all chains perturbed by 1..Kick moves, a quarter from the search's start, a
// quarter from a random set.

// Hill is the hill-climbing strategy.
type Hill struct {
	Patience, Kick int
}

func init() {
	registerStrategy(Hill{Patience: 1500, Kick: 6},
		"hill climbing with plateau walks and restarts (from the shared best, the start or a random set)")
}

// Name is "hill".
func (Hill) Name() string { return "hill" }

// Run climbs until the chain is done.
func (h Hill) Run(c *Chain) {
	cur := evaluateStart(c, c.Start())
	stall := 0
	for !c.Done() {
		if stall >= h.Patience {
			stall = 0
			var from *Set
			switch x := c.R.IntN(4); {
			case x < 2 && c.Shared().Valid():
				from = c.Perturb(c.Shared().Set, 1+c.R.IntN(h.Kick))
			case x == 2:
				from = c.Start()
			default:
				from = c.Random()
			}
			if cand, ok := c.Evaluate(from, 0); ok {
				cur = cand
			}
			continue
		}
		stall++
		nb, ok := c.Neighbour(cur.Set)
		if !ok {
			continue
		}
		cand, ok := c.Evaluate(nb, cur.Ratio())
		if !ok || !cand.Valid() {
			continue
		}
		switch cmp := cmpRatio(cand.Score, cur.Score); {
		case !cur.Valid() || cmp > 0:
			cur, stall = cand, 0
		case cmp == 0 && cand.Guide.cmp(cur.Guide) >= 0:
			cur = cand
		}
	}
}
