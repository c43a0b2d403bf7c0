package lower

import "math/bits"

// Chromatic number by DSATUR branch and bound (Brélaz 1979; exact search as in
// Sewell 1996): colour the most saturated vertex next, try each colour already used
// and one new one, prune when the colours used reach the best colouring known. The
// lower bound starts at a maximum clique, since chi >= omega.

// ColourResult is the outcome of a chromatic-number search.
type ColourResult struct {
	// Colour is the best proper colouring found (colours 0..Upper-1).
	Colour []int
	// Lower and Upper bound the chromatic number chi: Lower <= chi <= Upper.
	Lower, Upper int
	// Exact reports Lower = Upper.
	Exact bool
	// Clique is the clique that gives Lower when the search did not finish.
	Clique []int
}

// Chromatic bounds the chromatic number of g: a maximum clique (searched with at
// most budget nodes) gives the lower bound, DSATUR the upper bound, and a DSATUR
// branch and bound of at most budget nodes closes the gap when it can.
func Chromatic(g *Graph, budget int) ColourResult {
	return chromatic(g, limit{nodes: budget})
}

func chromatic(g *Graph, lim limit) ColourResult {
	res := ColourResult{Colour: make([]int, g.N)}
	if g.N == 0 {
		res.Exact = true
		return res
	}
	cl := maxClique(g, nil, lim)
	res.Lower, res.Clique = cl.Weight, cl.Clique
	if res.Lower == g.N {
		// g is complete: DSATUR, every vertex as saturated and of the same degree,
		// would colour them in index order with a new colour each, in N levels of
		// O(N^2 / 64) words or more each; its colouring at once.
		for i := range res.Colour {
			res.Colour[i] = i
		}
		res.Upper, res.Exact = g.N, true
		return res
	}
	s := &dsatur{g: g, lim: lim, colour: make([]int, g.N), best: g.N + 1}
	for i := range s.colour {
		s.colour[i] = -1
	}
	s.lower = res.Lower
	s.search(0, 0)
	res.Upper = s.best
	copy(res.Colour, s.bestColour)
	if !s.stopped {
		// the search is complete: no colouring with fewer than best colours exists.
		res.Lower = res.Upper
	}
	res.Exact = res.Lower == res.Upper
	return res
}

type dsatur struct {
	g          *Graph
	lim        limit
	nodes      int
	stopped    bool
	colour     []int
	best       int
	bestColour []int
	lower      int
	// stamp[c] == round marks colour c as seen around the vertex being examined.
	stamp []int
	round int
}

// search colours the remaining vertices; coloured is how many are coloured and
// used how many colours are in use.
func (s *dsatur) search(coloured, used int) {
	if s.stopped || used >= s.best || s.best == s.lower {
		return
	}
	s.nodes++
	if s.bestColour != nil && s.lim.over(s.nodes) {
		s.stopped = true
		return
	}
	if s.bestColour == nil && s.lim.charge(s.g.N) {
		// cut in the first descent: the vertices left each take a colour of
		// their own, a proper colouring all the same.
		s.stopped = true
		s.best = used
		s.bestColour = append(s.bestColour[:0], s.colour...)
		for v, c := range s.bestColour {
			if c < 0 {
				s.bestColour[v] = s.best
				s.best++
			}
		}
		return
	}
	if coloured == s.g.N {
		s.best = used
		s.bestColour = append(s.bestColour[:0], s.colour...)
		return
	}
	// the uncoloured vertex with the most distinct neighbour colours, then the
	// highest degree into uncoloured vertices, then the smallest index.
	v, vsat, vdeg := -1, -1, -1
	if len(s.stamp) < s.g.N+1 {
		s.stamp = make([]int, s.g.N+1)
	}
	for u := 0; u < s.g.N; u++ {
		if s.colour[u] >= 0 {
			continue
		}
		s.round++
		s.lim.charge(len(s.g.adj[u]))
		sat, deg := 0, 0
		for wi, word := range s.g.adj[u] {
			for word != 0 {
				x := wi*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if c := s.colour[x]; c >= 0 {
					if s.stamp[c] != s.round {
						s.stamp[c] = s.round
						sat++
					}
				} else {
					deg++
				}
			}
		}
		if sat > vsat || (sat == vsat && deg > vdeg) {
			v, vsat, vdeg = u, sat, deg
		}
	}
	forbidden := make([]bool, used+1)
	for _, x := range s.g.adj[v].members() {
		if c := s.colour[x]; c >= 0 {
			forbidden[c] = true
		}
	}
	for c := 0; c <= used; c++ {
		if forbidden[c] {
			continue
		}
		nu := used
		if c == used {
			nu++
		}
		if nu >= s.best {
			break
		}
		s.colour[v] = c
		s.search(coloured+1, nu)
		s.colour[v] = -1
		if s.stopped {
			return
		}
	}
}
