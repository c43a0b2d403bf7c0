package adversary

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/lower"
)

// spaces are the networks the move properties are checked on: a levelled network
// (complete layers, the shape of seed 002, section 5), a mesh (paths of any
// shape), a butterfly (unique paths) and a line.
var specs = []string{"levelled:3x6x3", "mesh:3x3", "butterfly:8", "line:5", "levelled:4x5x2"}

func drawSpace(t *rapid.T) *Space {
	spec := rapid.SampledFrom(specs).Draw(t, "network")
	top, err := lower.ParseNetwork(spec, 1)
	require.NoError(t, err)
	sp := TopologySpace(top, spec)
	sp.MinL = rapid.IntRange(1, 3).Draw(t, "minL")
	sp.MaxL = sp.MinL + rapid.IntRange(0, 3).Draw(t, "extraL")
	sp.MinWorms, sp.MaxWorms = 1, 12
	sp.Prepare()
	return sp
}

func drawSet(t *rapid.T, sp *Space) *Set {
	r := newRand(rapid.Uint64().Draw(t, "seed"))
	s, err := sp.RandomSet(rapid.IntRange(1, 8).Draw(t, "worms"), r)
	require.NoError(t, err)
	return s
}

// checkSet asserts what every candidate satisfies: a valid instance of MODEL.md
// (paths are walks that repeat no edge), simple paths between the recorded
// endpoints, lengths in the space's range.
func checkSet(t require.TestingT, sp *Space, s *Set) {
	require.NoError(t, sp.Instance("t", s).Validate())
	for i, w := range s.Worms {
		require.NotEmpty(t, w.Path, "worm %d", i)
		require.Equal(t, w.Src, sp.Net.Edges[w.Path[0]].From, "worm %d source", i)
		require.Equal(t, w.Dst, sp.Net.Edges[w.Path[len(w.Path)-1]].To, "worm %d destination", i)
		require.True(t, simple(sp, w.Path), "worm %d path is not simple", i)
		require.GreaterOrEqual(t, w.L, sp.MinL)
		require.LessOrEqual(t, w.L, sp.MaxL)
	}
}

// changed lists the worms of a and b (same count) that differ.
func changed(a, b *Set) []int {
	var out []int
	for i := range a.Worms {
		if !sameWorm(a.Worms[i], b.Worms[i]) {
			out = append(out, i)
		}
	}
	return out
}

func sameWorm(a, b Worm) bool {
	return a.Src == b.Src && a.Dst == b.Dst && a.L == b.L && slices.Equal(a.Path, b.Path)
}

// Every move gives a valid candidate and keeps what its doc says it keeps; none
// changes the set it was given (sets are immutable).
func TestMovesKeepTheirProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp := drawSpace(t)
		s := drawSet(t, sp)
		before := fmt.Sprint(s.Worms)
		name := rapid.SampledFrom(Moves()).Draw(t, "move")
		mv := moveRegistry[name].move
		r := newRand(rapid.Uint64().Draw(t, "moveSeed"))
		out, ok := mv.Apply(sp, s, r)
		require.Equal(t, before, fmt.Sprint(s.Worms), "the move changed its input")
		if !ok {
			return
		}
		checkSet(t, sp, out)
		n, m := len(s.Worms), len(out.Worms)
		c0, _ := measures(sp, s)
		c1, _ := measures(sp, out)
		switch name {
		case "reroute", "reroute-fixed-c":
			require.Equal(t, n, m)
			d := changed(s, out)
			require.LessOrEqual(t, len(d), 1)
			for _, i := range d {
				require.Equal(t, s.Worms[i].Src, out.Worms[i].Src)
				require.Equal(t, s.Worms[i].Dst, out.Worms[i].Dst)
			}
			if name == "reroute-fixed-c" {
				require.LessOrEqual(t, c1, c0, "reroute-fixed-c raised the congestion")
			}
		case "endpoint", "meet-all", "levelled":
			require.Equal(t, n, m)
			require.LessOrEqual(t, len(changed(s, out)), 1)
		case "length":
			require.Equal(t, n, m)
			d := changed(s, out)
			require.Len(t, d, 1)
			require.True(t, slices.Equal(s.Worms[d[0]].Path, out.Worms[d[0]].Path))
			require.NotEqual(t, s.Worms[d[0]].L, out.Worms[d[0]].L)
		case "add", "grow", "duplicate":
			require.Equal(t, n+1, m)
			require.Empty(t, changed(s, &Set{Worms: out.Worms[:n]}))
			if name == "duplicate" {
				require.True(t, slices.ContainsFunc(s.Worms, func(w Worm) bool { return sameWorm(w, out.Worms[n]) }))
			}
			if name == "grow" {
				require.LessOrEqual(t, c1, max(c0, 2), "grow raised the congestion")
			}
		case "remove":
			require.Equal(t, n-1, m)
		case "swap", "tail-swap":
			require.Equal(t, n, m)
			require.Equal(t, sp.loads(s), sp.loads(out), "%s changed an edge's load", name)
			for i := range s.Worms {
				require.Equal(t, s.Worms[i].L, out.Worms[i].L)
			}
		default:
			t.Fatalf("move %s has no property in this test", name)
		}
		if name == "meet-all" {
			i := changed(s, out)
			if len(i) == 1 {
				meets, _ := conflicts(sp, out)
				for j := range out.Worms {
					if j != i[0] {
						require.NotZero(t, meets[i[0]][j/64]&(1<<(uint(j)%64)), "worm %d does not meet %d", i[0], j)
					}
				}
			}
			require.LessOrEqual(t, c1, max(c0, 2), "meet-all raised the congestion")
		}
		if name == "levelled" {
			if i := changed(s, out); len(i) == 1 {
				require.Equal(t, len(s.Worms[i[0]].Path), len(out.Worms[i[0]].Path))
				require.Equal(t, s.Worms[i[0]].Src, out.Worms[i[0]].Src)
			}
		}
	})
}

