package adversary

import "math/rand/v2"

// length changes one worm's length within the space's range (mixed lengths): by
// one flit half of the time, else to any other length of the range.
type length struct{}

func init() { registerMove(length{}, 2, "change one worm's length within --flits A:B") }

func (length) Name() string { return "length" }

func (length) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	if len(s.Worms) == 0 || sp.MinL == sp.MaxL || sp.Keep.L > 0 {
		return nil, false
	}
	i := r.IntN(len(s.Worms))
	old := s.Worms[i].L
	l := old
	if r.IntN(2) == 0 {
		l += 2*r.IntN(2) - 1
	} else {
		for l == old {
			l = sp.MinL + r.IntN(sp.MaxL-sp.MinL+1)
		}
	}
	if l < sp.MinL || l > sp.MaxL || l == old {
		return nil, false
	}
	t := s.clone()
	t.Worms[i].L = l
	return t, true
}
