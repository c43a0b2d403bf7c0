package lower_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"pgregory.net/rapid"
)

// Every bound of lower.Bounds is at most the optimum on generated instances larger
// than the exhaustive search reaches (up to 10 worms of up to 4 flits on lines,
// trees, meshes, tori and butterflies), the optimum proven by the SAT solver. A
// bound above a proven optimum is a bug in its proof. The log counts how often
// lower.Best, and the model's bounds alone, fall short of the optimum
// (-rapid.checks=1000 for a survey). Where the disjunctive search of Disjunctive
// finishes, it is an exact solver written independently of the SAT encoding, and
// the two optima must agree.
func TestBoundsBelowSolverOptimum(t *testing.T) {
	specs := []instances.Spec{
		{Kind: "line", Size: 6}, {Kind: "kary-tree", K: 2, Depth: 3}, {Kind: "mesh", Sides: []int{3, 3}},
		{Kind: "torus", Sides: []int{3, 3}}, {Kind: "butterfly", Size: 8}, {Kind: "tree", Size: 9},
	}
	solved, gaps, modelGaps, agreed := 0, 0, 0, 0
	rapid.Check(t, func(t *rapid.T) {
		sp := specs[rapid.IntRange(0, len(specs)-1).Draw(t, "network")]
		sp.Messages = rapid.IntRange(2, 10).Draw(t, "messages")
		sp.Flits = rapid.IntRange(1, 4).Draw(t, "flits")
		sp.Seed = rapid.Uint64().Draw(t, "seed")
		in, err := instances.Generate(sp)
		require.NoError(t, err)
		if len(in.Messages) == 0 {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, err := optimal.Solve(ctx, in, optimal.Options{Model: model.Wormhole, NoClique: true})
		cancel()
		require.NoError(t, err)
		if !res.Optimal {
			return
		}
		solved++
		if v, exact := lower.Disjunctive(in, 0, 200000); exact {
			require.Equal(t, res.Schedule.Makespan, v, "%s: the disjunctive program searched to the end against SAT", in.Name)
			agreed++
		}
		if lower.Best(in).Value < res.Schedule.Makespan {
			gaps++
		}
		if in.LowerBound().Value < res.Schedule.Makespan {
			modelGaps++
		}
		for _, b := range lower.Bounds(in) {
			if b.Value > res.Schedule.Makespan {
				t.Fatalf("%s: bound %s = %d above the proven optimum %d (%s)", in.Name, b.Name, b.Value, res.Schedule.Makespan, b.Detail)
			}
		}
	})
	t.Logf("%d instances solved to optimality; below the optimum: lower.Best on %d, the model's bounds on %d; exact disjunctive search agreed with SAT on %d", solved, gaps, modelGaps, agreed)
}
