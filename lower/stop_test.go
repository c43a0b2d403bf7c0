package lower

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/model"
)

// worms writes n worms of L flits on each of the paths, in turn (m0 on the
// first path, m1 on the second, ...).
func worms(t *testing.T, n, l int, paths ...string) *model.Instance {
	var b strings.Builder
	b.WriteString(`{"network":{"edges":[["a","b"],["b","c"],["x","b"],["b","d"]]},"messages":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","path":%s,"flits":%d}`, i, paths[i%len(paths)], l)
	}
	b.WriteString(`]}`)
	in, err := model.ReadInstance(strings.NewReader(b.String()))
	require.NoError(t, err)
	return in
}

// Ctrl-C stops BoundsWithin within a second of CPU time on many worms sharing
// edges, whatever search it is in: here 4000 worms of 2 flits on a->b->c, b->c,
// x->b->c and a->b->d, one component of aligned conflicts in which a->b->d meets
// only a->b->c (not complete). The context ends once the thread has used 0.2 s;
// BoundsWithin must return by 1.2 s, Interrupted. Before the greedy clique, the
// searches' colour classes and DSATUR's first colouring looked at the context,
// they ran on for seconds (greedy: 64 starts of up to 3000 picks over 4000
// candidates; DSATUR: 4000 levels of 4000 rows).
func TestBoundsWithinStopsWithinASecond(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in := worms(t, 4000, 2, `["a","b","c"]`, `["b","c"]`, `["x","b","c"]`, `["a","b","d"]`)
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 200*time.Millisecond}
	r := BoundsWithin(ctx, in, Limits{Budget: DefaultBudget})
	end, _ := cputime.Thread()
	require.True(t, r.Interrupted)
	require.Less(t, end-start, 1200*time.Millisecond, "CPU time of BoundsWithin, cancelled at 0.2 s")
	for _, b := range r.Bounds {
		require.LessOrEqual(t, b.Value, 2*4000, "%s above the worms' flits on b->c... (%s)", b.Name, b.Detail)
	}
}

// stopAt returns a limit with work whose stop says to end from its (after+1)-th
// look on, and the count of looks.
func stopAt(after int) (limit, *int) {
	n := new(int)
	return limit{stop: func() bool { *n++; return *n > after }, work: &worked{}}, n
}

// With work, a clique, colouring or independence search with no node budget on a
// dense random graph (hours of search) ends at the look after the one that says
// stop, within stopCheck units of work, and returns valid bounds (a clique, a
// proper colouring, Upper above the best found); with a stop that never says so
// it gives what the search without one gives.
func TestSearchesStopOnWork(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := NewGraph(400)
	for u := range g.N {
		for v := u + 1; v < g.N; v++ {
			if rng.Float64() < 0.9 {
				g.AddEdge(u, v)
			}
		}
	}
	lim, n := stopAt(3)
	c := maxClique(g, nil, lim)
	require.False(t, c.Exact)
	require.True(t, g.IsClique(c.Clique))
	require.GreaterOrEqual(t, c.Upper, c.Weight)
	require.Equal(t, 4, *n, "looks after the stop")

	lim, n = stopAt(3)
	col := chromatic(g, lim)
	require.Equal(t, 4, *n)
	require.False(t, col.Exact)
	for u := 0; u < g.N; u++ {
		for _, v := range g.Neighbours(u) {
			require.NotEqual(t, col.Colour[u], col.Colour[v])
		}
	}
	lim, n = stopAt(3)
	is := maxIndependentSet(g.Complement(), lim)
	require.Equal(t, 4, *n)
	require.False(t, is.Exact)
	require.True(t, g.Complement().IsIndependent(is.Set))
	require.GreaterOrEqual(t, is.Upper, len(is.Set))

	small := g.Induced([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29})
	never := limit{nodes: 1000, stop: func() bool { return false }, work: &worked{}}
	require.Equal(t, MaxClique(small, nil, 1000), maxClique(small, nil, never))
	require.Equal(t, Chromatic(small, 1000), chromatic(small, never))
	require.Equal(t, MaxIndependentSet(small, 1000), maxIndependentSet(small, never))
}

