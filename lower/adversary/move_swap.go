package adversary

import "math/rand/v2"

// swap exchanges the paths (with their endpoints) of two worms, keeping each
// worm's length and place in the message order: with mixed lengths it moves a long
// worm onto a short path, and with order-based arbitration (greedy's) it changes
// who wins.
type swap struct{}

func init() { registerMove(swap{}, 1, "exchange the paths of two worms (lengths and order stay)") }

func (swap) Name() string { return "swap" }

func (swap) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	i, j, ok := pickTwo(s, r)
	if !ok {
		return nil, false
	}
	t := s.clone()
	a, b := t.Worms[i], t.Worms[j]
	t.Worms[i].Src, t.Worms[i].Dst, t.Worms[i].Path = b.Src, b.Dst, b.Path
	t.Worms[j].Src, t.Worms[j].Dst, t.Worms[j].Path = a.Src, a.Dst, a.Path
	return t, true
}
