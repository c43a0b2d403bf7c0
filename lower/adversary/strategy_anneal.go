package adversary

import "math"

// Simulated annealing. The energy is the ratio; a neighbour of ratio x is kept
// when x > current + T ln u for u uniform in (0, 1) (Metropolis: a drop of D is
// accepted with probability exp(-D / T)), and on an exact tie when the Ranking
// ranks it at least as high. The threshold is drawn before the measurement and
// given to the objective as its floor, so a neighbour that falls below it needs
// no exact measurement.
//
// Schedule: cycles of Cycle moves; within a cycle, after k moves,
//
//	T(k) = T0 * (T1 / T0)^(k / Cycle)   (geometric cooling)
//
// with T0 and T1 relative to the chain's best ratio r (T0 = 0.03 r, T1 = 0.0005 r:
// at the start a drop of 3% of the ratio is kept with probability 1/e, at the end
// one of 0.05%). Each new cycle (a reheat) starts from the best of all chains
// when it beats the chain's current candidate, else from the current one.

// Anneal is the simulated-annealing strategy.
type Anneal struct {
	Cycle  int
	T0, T1 float64
}

func init() {
	registerStrategy(Anneal{Cycle: 4000, T0: 0.03, T1: 0.0005},
		"simulated annealing, geometric cooling from 3% to 0.05% of the best ratio over 4000 moves, then a reheat")
}

// Name is "anneal".
func (Anneal) Name() string { return "anneal" }

// Run anneals until the chain is done.
func (a Anneal) Run(c *Chain) {
	cur := evaluateStart(c, c.Start())
	k := 0
	for !c.Done() {
		if k == a.Cycle {
			k = 0
			if Better(c.Shared(), cur) {
				cur = c.Shared()
			}
		}
		r := max(c.Best().Ratio(), cur.Ratio(), 1e-9)
		t := r * a.T0 * math.Pow(a.T1/a.T0, float64(k)/float64(a.Cycle))
		k++
		nb, ok := c.Neighbour(cur.Set)
		if !ok {
			continue
		}
		threshold := cur.Ratio() + t*math.Log(1-c.R.Float64())
		cand, ok := c.Evaluate(nb, threshold)
		if !ok || !cand.Valid() {
			continue
		}
		switch cmp := cmpRatio(cand.Score, cur.Score); {
		case !cur.Valid():
			cur = cand
		case cmp == 0:
			if cand.Guide.cmp(cur.Guide) >= 0 {
				cur = cand
			}
		case cand.Ratio() > threshold:
			cur = cand
		}
	}
}
