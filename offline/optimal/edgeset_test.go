package optimal

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// TestEdgeSetSound checks the lemma of edgeset.go on tiny instances against the
// exhaustive optimum (exhaustive_test.go, judged by the verifier alone): for any
// set F of edges, the relaxation to F has a solution at every horizon T >= the
// optimum in the model, so the search never refutes such a T (nor finds an edge of
// F overloaded). Conversely, with F = every used edge the relaxation is the whole
// problem, so the search refutes T = optimum - 1 (when it applies): a check that
// the search can fail.
func TestEdgeSetSound(t *testing.T) {
	var checked, refuted atomic.Int64
	defer func() { t.Logf("%d instances compared, %d refutations of optimum - 1", checked.Load(), refuted.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt, ok := brute.Optimum(in, modelName, 40, 200000)
		if !ok {
			t.Skip("search space too large")
		}
		checked.Add(1)
		used := map[int]bool{}
		for _, m := range in.Messages {
			for _, e := range m.Path {
				used[e] = true
			}
		}
		var all, some []int
		for e := range in.Net.Edges {
			if used[e] {
				all = append(all, e)
				if rapid.Bool().Draw(t, fmt.Sprintf("F%d", e)) {
					some = append(some, e)
				}
			}
		}
		for _, fs := range [][]int{some, all} {
			for T := opt; T <= opt+1; T++ {
				s, trivial, ok := newEdgeSet(context.Background(), in, modelName, fs, T)
				require.False(t, trivial, "edges %v overloaded at feasible horizon %d", fs, T)
				if ok {
					require.False(t, s.refute(1<<16), "edges %v: feasible horizon %d (optimum %d) refuted", fs, T, opt)
				}
			}
		}
		if opt >= 2 {
			s, trivial, ok := newEdgeSet(context.Background(), in, modelName, all, opt-1)
			if trivial {
				refuted.Add(1)
			} else if ok {
				done := s.refute(1 << 20)
				if !s.aborted {
					require.True(t, done, "every edge: horizon %d below the optimum %d not refuted", opt-1, opt)
					refuted.Add(1)
				}
			}
		}
		v, _, err := subBound(context.Background(), in, modelName, 1, time.Second)
		require.NoError(t, err)
		require.LessOrEqual(t, v, opt, "subBound above the optimum")
	})
}

// TestEdgeSetFrontier pins the bound on the frontier instance of issue 16 (binary
// tree of depth 4, 125 random worms of 4 flits, testdata/kary-tree-d4-r128-f4.json):
// the edge bound is 148 (edge 1->0 carries 148 flits), and the three saturated
// edges 1->0, 0->2, 2->6 in series admit no bufferless schedule of makespan 148 or
// 149 (4751 and 26568 nodes, tens of milliseconds).
func TestEdgeSetFrontier(t *testing.T) {
	f, err := os.Open("testdata/kary-tree-d4-r128-f4.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	require.Equal(t, 148, in.LowerBound().Value)
	for _, m := range []string{model.Bufferless, model.Wormhole} {
		v, detail, err := subBound(context.Background(), in, m, 148, time.Minute)
		require.NoError(t, err)
		t.Logf("%s: %d (%s)", m, v, detail)
		require.Equal(t, 150, v, m)
	}
}

// TestEdgeSetSoundSolve checks the same lemma as TestEdgeSetSound on larger
// instances (up to 8 worms of up to 4 hops and 4 flits), with Solve's proven
// optimum (itself checked against the exhaustive one by TestOptimumMatchesExhaustive)
// as the oracle: no horizon at or above the optimum is refuted on any edge set,
// whether or not the dominance rule of dominators prunes (counted in the log).
func TestEdgeSetSoundSolve(t *testing.T) {
	var checked, dominated atomic.Int64
	defer func() { t.Logf("%d instances, %d with a dominance rule in use", checked.Load(), dominated.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 8, 4, 4)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt := oracleOptimum(t, in, modelName)
		checked.Add(1)
		notRefuted(t, in, modelName, drawEdges(t, in), opt, &dominated)
	})
}

// oracleOptimum is Solve's proven optimum without the edge-set bound (the bound
// under test), or a skip when it is not proven within 5 s.
func oracleOptimum(t *rapid.T, in *model.Instance, modelName string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := Solve(ctx, in, Options{Model: modelName, NoEdgeSet: true})
	require.NoError(t, err)
	if !res.Optimal {
		t.Skip("not solved in time")
	}
	return res.Schedule.Makespan
}

// drawEdges draws a set of used edges.
func drawEdges(t *rapid.T, in *model.Instance) []int {
	var fs []int
	for e, us := range in.Users() {
		if len(us) > 0 && rapid.Bool().Draw(t, fmt.Sprintf("F%d", e)) {
			fs = append(fs, e)
		}
	}
	return fs
}

