package optimal

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// ringInstance draws up to 7 worms of up to 4 hops and 5 flits on a bidirected ring
// of 3 to 6 nodes, most of them clockwise, so that worms meet at many different
// offsets k_i - k_j and with few or many hops left after the shared edge.
func ringInstance(t *rapid.T) *model.Instance {
	net := &model.Network{}
	in := &model.Instance{Name: "ring", Net: net, Flits: 1}
	size := rapid.IntRange(3, 6).Draw(t, "ring size")
	for v := 0; v < size; v++ {
		net.AddNode(fmt.Sprint(v))
	}
	cw := make([]int, size)
	ccw := make([]int, size)
	for v := 0; v < size; v++ {
		cw[v], ccw[(v+1)%size] = net.AddLink(v, (v+1)%size)
	}
	worms := rapid.IntRange(2, 7).Draw(t, "worms")
	for i := 0; i < worms; i++ {
		v := rapid.IntRange(0, size-1).Draw(t, fmt.Sprintf("start%d", i))
		d := rapid.IntRange(1, min(4, size-1)).Draw(t, fmt.Sprintf("hops%d", i))
		clockwise := rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("clockwise%d", i)) > 0
		var path []int
		for k := 0; k < d; k++ {
			if clockwise {
				path = append(path, cw[v])
				v = (v + 1) % size
			} else {
				path = append(path, ccw[v])
				v = (v - 1 + size) % size
			}
		}
		L := rapid.IntRange(1, 5).Draw(t, fmt.Sprintf("L%d", i))
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: L})
	}
	return in
}

// The aligned-clique lemma of clique.go, for every clique that cliques finds (the
// users of each edge and the cliques grown across edges, not only the best): its
// Jackson value is at most the optimum of its model, the optimum proven by the
// formula alone (every structural aid off, so the lemma is not assumed). And with
// the aids on (the clique bound and the cardinality constraints of card.go, which
// rest on the same lemma) Solve finds the same optimum.
func TestCliqueLemmaBelowOptimum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := ringInstance(t)
		for _, mn := range []string{model.Wormhole, model.Bufferless} {
			plain, err := Solve(context.Background(), in, Options{Model: mn, NoClique: true, NoCards: true, NoSymmetry: true})
			require.NoError(t, err)
			require.True(t, plain.Optimal)
			require.NoError(t, verify.Schedule(in, plain.Schedule))
			opt := plain.Schedule.Makespan
			for _, c := range cliques(in, mn) {
				if c.value > opt {
					t.Fatalf("%s: clique %+v (edge %v) has Jackson value %d above the optimum %d", mn, c.jobs, c.edge, c.value, opt)
				}
			}
			aided, err := Solve(context.Background(), in, Options{Model: mn})
			require.NoError(t, err)
			require.True(t, aided.Optimal)
			require.NoError(t, verify.Schedule(in, aided.Schedule))
			require.Equal(t, opt, aided.Schedule.Makespan, "%s: the aids change the optimum", mn)
		}
	})
}

// The wormhole condition of the aligned-clique lemma (L_i >= d_i - k_i at the shared
// edge: the tail is still on it when the head arrives) is needed. Found by rapid
// with the condition removed from cliques: m0, m3 and m4 pairwise share an edge at
// offsets that agree with the potentials (1, 1, 2), but m0 meets m4 on its 2nd of 4
// edges with one flit, so after its tail leaves that edge it may still wait, and
// the blocks at the ends of the deliveries need not be disjoint. Their Jackson
// value is 6, the wormhole optimum 5. With the condition, cliques leaves this set
// out; in the bufferless model, where the lemma needs no condition, it holds.
func TestCliqueWormholeCondition(t *testing.T) {
	f, err := os.Open("testdata/clique-wormhole-condition.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	opt := map[string]int{}
	for _, mn := range []string{model.Wormhole, model.Bufferless} {
		res, err := Solve(context.Background(), in, Options{Model: mn, NoClique: true, NoCards: true, NoSymmetry: true})
		require.NoError(t, err)
		require.True(t, res.Optimal)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		opt[mn] = res.Schedule.Makespan
		for _, c := range cliques(in, mn) {
			require.LessOrEqual(t, c.value, opt[mn], "%s: clique %+v", mn, c.jobs)
		}
	}
	require.Equal(t, 5, opt[model.Wormhole])

	members, pot := []int{0, 3, 4}, []int{1, 1, 2}
	m0 := &in.Messages[0]
	require.Less(t, m0.L, len(m0.Path)-2, "m0 meets m4 at hop 2 with more than L hops left")
	jobs := func(mn string) []job {
		var js []job
		for x, i := range members {
			js = append(js, makeJob(mn, &in.Messages[i], i, pot[x], 0, false))
		}
		return js
	}
	assert.Equal(t, 6, jackson(jobs(model.Wormhole)), "without the condition the wormhole bound would overshoot")
	assert.LessOrEqual(t, jackson(jobs(model.Bufferless)), opt[model.Bufferless])
}

// TestCliquesKeyedByIndex: cliques records each grown clique once, keyed by
// its members' indices, and two different cliques are two keys whatever the
// indices: 55,296 worms on parallel edges of their own, then two triangles of
// worms sharing one edge each, indices from 0xD800 on (a rune's surrogate
// range, where a key of runes, string(rune(m)), wrote U+FFFD for every
// member, so the second triangle had the first's key and was dropped).
func TestCliquesKeyedByIndex(t *testing.T) {
	net := &model.Network{}
	a, b := net.AddNode("a"), net.AddNode("b")
	in := &model.Instance{Name: "surrogates", Net: net, Flits: 1}
	for i := range 0xD800 {
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprint("f", i), Path: []int{net.AddEdge(a, b)}, L: 1, AsEdges: true})
	}
	for g := range 2 {
		e := net.AddEdge(a, b)
		for k := range 3 {
			in.Messages = append(in.Messages, model.Message{ID: fmt.Sprint("t", g, k), Path: []int{e}, L: 1, AsEdges: true})
		}
	}
	require.NoError(t, in.Validate())
	grown := 0
	for _, c := range cliques(in, model.Bufferless) {
		if !c.edge {
			grown++
			require.Len(t, c.jobs, 3)
		}
	}
	require.Equal(t, 2, grown, "one grown clique per triangle")
}
