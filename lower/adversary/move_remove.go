package adversary

import "math/rand/v2"

// remove drops one worm.
type remove struct{}

func init() { registerMove(remove{}, 2, "remove a worm") }

func (remove) Name() string { return "remove" }

func (remove) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) <= max(sp.MinWorms, 1) {
		return nil, false
	}
	i := r.IntN(len(s.Worms))
	t := s.clone()
	t.Worms = append(t.Worms[:i], t.Worms[i+1:]...)
	return t, true
}