// notRefuted requires that the search on edge set fs refutes none of the feasible
// horizons opt .. opt+2, and counts the instances where a dominance rule is in use.
func notRefuted(t *rapid.T, in *model.Instance, modelName string, fs []int, opt int, dominated *atomic.Int64) {
	for T := opt; T <= opt+2; T++ {
		s, trivial, ok := newEdgeSet(context.Background(), in, modelName, fs, T)
		require.False(t, trivial, "edges %v overloaded at feasible horizon %d", fs, T)
		if !ok {
			continue
		}
		for _, kd := range s.kinds {
			if len(kd.before) > 0 {
				dominated.Add(1)
				break
			}
		}
		require.False(t, s.refute(1<<16), "edges %v: feasible horizon %d (optimum %d) refuted", fs, T, opt)
	}
}

// seriesInstance draws up to maxWorms worms on a line of nodes (both directions), each
// a random sub-path: edges in series shared by many worms, the structure the
// edge-set bound is for, with the same shapes at different releases and path
// lengths (so the dominance rule prunes).
func seriesInstance(t *rapid.T, maxWorms int) *model.Instance {
	net := &model.Network{}
	nodes := rapid.IntRange(3, 6).Draw(t, "nodes")
	for v := 0; v < nodes; v++ {
		net.AddNode(fmt.Sprintf("n%d", v))
	}
	right := make([]int, nodes-1)
	left := make([]int, nodes-1)
	for v := 0; v+1 < nodes; v++ {
		right[v] = net.AddEdge(v, v+1)
		left[v] = net.AddEdge(v+1, v)
	}
	in := &model.Instance{Name: "line", Net: net, Flits: 1}
	worms := rapid.IntRange(2, maxWorms).Draw(t, "worms")
	for i := 0; i < worms; i++ {
		a := rapid.IntRange(0, nodes-1).Draw(t, fmt.Sprintf("a%d", i))
		b := rapid.IntRange(0, nodes-1).Draw(t, fmt.Sprintf("b%d", i))
		if a == b {
			continue
		}
		var path []int
		for v := a; v != b; {
			if v < b {
				path = append(path, right[v])
				v++
			} else {
				path = append(path, left[v-1])
				v--
			}
		}
		L := rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("L%d", i))
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: L, AsEdges: true})
	}
	return in
}

// TestEdgeSetSoundLine checks the lemma of edgeset.go (no horizon at or above the
// optimum is refuted, on any edge set; subBound never exceeds the optimum) on
// worms in series along a line, with Solve's proven optimum as the oracle.
func TestEdgeSetSoundLine(t *testing.T) {
	var checked, dominated, raised atomic.Int64
	defer func() {
		t.Logf("%d instances, %d with a dominance rule in use, %d where subBound beats the edge bound", checked.Load(), dominated.Load(), raised.Load())
	}()
	rapid.Check(t, func(t *rapid.T) {
		in := seriesInstance(t, 10)
		if len(in.Messages) == 0 {
			t.Skip("no worms")
		}
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt := oracleOptimum(t, in, modelName)
		checked.Add(1)
		notRefuted(t, in, modelName, drawEdges(t, in), opt, &dominated)
		for _, fs := range tightGroups(in, opt) {
			notRefuted(t, in, modelName, fs, opt, &dominated)
		}
		lb := in.LowerBound().Value
		v, _, err := subBound(context.Background(), in, modelName, lb, time.Second)
		require.NoError(t, err)
		require.LessOrEqual(t, v, opt, "subBound above the optimum")
		if v > lb {
			raised.Add(1)
		}
	})
}

