package deadlock

// Other configurations of as many worms, for a replay that failed: the decision
// reports one configuration with the fewest worms it can prove, and whether the
// simulator reaches it depends on where it lies (a mesh's corner, whose router is
// the only source for its links, is the hardest place: docs/deadlock.md, the
// replay). The formula of configurations with the counter at that many worms,
// with the links of each configuration found kept empty, gives others of the
// same size elsewhere in the network, so the same proof of minimality holds for
// each.

import (
	"context"
	"time"

	"github.com/go-air/gini/z"
)

// Alternatives calls try on up to n configurations of g other than c, with as
// many worms as c, until try reports true (then that configuration is returned)
// or deadline passes; nil when none was. Under Budget the formula may be refused
// (MemoryError).
func (v *Verdict) Alternatives(ctx context.Context, c *Config, n int, deadline time.Time, budget int64, try func(*Config) (bool, error)) (*Config, error) {
	g := c.g
	k := len(c.Worms)
	if budget > 0 {
		if need := estimate(g, v.Fix, c.Atomic, k); need > budget {
			return nil, &MemoryError{Need: need, Budget: budget, What: "the SAT formula of other configurations"}
		}
	}
	f := encode(g, v.Fix, c.Atomic, k)
	s := load(f)
	// a configuration is blocked with the links it holds: every node holding a
	// VC of one of them stays empty, so the next configuration lies elsewhere
	// (blocking the nodes alone gives the same cycle with other VCs)
	type link struct{ router, port int }
	block := func(c *Config) {
		held := map[link]bool{}
		for i := range c.Worms {
			for _, v := range c.VCs(i) {
				ch := g.Channel(v)
				held[link{ch.Router, ch.Port}] = true
			}
		}
		for m := range g.Nodes() {
			ch := g.Channel(g.held[m])
			if x := f.x[m]; x != 0 && held[link{ch.Router, ch.Port}] {
				s.Add(z.Dimacs2Lit(int(-x)))
				s.Add(0)
			}
		}
	}
	block(c)
	for range n {
		if time.Now().After(deadline) {
			return nil, nil
		}
		r, err := v.solveUntil(ctx, s, f.Bound(k), deadline)
		if err != nil || r <= 0 {
			return nil, err
		}
		alt, err := v.decode(f, s)
		if err != nil {
			return nil, err
		}
		ok, err := try(alt)
		if err != nil {
			return nil, err
		}
		if ok {
			return alt, nil
		}
		block(alt)
	}
	return nil, nil
}
