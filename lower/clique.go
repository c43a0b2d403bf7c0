package lower

// Maximum (weight) clique by branch and bound with a colouring bound, after Tomita
// and Seki (MCQ, 2003) with the weighted class bound of Kumlander (2004): the
// candidates are coloured greedily, a clique takes at most one vertex of each colour
// class, so the weights of the heaviest vertex of each class add up to an upper
// bound. Worst case exponential; Budget caps the search nodes.

import (
	"math/bits"
	"slices"
)

// CliqueResult is the outcome of a clique search.
type CliqueResult struct {
	// Clique is the heaviest clique found (vertex indices, increasing).
	Clique []int
	// Weight is the weight of Clique.
	Weight int
	// Upper is a proven upper bound on the weight of every clique: Weight when
	// Exact, else the colouring bound at the root.
	Upper int
	// Exact reports that the search finished within its budget (Weight = Upper).
	Exact bool
	// Nodes is the number of search nodes expanded.
	Nodes int
}

// MaxClique returns a maximum-weight clique of g, with w[v] >= 1 the weight of v
// (nil: every weight is 1). At most budget search nodes are expanded (budget <= 0:
// no limit).
func MaxClique(g *Graph, w []int, budget int) CliqueResult {
	return maxClique(g, w, limit{nodes: budget})
}

// limit caps a search: at most nodes search nodes (<= 0: no limit), and none
// after stop reports true (nil: never), so that a cancelled context ends the
// bounds of BoundsWithin within a search node, not a whole budget. A search
// stopped either way returns a valid, weaker bound (Exact false).
//
// With work (BoundsWithin), stop is also asked every stopCheck units of work
// inside a node, the greedy clique and the graphs' construction (charge).
type limit struct {
	nodes int
	stop  func() bool
	work  *worked
}

// over reports whether a search that has expanded n nodes must stop.
func (l limit) over(n int) bool {
	if l.nodes > 0 && n > l.nodes || l.cut() {
		return true
	}
	if l.stop != nil && l.stop() {
		if l.work != nil {
			l.work.done = true
		}
		return true
	}
	return false
}

func maxClique(g *Graph, w []int, lim limit) CliqueResult {
	if w == nil {
		w = make([]int, g.N)
		for i := range w {
			w[i] = 1
		}
	}
	s := &cliqueSearch{g: g, w: w, lim: lim}
	all := newBitset(g.N)
	for v := 0; v < g.N; v++ {
		all.set(v)
	}
	_, bounds := s.colourSort(all)
	root := 0
	if len(bounds) > 0 {
		root = bounds[len(bounds)-1]
	}
	if s.stopped {
		// the root colouring was cut short: the weights' sum bounds every clique.
		root = 0
		for _, x := range w {
			root += x
		}
	}
	s.greedy(all, root)
	if s.bestW < root && !s.stopped {
		s.expand(0, all)
	}
	res := CliqueResult{Clique: append([]int(nil), s.best...), Weight: s.bestW, Nodes: s.nodes, Exact: !s.stopped}
	slices.Sort(res.Clique)
	res.Upper = res.Weight
	if !res.Exact {
		res.Upper = max(root, res.Weight)
	}
	return res
}

type cliqueSearch struct {
	g       *Graph
	w       []int
	lim     limit
	nodes   int
	stopped bool
	cur     []int
	curW    int
	best    []int
	bestW   int
}

// colourSort colours the candidates p greedily (classes of pairwise non-adjacent
// vertices, in increasing vertex order) and returns them class by class with, at
// position i, the sum over the classes up to that of order[i] of their heaviest
// weight: a bound on any clique inside order[0..i].
func (s *cliqueSearch) colourSort(p bitset) (order, bounds []int) {
	left := append(bitset(nil), p...)
	avail := make(bitset, len(p))
	sum := 0
	for {
		if s.lim.charge(len(left)) {
			s.stopped = true
			return order, bounds
		}
		copy(avail, left)
		start := len(order)
		heaviest := 0
		// the class takes the vertices of avail in increasing order, each
		// removing its neighbours from avail (the words before wi are empty by
		// then): O(N / 64) words a vertex, where listing left took O(N) a class.
		for wi := range avail {
			for avail[wi] != 0 {
				v := wi*64 + bits.TrailingZeros64(avail[wi])
				order = append(order, v)
				heaviest = max(heaviest, s.w[v])
				row := s.g.adj[v]
				for i := wi; i < len(avail); i++ {
					avail[i] &^= row[i]
				}
				avail[wi] &^= 1 << uint(v&63)
				left[wi] &^= 1 << uint(v&63)
				s.lim.charge(len(avail) - wi)
			}
		}
		if len(order) == start {
			return order, bounds
		}
		sum += heaviest
		for range order[start:] {
			bounds = append(bounds, sum)
		}
	}
}