// BenchmarkEdgeSetFrontier measures subBound on the frontier tree of
// TestEdgeSetFrontier (148 -> 150), per model.
func BenchmarkEdgeSetFrontier(b *testing.B) {
	f, err := os.Open("testdata/kary-tree-d4-r128-f4.json")
	require.NoError(b, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(b, err)
	for _, m := range []string{model.Bufferless, model.Wormhole} {
		b.Run(m, func(b *testing.B) {
			for b.Loop() {
				v, _, err := subBound(context.Background(), in, m, 148, time.Minute)
				require.NoError(b, err)
				require.Equal(b, 150, v)
			}
		})
	}
}

// Issue 27's 6x6 mesh of seed 1: its four tight edges at horizon 77 (slack 1
// each) are two pairs no message links, {2,2->3,2, 3,2->4,2} and {2,2->2,3,
// 4,2->3,2}. The relaxation to the four is the product of the pairs', and the
// search over it did not end within the node budget (the bound stayed at 77
// in the wormhole model); the pair {2,2->2,3, 4,2->3,2} alone has no wormhole
// solution at 77, so the bound is 78 in both models, the bufferless optimum,
// and the first pass's edgeSetFirst nodes reach it (solve.go: on this mesh the
// later pass, boundLater, has nothing left to do). docs/solver.md quotes the
// pair's nodes in both models from this search.
func TestEdgeSetGroupsUnlinkedEdges(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Routing: "random-shortest",
		Traffic: "random", Messages: 288, Flits: 4, Seed: 1})
	require.NoError(t, err)
	name := func(fs []int) (out []string) {
		for _, e := range fs {
			out = append(out, in.Net.EdgeName(e))
		}
		return out
	}
	groups := tightGroups(in, 77)
	require.Len(t, groups, 2)
	require.ElementsMatch(t, [][]string{{"2,2->3,2", "3,2->4,2"}, {"2,2->2,3", "4,2->3,2"}},
		[][]string{name(groups[0]), name(groups[1])})
	nodes := map[string]string{}
	for _, m := range []string{model.Wormhole, model.Bufferless} {
		v, detail, err := subBoundNodes(context.Background(), in, m, in.LowerBound().Value, edgeSetFirst)
		require.NoError(t, err)
		require.Equal(t, 78, v, m)
		require.Contains(t, detail, "2,2->2,3", m)
		var n int
		_, err = fmt.Sscanf(detail[strings.LastIndex(detail, "(exhaustive search, "):], "(exhaustive search, %d nodes)", &n)
		require.NoError(t, err, detail)
		nodes[m] = thousands(n)
	}
	doc, err := os.ReadFile("../../docs/solver.md")
	require.NoError(t, err)
	quote := fmt.Sprintf("the pair's search refutes 77 in %s nodes in the wormhole model and %s in the bufferless one", nodes[model.Wormhole], nodes[model.Bufferless])
	require.True(t, strings.Contains(strings.Join(strings.Fields(string(doc)), " "), quote), "docs/solver.md must say: %s", quote)
}

// thousands writes n with commas between groups of three digits, as the docs do.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// disjointUnion returns the instance of a's and b's messages on the union of their
// networks, b's nodes and edges renumbered after a's: no edge is shared.
func disjointUnion(a, b *model.Instance) *model.Instance {
	net := &model.Network{}
	for _, n := range a.Net.Nodes {
		net.AddNode("a" + n)
	}
	for _, n := range b.Net.Nodes {
		net.AddNode("b" + n)
	}
	for _, e := range a.Net.Edges {
		net.AddEdge(e.From, e.To)
	}
	nv, ne := len(a.Net.Nodes), len(a.Net.Edges)
	for _, e := range b.Net.Edges {
		net.AddEdge(nv+e.From, nv+e.To)
	}
	in := &model.Instance{Name: "union", Net: net, Flits: 1}
	for _, m := range a.Messages {
		in.Messages = append(in.Messages, model.Message{ID: "a" + m.ID, Path: slices.Clone(m.Path), L: m.L, AsEdges: true})
	}
	for _, m := range b.Messages {
		path := make([]int, len(m.Path))
		for k, e := range m.Path {
			path[k] = ne + e
		}
		in.Messages = append(in.Messages, model.Message{ID: "b" + m.ID, Path: path, L: m.L, AsEdges: true})
	}
	return in
}

// TestEdgeSetGroupsOfDisjointParts checks tightGroups' claim on instances whose
// optimum is known exhaustively although they are too large for the brute force:
// two tiny instances A and B on disjoint networks. Lemma: the union's optimum in
// a model is max(opt A, opt B) (no edge is shared: the two parts' schedules
// combine, and a schedule of the union restricts to each part), each found by
// brute force and judged by the verifier. The tight edges of the union fall into
// groups no message links (at least one per part with a tight edge), and the lemma
// of edgeset.go makes each group a relaxation: so no group is refuted at a horizon
// at or above the union's optimum, subBound never exceeds it, and Solve, with the
// edge-set bound on, proves exactly it with a verified schedule.
func TestEdgeSetGroupsOfDisjointParts(t *testing.T) {
	var checked, split, raised atomic.Int64
	defer func() {
		t.Logf("%d unions compared, %d with tight edges in two or more groups, %d where subBound beats the edge bound", checked.Load(), split.Load(), raised.Load())
	}()
	rapid.Check(t, func(t *rapid.T) {
		a, b := fixture.Walks(t, 4, 3, 3), fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		optA, okA := brute.Optimum(a, modelName, 40, 200000)
		optB, okB := brute.Optimum(b, modelName, 40, 200000)
		if !okA || !okB {
			t.Skip("search space too large")
		}
		in := disjointUnion(a, b)
		opt := max(optA, optB)
		checked.Add(1)
		groupsSound(t, in, modelName, opt, &split, &raised)
		res, err := Solve(context.Background(), in, Options{Model: modelName})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		require.True(t, res.Optimal)
		require.Equal(t, opt, res.Schedule.Makespan, "optimum")
		require.Equal(t, opt, res.Lower)
	})
}