// Every router returns a simple path between the endpoints it was given (the
// shortest router a shortest one).
func TestRoutersRoute(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp := drawSpace(t)
		src := rapid.SampledFrom(sp.Sources).Draw(t, "src")
		dst := rapid.SampledFrom(sp.Dests).Draw(t, "dst")
		rt := rapid.SampledFrom(sp.Routers).Draw(t, "router")
		p, ok := rt.Route(sp, src, dst, newRand(rapid.Uint64().Draw(t, "seed")))
		if !ok {
			require.True(t, src == dst || sp.distTo(dst)[src] < 0 || rt.Name() != "shortest",
				"the shortest router found no path to a reachable destination")
			return
		}
		require.Equal(t, src, sp.Net.Edges[p[0]].From)
		require.Equal(t, dst, sp.Net.Edges[p[len(p)-1]].To)
		for k := 1; k < len(p); k++ {
			require.Equal(t, sp.Net.Edges[p[k-1]].To, sp.Net.Edges[p[k]].From)
		}
		require.True(t, simple(sp, p))
		if rt.Name() == "shortest" {
			require.Equal(t, sp.distTo(dst)[src], len(p))
		}
	})
}

// The meeting searches keep their promises: meetAllRoute's path meets every other
// worm on edges below the limit; meetRoute's meets as many as it reports.
func TestMeetingRoutes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp := drawSpace(t)
		s := drawSet(t, sp)
		c, _ := measures(sp, s)
		limit := rapid.IntRange(0, c+1).Draw(t, "limit")
		src := rapid.SampledFrom(sp.Sources).Draw(t, "src")
		dst := rapid.SampledFrom(sp.Dests).Draw(t, "dst")
		r := newRand(rapid.Uint64().Draw(t, "seed"))
		load := sp.loads(s)
		met := func(p []int) int {
			seen := map[int]bool{}
			for _, e := range p {
				for i, w := range s.Worms {
					if slices.Contains(w.Path, e) {
						seen[i] = true
					}
				}
			}
			return len(seen)
		}
		if p, ok := meetAllRoute(sp, s, -1, src, dst, limit, dfsBudget, r); ok {
			require.Equal(t, len(s.Worms), met(p))
			for _, e := range p {
				require.True(t, limit <= 0 || load[e] < limit)
			}
		}
		if p, k, ok := meetRoute(sp, s, -1, src, dst, limit, r); ok {
			require.Equal(t, k, met(p))
			require.True(t, simple(sp, p))
			for _, e := range p {
				require.True(t, limit <= 0 || load[e] < limit)
			}
		}
	})
}
