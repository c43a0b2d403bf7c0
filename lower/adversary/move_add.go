package adversary

import "math/rand/v2"

// add appends a random worm (random terminals, a random router, a random length).
type add struct{}

func init() { registerMove(add{}, 2, "add a random worm") }

func (add) Name() string { return "add" }

func (add) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) >= sp.MaxWorms {
		return nil, false
	}
	w, ok := sp.randomWorm(r)
	if !ok {
		return nil, false
	}
	t := s.clone()
	t.Worms = append(t.Worms, w)
	return t, true
}
