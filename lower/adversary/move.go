package adversary

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
)

// Move changes a candidate into a neighbour. Apply returns a new Set (s is never
// modified) or false when the move does not apply to s (no worm to remove, a
// length range of one value, no route found...). Each move is a value in its own
// file (move_*.go) that registers itself with its default weight.
type Move interface {
	Name() string
	Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool)
}

// pickWorm draws a worm of s uniformly: its index and a copy to change (false
// when s has none).
func pickWorm(s *Set, r *rand.Rand) (int, Worm, bool) {
	if len(s.Worms) == 0 {
		return 0, Worm{}, false
	}
	i := r.IntN(len(s.Worms))
	return i, s.Worms[i], true
}

// pickTwo draws two distinct worms of s uniformly, as indices (false when s has
// fewer than two).
func pickTwo(s *Set, r *rand.Rand) (i, j int, ok bool) {
	n := len(s.Worms)
	if n < 2 {
		return 0, 0, false
	}
	i, j = r.IntN(n), r.IntN(n-1)
	if j >= i {
		j++
	}
	return i, j, true
}

// moveEntry is a registered move and its default weight in the mix.
type moveEntry struct {
	move   Move
	weight int
	about  string
}

var moveRegistry = map[string]moveEntry{}

// registerMove makes a move available by name; each move file calls it from init.
// A name registered twice panics (programmer error).
func registerMove(m Move, weight int, about string) {
	if _, dup := moveRegistry[m.Name()]; dup {
		panic("adversary: move registered twice: " + m.Name())
	}
	moveRegistry[m.Name()] = moveEntry{m, weight, about}
}

// Moves lists the registered move names, sorted.
func Moves() []string {
	var names []string
	for n := range moveRegistry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// MoveAbout is the one-line description of a registered move ("" if unknown).
func MoveAbout(name string) string { return moveRegistry[name].about }

// Mix is a weighted choice of moves.
type Mix struct {
	moves   []Move
	weights []int
	total   int
}

// DefaultMix is every registered move at its default weight.
func DefaultMix() Mix {
	var m Mix
	for _, n := range Moves() {
		e := moveRegistry[n]
		m.add(e.move, e.weight)
	}
	return m
}

// ParseMix reads "name,name=weight,..." (a name alone takes its default weight).
func ParseMix(spec string) (Mix, error) {
	var m Mix
	for _, f := range strings.Split(spec, ",") {
		name, w, hasW := strings.Cut(strings.TrimSpace(f), "=")
		e, ok := moveRegistry[name]
		if !ok {
			return Mix{}, fmt.Errorf("unknown move %q (want %s)", name, strings.Join(Moves(), ", "))
		}
		weight := e.weight
		if hasW {
			if _, err := fmt.Sscanf(w, "%d", &weight); err != nil || weight < 1 || weight > 1000 {
				return Mix{}, fmt.Errorf("move %s: weight %q is not an integer in 1..1000", name, w)
			}
		}
		m.add(e.move, weight)
	}
	return m, nil
}

func (m *Mix) add(mv Move, w int) {
	m.moves = append(m.moves, mv)
	m.weights = append(m.weights, w)
	m.total += w
}

// Names lists the mix's moves with their weights, "name=w,...".
func (m Mix) String() string {
	var parts []string
	for i, mv := range m.moves {
		parts = append(parts, fmt.Sprintf("%s=%d", mv.Name(), m.weights[i]))
	}
	return strings.Join(parts, ",")
}

// pick draws a move by weight.
func (m Mix) pick(r *rand.Rand) Move {
	x := r.IntN(m.total)
	for i, w := range m.weights {
		if x < w {
			return m.moves[i]
		}
		x -= w
	}
	return m.moves[len(m.moves)-1]
}

// Neighbour applies moves drawn from the mix until one applies (at most 20 tries);
// it returns the move's name.
func (m Mix) Neighbour(sp *Space, s *Set, r *rand.Rand) (*Set, string, bool) {
	for range 20 {
		mv := m.pick(r)
		if t, ok := mv.Apply(sp, s, r); ok {
			return t, mv.Name(), true
		}
	}
	return nil, "", false
}