// greedy seeds the search with a clique grown from each vertex in turn by adding
// the heaviest candidate adjacent to all chosen so far (ties: smallest index):
// O(N^3 / 64), and often optimal, which the root bound then proves at once. It
// ends once a clique weighs root, an upper bound on every clique (no later start
// could be heavier: the result is the one all 64 starts give), after the node
// budget's number of picks in all (the clique being grown is a clique all the
// same), or when the limit's work says so.
func (s *cliqueSearch) greedy(all bitset, root int) {
	picks := 0
	capped := func() bool { return s.lim.nodes > 0 && picks >= s.lim.nodes }
	for start := 0; start < s.g.N && start < 64 && s.bestW < root; start++ {
		clique := []int{start}
		weight := s.w[start]
		cand := all.and(s.g.adj[start])
		for !capped() {
			if s.lim.charge(len(cand)) {
				s.stopped = true
				break
			}
			pick := -1
			for wi, word := range cand {
				for word != 0 {
					v := wi*64 + bits.TrailingZeros64(word)
					word &= word - 1
					if pick < 0 || s.w[v] > s.w[pick] {
						pick = v
					}
				}
			}
			if pick < 0 {
				break
			}
			picks++
			clique = append(clique, pick)
			weight += s.w[pick]
			row := s.g.adj[pick]
			for i := range cand {
				cand[i] &= row[i]
			}
		}
		if weight > s.bestW {
			s.bestW = weight
			s.best = append(s.best[:0], clique...)
		}
		if s.stopped || capped() {
			return
		}
	}
}

func (s *cliqueSearch) expand(curW int, p bitset) {
	s.nodes++
	if s.lim.over(s.nodes) || s.lim.charge(len(p)) {
		s.stopped = true
		return
	}
	order, bounds := s.colourSort(p)
	if s.stopped {
		return
	}
	p = append(bitset(nil), p...)
	for i := len(order) - 1; i >= 0; i-- {
		if s.stopped || curW+bounds[i] <= s.bestW {
			return
		}
		v := order[i]
		s.cur = append(s.cur, v)
		np := p.and(s.g.adj[v])
		if np.count() == 0 {
			if curW+s.w[v] > s.bestW {
				s.bestW = curW + s.w[v]
				s.best = append(s.best[:0], s.cur...)
			}
		} else {
			s.expand(curW+s.w[v], np)
		}
		s.cur = s.cur[:len(s.cur)-1]
		p[v>>6] &^= 1 << uint(v&63)
	}
}

// IndependentResult is the outcome of an independent-set search.
type IndependentResult struct {
	// Set is the largest independent set found (increasing).
	Set []int
	// Upper is a proven upper bound on the independence number alpha: len(Set)
	// when Exact, else the sum over components of their best bound.
	Upper int
	// Exact reports alpha = len(Set).
	Exact bool
	// Components is the number of connected components searched apart.
	Components int
}

// MaxIndependentSet computes the independence number alpha(g) as the sum over the
// connected components of g of a maximum clique of the component's complement.
// Each component's search gets at most budget nodes; a component left unfinished
// contributes the root colouring bound of its complement, which is the size of a
// partition of the component into cliques of g (each such clique holds at most one
// vertex of an independent set), so Upper is always a valid bound on alpha.
func MaxIndependentSet(g *Graph, budget int) IndependentResult {
	return maxIndependentSet(g, limit{nodes: budget})
}

func maxIndependentSet(g *Graph, lim limit) IndependentResult {
	res := IndependentResult{Exact: true}
	for _, comp := range g.components(lim) {
		res.Components++
		if len(comp) == 1 {
			res.Set = append(res.Set, comp[0])
			res.Upper++
			continue
		}
		h := g.induced(comp, lim).complement(lim)
		if lim.cut() {
			// h is partial: alpha <= |comp|, with one vertex for a set.
			res.Set = append(res.Set, comp[0])
			res.Upper += len(comp)
			res.Exact = false
			continue
		}
		c := maxClique(h, nil, lim)
		for _, v := range c.Clique {
			res.Set = append(res.Set, comp[v])
		}
		res.Upper += c.Upper
		res.Exact = res.Exact && c.Exact
	}
	slices.Sort(res.Set)
	return res
}
