package adversary

import "math/rand/v2"

// endpoint moves one end of a worm to another terminal and routes it anew.
type endpoint struct{}

func init() { registerMove(endpoint{}, 4, "move one end of a worm to another terminal, routed anew") }

func (endpoint) Name() string { return "endpoint" }

func (endpoint) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	i, w, ok := pickWorm(s, r)
	if !ok {
		return nil, false
	}
	if r.IntN(2) == 0 {
		w.Src = sp.Sources[r.IntN(len(sp.Sources))]
	} else {
		w.Dst = sp.Dests[r.IntN(len(sp.Dests))]
	}
	p, ok := sp.route(w.Src, w.Dst, r)
	if !ok {
		return nil, false
	}
	w.Path = p
	return s.with(i, w), true
}
