package optimal

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// tinyInstance draws a few worms on random walks (no edge twice) in a small complete
// digraph, so that paths share edges in every pattern: runs, gaps, reversed order.
func tinyInstance(t *rapid.T, maxWorms, maxD, maxL int) *model.Instance {
	net := &model.Network{}
	nodes := rapid.IntRange(2, 4).Draw(t, "nodes")
	for v := 0; v < nodes; v++ {
		net.AddNode(fmt.Sprintf("n%d", v))
	}
	for a := 0; a < nodes; a++ {
		for b := 0; b < nodes; b++ {
			if a != b {
				net.AddEdge(a, b)
			}
		}
	}
	in := &model.Instance{Name: "tiny", Net: net, Flits: 1}
	worms := rapid.IntRange(1, maxWorms).Draw(t, "worms")
	for i := 0; i < worms; i++ {
		u := rapid.IntRange(0, nodes-1).Draw(t, fmt.Sprintf("src%d", i))
		d := rapid.IntRange(1, maxD).Draw(t, fmt.Sprintf("d%d", i))
		var path []int
		used := map[int]bool{}
		for k := 0; k < d; k++ {
			var choices []int
			for _, e := range net.Out(u) {
				if !used[e] {
					choices = append(choices, e)
				}
			}
			if len(choices) == 0 {
				break
			}
			e := choices[rapid.IntRange(0, len(choices)-1).Draw(t, fmt.Sprintf("hop%d_%d", i, k))]
			used[e] = true
			path = append(path, e)
			u = net.Edges[e].To
		}
		L := rapid.IntRange(1, maxL).Draw(t, fmt.Sprintf("L%d", i))
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: L, AsEdges: true})
	}
	return in
}

// TestOptimumMatchesExhaustive checks the theorem the package rests on: Solve's
// optimum, proven by an unsatisfiable formula one step shorter, equals the least
// makespan over every legal schedule (found by brute force and judged by the
// verifier), in both models, with and without the structural aids and the
// schedule search; and every
// returned schedule is legal.
func TestOptimumMatchesExhaustive(t *testing.T) {
	var checked, skipped atomic.Int64
	defer func() { t.Logf("%d instances compared, %d too large", checked.Load(), skipped.Load()) }()
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t, 4, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		aids := rapid.Bool().Draw(t, "aids")
		cp := rapid.Bool().Draw(t, "cp")
		res, err := Solve(context.Background(), in, Options{Model: modelName, NoSymmetry: !aids, NoClique: !aids, NoCards: !aids, NoCP: !cp})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, res.Schedule))
		require.Equal(t, modelName, res.Schedule.Model)
		require.True(t, res.Optimal)
		want, ok := brute.Optimum(in, modelName, res.Schedule.Makespan, 300000)
		if !ok {
			skipped.Add(1)
			t.Skip("search space too large")
		}
		checked.Add(1)
		require.Equal(t, want, res.Schedule.Makespan, "optimum")
		require.Equal(t, want, res.Lower)
	})
}
