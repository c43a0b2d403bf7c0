package adversary

import "math/rand/v2"

// rerouteFixedC re-routes one worm between its endpoints by the meeting router on
// edges whose load without it is below c: the congestion cannot rise, and the worm
// meets as many others as such a path can.
type rerouteFixedC struct{}

func init() {
	registerMove(rerouteFixedC{}, 3, "re-route a worm to meet the most worms without raising the congestion")
}

func (rerouteFixedC) Name() string { return "reroute-fixed-c" }

func (rerouteFixedC) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) < 2 {
		return nil, false
	}
	c, _ := measures(sp, s)
	i := r.IntN(len(s.Worms))
	w := s.Worms[i]
	p, _, ok := meetRoute(sp, s, i, w.Src, w.Dst, c, r)
	if !ok {
		return nil, false
	}
	t := s.clone()
	t.Worms[i].Path = p
	return t, true
}