// On n worms sharing one edge (a complete conflict graph) the aligned bounds
// take O(n^2 / 64) words of work, not the O(n^3) of the searches' first descents:
// the greedy clique stops at the root colouring bound, the colouring of a
// complete graph is given at once and the conflict graph is built row by row.
// Every message is in the clique, chi = n and alpha = 1.
func TestOneEdgeBoundsAreQuadratic(t *testing.T) {
	const n = 3000
	in := worms(t, n, 1, `["a","b"]`)
	looks := 0
	lim := limit{stop: func() bool { looks++; return false }, work: &worked{}}
	g := alignedConflicts(in, lim)
	b := []model.Bound{cliqueBound(in, g, lim), colouringBound(in, g, lim), independenceBound(in, g, lim)}
	for _, x := range b {
		require.Equal(t, n, x.Value, x.Detail)
	}
	// n^2 / 64 words is 140625 for n = 3000 and the looks come once per
	// stopCheck (about 10^6) units: a few dozen looks cover every pass over the
	// graph, where an O(n^3) pass (DSATUR's first colouring) would take 25000.
	require.Less(t, looks, 100, "looks at stop: work far above n^2")
}

// ctxLimit is the limit BoundsWithin gives the edge-sequence and disjunctive
// searches: stop once ctx is done, work counted between looks.
func ctxLimit(ctx interface{ Err() error }) limit {
	return limit{stop: func() bool { return ctx.Err() != nil }, work: &worked{}}
}

// Ctrl-C ends the edge-sequence bound within a second of CPU time, not after
// every edge: 3000 edges each carried by 8 one-hop worms of 2 flits, whose 8!
// orders are all equally good, so no pruning cuts the search of an edge (about a
// millisecond each, 2.7 s in all at 0.9 ms an edge; it looked at the context only
// before and after the whole bound). Cancelled once the thread has used 0.2 s,
// it must return by 1.2 s with a bound of edges searched whole (EdgeSequence of
// 8 worms of 2 flits on one edge: 16, the edge bound) and the edges left counted.
func TestSequenceBoundStopsWithinASecond(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const edges = 3000
	var b strings.Builder
	b.WriteString(`{"network":{"edges":[`)
	for e := range edges {
		if e > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `["a%d","b%d"]`, e, e)
	}
	b.WriteString(`]},"messages":[`)
	for i := range 8 * edges {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"m%d","path":["a%d","b%d"],"flits":2}`, i, i/8, i/8)
	}
	b.WriteString(`]}`)
	in, err := model.ReadInstance(strings.NewReader(b.String()))
	require.NoError(t, err)
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 200*time.Millisecond}
	sb, ok := sequenceBound(in, ctxLimit(ctx))
	end, _ := cputime.Thread()
	require.Less(t, end-start, 1200*time.Millisecond, "CPU time of sequenceBound, cancelled at 0.2 s")
	require.True(t, ok, "some edges searched before the stop")
	require.Equal(t, 16, sb.Value, sb.Detail)
	require.Contains(t, sb.Detail, "edges not searched")
	require.Error(t, ctx.Err())

	// uncancelled, on a few edges, the same bound and no edge left
	small := in.Users()[:3]
	for _, us := range small {
		v, ok := edgeSequence(in, us, ctxLimit(context.Background()))
		require.True(t, ok)
		require.Equal(t, EdgeSequence(in, us), v)
	}
}

// Ctrl-C ends the disjunctive search, which with no node budget (lower bounds
// --budget 0) has no end of its own: on a random tree of 60 nodes with 120 worms
// of 3 flits (2982 disjunctions) 2*10^6 nodes take 2.5 s of CPU and still end
// cut short, and the search looked at the context only before it began.
// Cancelled once the thread has used 0.2 s, it must return by 1.2 s, cut short,
// with a value at least the one it started from (every smaller makespan
// refuted).
func TestDisjunctiveStopsWithinASecond(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	in, err := instances.Generate(instances.Spec{Kind: "tree", Size: 60, Messages: 120, Flits: 3, Seed: 1})
	require.NoError(t, err)
	from := in.LowerBound().Value
	start := testctx.ThreadCPU(t)
	ctx := &testctx.Spent{Context: testctx.For(t), After: start + 200*time.Millisecond}
	db, ok := disjunctiveBound(in, from, 0, ctxLimit(ctx))
	end, _ := cputime.Thread()
	require.Less(t, end-start, 1200*time.Millisecond, "CPU time of the disjunctive search with no budget, cancelled at 0.2 s")
	require.True(t, ok)
	require.Contains(t, db.Detail, "cut short")
	require.GreaterOrEqual(t, db.Value, from)
	require.Error(t, ctx.Err())
}
