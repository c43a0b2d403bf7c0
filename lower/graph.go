package lower

import (
	"math/bits"
	"slices"
)

// bitset is a set of small non-negative integers (graph vertices).
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int)      { b[i>>6] |= 1 << uint(i&63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<uint(i&63)) != 0 }

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// and returns b & c in a new set.
func (b bitset) and(c bitset) bitset {
	out := make(bitset, len(b))
	for i := range b {
		out[i] = b[i] & c[i]
	}
	return out
}

// members lists the elements in increasing order.
func (b bitset) members() []int {
	var out []int
	for wi, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			out = append(out, wi*64+t)
			w &= w - 1
		}
	}
	return out
}

// Graph is a simple undirected graph on vertices 0..N-1 stored as adjacency bit sets:
// the path graph of an instance or one of its refinements (ConflictGraph). Memory
// O(N^2 / 64) words.
type Graph struct {
	N   int
	adj []bitset
}

// NewGraph returns the graph on n vertices with no edges.
func NewGraph(n int) *Graph {
	g := &Graph{N: n, adj: make([]bitset, n)}
	for i := range g.adj {
		g.adj[i] = newBitset(n)
	}
	return g
}

// AddEdge joins u and v (u != v; a loop is ignored).
func (g *Graph) AddEdge(u, v int) {
	if u == v {
		return
	}
	g.adj[u].set(v)
	g.adj[v].set(u)
}

// Adjacent reports whether u and v are joined.
func (g *Graph) Adjacent(u, v int) bool { return g.adj[u].has(v) }

// Degree returns the number of neighbours of u.
func (g *Graph) Degree(u int) int { return g.adj[u].count() }

// Neighbours lists the neighbours of u in increasing order.
func (g *Graph) Neighbours(u int) []int { return g.adj[u].members() }

// Edges returns the number of edges.
func (g *Graph) Edges() int {
	m := 0
	for u := 0; u < g.N; u++ {
		m += g.adj[u].count()
	}
	return m / 2
}

// Complement returns the graph with exactly the non-edges of g.
func (g *Graph) Complement() *Graph { return g.complement(limit{}) }

// complement is Complement ending once lim's work says so (lim.cut(): the graph
// is then partial).
func (g *Graph) complement(lim limit) *Graph {
	h := NewGraph(g.N)
	for u := 0; u < g.N && !lim.charge(g.N-u); u++ {
		for v := u + 1; v < g.N; v++ {
			if !g.adj[u].has(v) {
				h.AddEdge(u, v)
			}
		}
	}
	return h
}

// Induced returns the subgraph induced by vs; vertex i of the result is vs[i].
func (g *Graph) Induced(vs []int) *Graph { return g.induced(vs, limit{}) }

// induced is Induced ending once lim's work says so (lim.cut(): the graph is
// then partial).
func (g *Graph) induced(vs []int, lim limit) *Graph {
	if whole(vs, g.N) {
		// g itself, copied row by row rather than bit by bit.
		h := &Graph{N: g.N, adj: make([]bitset, g.N)}
		for i := range h.adj {
			if lim.charge(len(g.adj[i])) {
				h.adj[i] = newBitset(g.N)
				continue
			}
			h.adj[i] = append(bitset(nil), g.adj[i]...)
		}
		return h
	}
	h := NewGraph(len(vs))
	for i, u := range vs {
		if lim.charge(len(vs) - i) {
			break
		}
		for j := i + 1; j < len(vs); j++ {
			if g.adj[u].has(vs[j]) {
				h.AddEdge(i, j)
			}
		}
	}
	return h
}

// whole reports whether vs is 0, 1, ..., n-1.
func whole(vs []int, n int) bool {
	if len(vs) != n {
		return false
	}
	for i, v := range vs {
		if v != i {
			return false
		}
	}
	return true
}

// Components returns the connected components, each sorted, in order of their
// smallest vertex.
func (g *Graph) Components() [][]int { return g.components(limit{}) }

// components is Components ending once lim's work says so: the last set is then
// the component being explored with every vertex not yet reached (the sets still
// cover every vertex once; each is a union of parts of components).
func (g *Graph) components(lim limit) [][]int {
	seen := make([]bool, g.N)
	var comps [][]int
	for s := 0; s < g.N; s++ {
		if seen[s] {
			continue
		}
		comp := []int{s}
		seen[s] = true
		for q := 0; q < len(comp); q++ {
			visits := len(g.adj[comp[q]])
			for wi, word := range g.adj[comp[q]] {
				for word != 0 {
					v := wi*64 + bits.TrailingZeros64(word)
					word &= word - 1
					visits++
					if !seen[v] {
						seen[v] = true
						comp = append(comp, v)
					}
				}
			}
			if lim.charge(visits) {
				for v := s + 1; v < g.N; v++ {
					if !seen[v] {
						comp = append(comp, v)
					}
				}
				slices.Sort(comp)
				return append(comps, comp)
			}
		}
		slices.Sort(comp)
		comps = append(comps, comp)
	}
	return comps
}

// IsClique reports whether the vertices vs are pairwise adjacent.
func (g *Graph) IsClique(vs []int) bool {
	for i, u := range vs {
		for _, v := range vs[i+1:] {
			if !g.adj[u].has(v) {
				return false
			}
		}
	}
	return true
}

// IsIndependent reports whether no two of the vertices vs are adjacent.
func (g *Graph) IsIndependent(vs []int) bool {
	for i, u := range vs {
		for _, v := range vs[i+1:] {
			if g.adj[u].has(v) {
				return false
			}
		}
	}
	return true
}
