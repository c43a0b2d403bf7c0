package optimal

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// exhaustiveOptimum returns the least makespan of a legal schedule of in in the
// model, found by enumerating every vector of head crossing times (every start delay
// in the bufferless model) up to limit, and judging each candidate with
// verify.Schedule alone. It shares nothing with the encoding. ok is false when the
// search space exceeds budget candidates per horizon.
func exhaustiveOptimum(in *model.Instance, modelName string, limit, budget int) (opt int, ok bool) {
	n := len(in.Messages)
	for T := 1; T <= limit; T++ {
		// options[i]: every crossing vector of message i delivered by T.
		options := make([][][]int, n)
		total := 1
		for i := range in.Messages {
			m := &in.Messages[i]
			options[i] = vectors(len(m.Path), T-m.L+1, modelName == model.Bufferless)
			total *= max(len(options[i]), 1)
			if total > budget {
				return 0, false
			}
		}
		empty := false
		for i := range options {
			if len(options[i]) == 0 {
				empty = true
			}
		}
		if empty {
			continue
		}
		idx := make([]int, n)
		for {
			cross := make([][]int, n)
			for i := range cross {
				cross[i] = options[i][idx[i]]
			}
			if verify.Schedule(in, model.NewSchedule(in, modelName, cross)) == nil {
				return T, true
			}
			x := 0
			for ; x < n; x++ {
				idx[x]++
				if idx[x] < len(options[x]) {
					break
				}
				idx[x] = 0
			}
			if x == n {
				break
			}
		}
	}
	return 0, false
}

// vectors lists the increasing vectors t_1 < ... < t_d of positive integers with
// t_d <= last; with noWait only t_k = t_1 + k - 1.
func vectors(d, last int, noWait bool) [][]int {
	var out [][]int
	if noWait {
		for t1 := 1; t1+d-1 <= last; t1++ {
			v := make([]int, d)
			for k := range v {
				v[k] = t1 + k
			}
			out = append(out, v)
		}
		return out
	}
	cur := make([]int, d)
	var rec func(k, from int)
	rec = func(k, from int) {
		if k == d {
			out = append(out, append([]int(nil), cur...))
			return
		}
		for t := from; t+(d-1-k) <= last; t++ {
			cur[k] = t
			rec(k+1, t+1)
		}
	}
	rec(0, 1)
	return out
}

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
		want, ok := exhaustiveOptimum(in, modelName, res.Schedule.Makespan, 300000)
		if !ok {
			skipped.Add(1)
			t.Skip("search space too large")
		}
		checked.Add(1)
		require.Equal(t, want, res.Schedule.Makespan, "optimum")
		require.Equal(t, want, res.Lower)
	})
}
