package optimal

import (
	"context"
	"fmt"
	"testing"

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
