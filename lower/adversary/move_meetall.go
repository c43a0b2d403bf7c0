package adversary

import "math/rand/v2"

// meetAll re-routes one worm (between its endpoints, or half of the time between
// new ones) so that it meets every other worm, by a depth-first search on edges
// whose load is below the congestion c (at least 2), so c does not rise; it fails
// when the router finds no such path. Applied to a set whose worms pairwise meet, it
// keeps them pairwise meeting (only the pairs of the moved worm change); applied to
// any set, it raises the moved worm's degree in the path graph to the most.
type meetAll struct{}

func init() {
	registerMove(meetAll{}, 3, "re-route a worm so that it meets every other worm (keeps all pairs meeting)")
}

func (meetAll) Name() string { return "meet-all" }

func (meetAll) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	n := len(s.Worms)
	if n < 2 {
		return nil, false
	}
	i := r.IntN(n)
	w := s.Worms[i]
	if r.IntN(2) == 0 {
		w.Src = sp.Sources[r.IntN(len(sp.Sources))]
		w.Dst = sp.Dests[r.IntN(len(sp.Dests))]
	}
	c, _ := measures(sp, s)
	p, ok := meetAllRoute(sp, s, i, w.Src, w.Dst, max(c, 2), dfsBudget, r)
	if !ok {
		return nil, false
	}
	w.Path = p
	t := s.clone()
	t.Worms[i] = w
	return t, true
}
