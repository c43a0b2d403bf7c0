package adversary

import "math/rand/v2"

// reroute gives one worm a new path between its endpoints, by a router drawn at
// random (the topology's routings, a random simple path, a uniform shortest path).
type reroute struct{}

func init() { registerMove(reroute{}, 6, "a new path for one worm between the same endpoints") }

func (reroute) Name() string { return "reroute" }

func (reroute) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	i, w, ok := pickWorm(s, r)
	if !ok {
		return nil, false
	}
	p, ok := sp.route(w.Src, w.Dst, r)
	if !ok {
		return nil, false
	}
	w.Path = p
	return s.with(i, w), true
}
