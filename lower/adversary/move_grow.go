package adversary

import "math/rand/v2"

// grow adds a worm that meets as many worms as it can without raising the
// congestion c, on edges whose load is below c (fixed congestion): one that meets
// every worm when a depth-first search finds it, else the meeting router's. On a levelled network with L >= d, each worm it adds to a clique
// of the path graph adds L to the optimum and nothing to c_L.
type grow struct{}

func init() {
	registerMove(grow{}, 3, "add a worm that meets the most worms without raising the congestion")
}

func (grow) Name() string { return "grow" }

func (grow) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) >= sp.MaxWorms {
		return nil, false
	}
	c, _ := measures(sp, s)
	c = max(c, 2) // c = 1: let the new worm meet one
	w := Worm{Src: sp.Sources[r.IntN(len(sp.Sources))], Dst: sp.Dests[r.IntN(len(sp.Dests))], L: sp.length(r)}
	p, ok := meetAllRoute(sp, s, -1, w.Src, w.Dst, c, dfsBudget, r)
	if !ok {
		if p, _, ok = meetRoute(sp, s, -1, w.Src, w.Dst, c, r); !ok {
			return nil, false
		}
	}
	w.Path = p
	t := s.clone()
	t.Worms = append(t.Worms, w)
	return t, true
}
