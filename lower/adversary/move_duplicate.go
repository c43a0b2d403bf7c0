package adversary

import "math/rand/v2"

// duplicate appends a copy of one worm (same path and length): the two meet on
// every edge, the simplest way to raise the congestion of a path.
type duplicate struct{}

func init() { registerMove(duplicate{}, 1, "add a copy of a worm (same path and length)") }

func (duplicate) Name() string { return "duplicate" }

func (duplicate) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) == 0 || len(s.Worms) >= sp.MaxWorms {
		return nil, false
	}
	t := s.clone()
	t.Worms = append(t.Worms, s.Worms[r.IntN(len(s.Worms))])
	return t, true
}
