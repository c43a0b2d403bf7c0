// Package unionfind is the one disjoint-set forest of wormlab (path halving and
// union by size): components of the path graph (measure), of a phase's worms
// (online), and the reference of the forest test in model's tests (model.IsForest,
// which offline.IsTree asks, needs none). Find and Union cost
// O(alpha(n)) amortised; memory is two ints per element.
package unionfind

// Sets is a partition of 0 .. n-1 into disjoint sets.
type Sets struct {
	parent, size []int
}

// New returns n singleton sets.
func New(n int) *Sets {
	s := &Sets{parent: make([]int, n), size: make([]int, n)}
	for i := range s.parent {
		s.parent[i], s.size[i] = i, 1
	}
	return s
}

// Find returns the representative of x's set.
func (s *Sets) Find(x int) int {
	for s.parent[x] != x {
		s.parent[x] = s.parent[s.parent[x]]
		x = s.parent[x]
	}
	return x
}

// Union merges the sets of a and b and reports whether they were apart.
func (s *Sets) Union(a, b int) bool {
	a, b = s.Find(a), s.Find(b)
	if a == b {
		return false
	}
	if s.size[a] < s.size[b] {
		a, b = b, a
	}
	s.parent[b] = a
	s.size[a] += s.size[b]
	return true
}

// Size returns the number of elements in x's set.
func (s *Sets) Size(x int) int { return s.size[s.Find(x)] }
