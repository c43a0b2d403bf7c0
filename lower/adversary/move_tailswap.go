package adversary

import (
	"math/rand/v2"
	"slices"
)

// tailSwap exchanges the tails of two worms at a node both reach after the same
// number of hops: worm i takes j's path from there on and j takes i's. Every edge
// keeps its load, so c, c_L (equal lengths) and the multiset of path lengths are
// unchanged (fixed congestion); on a levelled network the paths stay levelled.
// Only the meetings change: this is how the lines of the affine plane of seed 002,
// section 5, are rewired into one another.
type tailSwap struct{}

func init() {
	registerMove(tailSwap{}, 2, "exchange the tails of two worms at a common node (every edge keeps its load)")
}

func (tailSwap) Name() string { return "tail-swap" }

func (tailSwap) Apply(sp *Space, s *Set, r *rand.Rand) (*Set, bool) {
	i, j, ok := pickTwo(s, r)
	if !ok {
		return nil, false
	}
	a, b := s.Worms[i].Path, s.Worms[j].Path
	// hops k >= 1 after which both are at the same node and the tails differ
	var ks []int
	for k := 1; k < len(a) && k < len(b); k++ {
		if sp.Net.Edges[a[k-1]].To == sp.Net.Edges[b[k-1]].To && !slices.Equal(a[k:], b[k:]) {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil, false
	}
	k := ks[r.IntN(len(ks))]
	pa := append(slices.Clone(a[:k]), b[k:]...)
	pb := append(slices.Clone(b[:k]), a[k:]...)
	if !simple(sp, pa) || !simple(sp, pb) {
		return nil, false
	}
	t := s.clone()
	t.Worms[i].Path, t.Worms[i].Dst = pa, s.Worms[j].Dst
	t.Worms[j].Path, t.Worms[j].Dst = pb, s.Worms[i].Dst
	return t, true
}

// simple reports whether a path visits no node twice (MODEL.md asks only that no
// edge repeats; the routers keep paths simple, and so do the moves).
func simple(sp *Space, p []int) bool {
	seen := map[int]bool{sp.Net.Edges[p[0]].From: true}
	for _, e := range p {
		v := sp.Net.Edges[e].To
		if seen[v] {
			return false
		}
		seen[v] = true
	}
	return true
}
