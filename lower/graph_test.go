package lower

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func randomGraph(t *rapid.T) *Graph {
	n := rapid.IntRange(0, 11).Draw(t, "n")
	g := NewGraph(n)
	density := rapid.IntRange(0, 100).Draw(t, "density")
	for u := 0; u < n; u++ {
		for v := u + 1; v < n; v++ {
			if rapid.IntRange(0, 99).Draw(t, "edge") < density {
				g.AddEdge(u, v)
			}
		}
	}
	return g
}

// brute returns omega, alpha and chi of a graph of at most 11 vertices by
// enumerating vertex subsets (and colourings as partitions into independent sets).
func brute(g *Graph) (omega, alpha, chi int) {
	n := g.N
	indep := make([]bool, 1<<n)
	for s := 0; s < 1<<n; s++ {
		var vs []int
		for v := 0; v < n; v++ {
			if s&(1<<v) != 0 {
				vs = append(vs, v)
			}
		}
		if g.IsClique(vs) {
			omega = max(omega, len(vs))
		}
		if g.IsIndependent(vs) {
			indep[s] = true
			alpha = max(alpha, len(vs))
		}
	}
	// chi by dynamic programming over subsets: cover[s] = fewest independent sets
	// covering s.
	cover := make([]int, 1<<n)
	for s := 1; s < 1<<n; s++ {
		cover[s] = n + 1
		low := s & -s
		for sub := s; sub > 0; sub = (sub - 1) & s {
			if sub&low != 0 && indep[sub] {
				cover[s] = min(cover[s], cover[s&^sub]+1)
			}
		}
	}
	return omega, alpha, cover[1<<n-1]
}

// MaxClique, MaxIndependentSet and Chromatic agree with enumeration (with no
// budget they are exact), and their witnesses are a clique, an independent set and
// a proper colouring.
func TestGraphSearchesExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := randomGraph(t)
		omega, alpha, chi := brute(g)
		c := MaxClique(g, nil, 0)
		require.True(t, c.Exact)
		require.Equal(t, omega, c.Weight)
		require.True(t, g.IsClique(c.Clique))
		is := MaxIndependentSet(g, 0)
		require.True(t, is.Exact)
		require.Equal(t, alpha, len(is.Set))
		require.True(t, g.IsIndependent(is.Set))
		col := Chromatic(g, 0)
		require.True(t, col.Exact)
		require.Equal(t, chi, col.Upper)
		for u := 0; u < g.N; u++ {
			for _, v := range g.Neighbours(u) {
				require.NotEqual(t, col.Colour[u], col.Colour[v])
			}
		}
	})
}

// With a tiny budget the searches stop early but their bounds stay valid:
// Upper >= the true value >= what was found.
func TestGraphSearchesBudgetValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := randomGraph(t)
		omega, alpha, chi := brute(g)
		c := MaxClique(g, nil, 2)
		require.LessOrEqual(t, c.Weight, omega)
		require.GreaterOrEqual(t, c.Upper, omega)
		is := MaxIndependentSet(g, 2)
		require.LessOrEqual(t, len(is.Set), alpha)
		require.GreaterOrEqual(t, is.Upper, alpha)
		col := Chromatic(g, 2)
		require.LessOrEqual(t, col.Lower, chi)
		require.GreaterOrEqual(t, col.Upper, chi)
	})
}

// Lemma (a stopped search's bounds stay valid): a search told to stop (limit.stop: BoundsWithin's cancelled context) expands
// no node after stop first reports true (the DSATUR search first completes one
// colouring, its upper bound), and its bounds stay valid as with a budget:
// Upper >= the true value >= what was found.
func TestGraphSearchesStopValid(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		g := randomGraph(t)
		omega, alpha, chi := brute(g)
		calls := rapid.IntRange(0, 3).Draw(t, "calls before stop")
		stopAfter := func() func() bool {
			n := 0
			return func() bool { n++; return n > calls }
		}
		lim := limit{stop: stopAfter()}
		c := maxClique(g, nil, lim)
		require.LessOrEqual(t, c.Nodes, calls+1, "nodes after stop")
		require.LessOrEqual(t, c.Weight, omega)
		require.GreaterOrEqual(t, c.Upper, omega)
		require.True(t, g.IsClique(c.Clique))
		is := maxIndependentSet(g, limit{stop: stopAfter()})
		require.LessOrEqual(t, len(is.Set), alpha)
		require.GreaterOrEqual(t, is.Upper, alpha)
		require.True(t, g.IsIndependent(is.Set))
		col := chromatic(g, limit{stop: stopAfter()})
		require.LessOrEqual(t, col.Lower, chi)
		require.GreaterOrEqual(t, col.Upper, chi)
		for u := 0; u < g.N; u++ {
			for _, v := range g.Neighbours(u) {
				require.NotEqual(t, col.Colour[u], col.Colour[v])
			}
		}
	})
}