// groupsSound checks the lemma of edgeset.go and tightGroups against in's
// optimum opt in modelName: no tight group is refuted at opt or opt+1, and
// subBound never exceeds opt. It counts in split the instances with two or more
// tight groups at opt-1, and in raised those where subBound beats the lower bound.
func groupsSound(t *rapid.T, in *model.Instance, modelName string, opt int, split, raised *atomic.Int64) {
	if len(tightGroups(in, opt-1)) >= 2 {
		split.Add(1)
	}
	for T := opt; T <= opt+1; T++ {
		for _, fs := range tightGroups(in, T) {
			notRefuted(t, in, modelName, fs, T, new(atomic.Int64))
		}
	}
	lb := in.LowerBound().Value
	v, detail, err := subBound(context.Background(), in, modelName, lb, time.Second)
	require.NoError(t, err)
	require.LessOrEqual(t, v, opt, "subBound above the optimum (%s)", detail)
	if v > lb {
		raised.Add(1)
	}
}

// TestEdgeSetUnlinkedProduct checks the lemma of tightGroups: the relaxation to
// a union of edge sets that no message links is the product of their
// relaxations (no job holds edges of both), so the search refutes the union at
// a horizon exactly when it refutes one of the sets. The sets are drawn on the
// two parts of a disjoint union (disjointUnion), at every horizon from 1 to the
// larger part's optimum; a search cut short by its budget is left out.
func TestEdgeSetUnlinkedProduct(t *testing.T) {
	var compared, refuted atomic.Int64
	defer func() { t.Logf("%d horizons compared, %d refuted", compared.Load(), refuted.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		a, b := fixture.Walks(t, 4, 3, 3), fixture.Walks(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		in := disjointUnion(a, b)
		var fa, fb []int
		for _, e := range drawEdges(t, in) {
			if e < len(a.Net.Edges) {
				fa = append(fa, e)
			} else {
				fb = append(fb, e)
			}
		}
		if len(fa) == 0 || len(fb) == 0 {
			t.Skip("one part without an edge")
		}
		opt := oracleOptimum(t, in, modelName)
		decide := func(fs []int, T int) (no, done bool) {
			s, trivial, ok := newEdgeSet(context.Background(), in, modelName, fs, T)
			if trivial {
				return true, true
			}
			if !ok {
				return false, false
			}
			no = s.refute(1 << 16)
			return no, !s.aborted
		}
		for T := 1; T <= opt; T++ {
			noA, doneA := decide(fa, T)
			noB, doneB := decide(fb, T)
			noAB, doneAB := decide(append(slices.Clone(fa), fb...), T)
			if !doneA || !doneB || !doneAB {
				continue
			}
			compared.Add(1)
			if noAB {
				refuted.Add(1)
			}
			require.Equal(t, noA || noB, noAB, "horizon %d: edges %v refuted %v, %v refuted %v, together %v", T, fa, noA, fb, noB, noAB)
		}
	})
}

// TestEdgeSetSoundMeshes checks the lemma of edgeset.go and tightGroups on small
// instances of issue 27's family (meshes of 3x3 to 5x5 with random shortest
// paths and random traffic, 4 to 40 messages of 1 to 6 flits), with Solve's
// proven optimum without the edge-set bound as the oracle: no tight group is
// refuted at the optimum or one above, and subBound never exceeds the optimum,
// in both models.
func TestEdgeSetSoundMeshes(t *testing.T) {
	var checked, split, raised atomic.Int64
	defer func() {
		t.Logf("%d instances, %d with two or more tight groups at optimum - 1, %d where subBound beats the lower bound", checked.Load(), split.Load(), raised.Load())
	}()
	rapid.Check(t, func(t *rapid.T) {
		side := rapid.IntRange(3, 5).Draw(t, "side")
		in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{side, side}, Routing: "random-shortest",
			Traffic: "random", Messages: rapid.IntRange(4, 40).Draw(t, "messages"), Flits: rapid.IntRange(1, 6).Draw(t, "flits"),
			Seed: rapid.Uint64Range(1, 1<<20).Draw(t, "seed")})
		require.NoError(t, err)
		if len(in.Messages) == 0 {
			t.Skip("no worms")
		}
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt := oracleOptimum(t, in, modelName)
		checked.Add(1)
		groupsSound(t, in, modelName, opt, &split, &raised)
	})
}
