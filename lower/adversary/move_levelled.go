package adversary

import "math/rand/v2"

// levelled re-routes one worm by a uniform shortest path from its source to a
// destination at the same distance as its own: on a levelled network the path
// still ends on the same level (every conflict stays aligned, as in seed 002,
// section 5); on a mesh it is a monotone path of the same length.
type levelled struct{}

func init() {
	registerMove(levelled{}, 2, "re-route a worm by a shortest path to a destination as far as its own (levelled paths)")
}

func (levelled) Name() string { return "levelled" }

func (levelled) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	i, w, ok := pickWorm(s, r)
	if !ok {
		return nil, false
	}
	var dsts []int
	for _, t := range sp.Dests {
		if d := sp.distTo(t); d != nil && d[w.Src] == len(w.Path) {
			dsts = append(dsts, t)
		}
	}
	if len(dsts) == 0 {
		return nil, false
	}
	w.Dst = dsts[r.IntN(len(dsts))]
	p, ok := ShortestRouter{}.Route(sp, w.Src, w.Dst, r)
	if !ok {
		return nil, false
	}
	w.Path = p
	return s.with(i, w), true
}
