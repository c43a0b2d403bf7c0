package optimal

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/brute"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// someMesh draws a mesh of side 3 to 5 with at most maxWorms worms of at
// most maxL flits (meshInstance), and skips the case when it has none.
func someMesh(t *rapid.T, maxWorms, maxL int) *model.Instance {
	in := meshInstance(t, rapid.IntRange(3, 5).Draw(t, "side"), maxWorms, maxL)
	if len(in.Messages) == 0 {
		t.Skip("no worms")
	}
	return in
}

// meshInstance draws worms on XY (row first) paths of a small mesh, so that many
// share runs of edges, the case of seed 002, section 4.4.
func meshInstance(t *rapid.T, side, maxWorms, maxL int) *model.Instance {
	net := &model.Network{}
	id := func(x, y int) int { return net.AddNode(fmt.Sprintf("%d,%d", x, y)) }
	for x := 0; x < side; x++ {
		for y := 0; y < side; y++ {
			id(x, y)
		}
	}
	for x := 0; x < side; x++ {
		for y := 0; y < side; y++ {
			if x+1 < side {
				net.AddLink(id(x, y), id(x+1, y))
			}
			if y+1 < side {
				net.AddLink(id(x, y), id(x, y+1))
			}
		}
	}
	in := &model.Instance{Name: "mesh", Net: net, Flits: 1}
	worms := rapid.IntRange(1, maxWorms).Draw(t, "worms")
	for i := 0; i < worms; i++ {
		sx, sy := rapid.IntRange(0, side-1).Draw(t, "sx"), rapid.IntRange(0, side-1).Draw(t, "sy")
		dx, dy := rapid.IntRange(0, side-1).Draw(t, "dx"), rapid.IntRange(0, side-1).Draw(t, "dy")
		if sx == dx && sy == dy {
			continue
		}
		var path []int
		x, y := sx, sy
		step := func(nx, ny int) {
			path = append(path, net.EdgesBetween(id(x, y), id(nx, ny))[0])
			x, y = nx, ny
		}
		for x != dx {
			if x < dx {
				step(x+1, y)
			} else {
				step(x-1, y)
			}
		}
		for y != dy {
			if y < dy {
				step(x, y+1)
			} else {
				step(x, y-1)
			}
		}
		L := rapid.IntRange(1, maxL).Draw(t, "L")
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: L})
	}
	return in
}

// TestModelOrder checks on small meshes the chain of MODEL.md and seed 002,
// section 4: every bufferless schedule is a wormhole schedule, so the wormhole
// optimum is at most the bufferless optimum, which is at most the makespan of any
// bufferless heuristic (Greedy, and the offline colorer's greedy colouring of
// section 4.2), and every optimum is at least every lower bound of the model and
// the aligned-clique bound of its model.
func TestModelOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 3, 8, 4)
		if len(in.Messages) == 0 {
			return
		}
		w, err := Solve(context.Background(), in, Options{Model: model.Wormhole})
		require.NoError(t, err)
		b, err := Solve(context.Background(), in, Options{Model: model.Bufferless})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, w.Schedule))
		require.NoError(t, verify.Schedule(in, b.Schedule))
		require.True(t, w.Optimal)
		require.True(t, b.Optimal)
		assert.LessOrEqual(t, w.Schedule.Makespan, b.Schedule.Makespan, "wormhole <= bufferless")
		g := mustGreedy(t, in)
		require.NoError(t, verify.Schedule(in, g), "the greedy upper bound must be legal")
		assert.LessOrEqual(t, b.Schedule.Makespan, g.Makespan, "bufferless <= greedy")
		col, err := offline.Color(in, offline.Options{Order: "any"})
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, col.Schedule))
		assert.LessOrEqual(t, b.Schedule.Makespan, col.Schedule.Makespan, "bufferless <= colorer")
		for _, lb := range in.LowerBounds() {
			assert.GreaterOrEqual(t, w.Schedule.Makespan, lb.Value, lb.Name)
		}
		assert.GreaterOrEqual(t, w.Schedule.Makespan, cliqueBound(in, model.Wormhole).value, "wormhole clique bound")
		assert.GreaterOrEqual(t, b.Schedule.Makespan, cliqueBound(in, model.Bufferless).value, "bufferless clique bound")
		// A colorer's schedule as the upper bound leads to the same optimum.
		u, err := Solve(context.Background(), in, Options{Model: model.Bufferless, Upper: col.Schedule})
		require.NoError(t, err)
		assert.Equal(t, b.Schedule.Makespan, u.Schedule.Makespan)
	})
}

// TestEncodeMatchesExhaustive checks Encode directly, as a certificate would use it:
// for every horizon T around the optimum, the formula is satisfiable iff a legal
// schedule of makespan <= T exists (the exhaustive search decides), and its models
// decode to legal schedules of makespan <= T.
func TestEncodeMatchesExhaustive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Walks(t, 3, 3, 3)
		modelName := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		opt, ok := brute.Optimum(in, modelName, mustGreedy(t, in).Makespan, 300000)
		if !ok {
			t.Skip("search space too large")
		}
		for T := max(1, opt-2); T <= opt+1; T++ {
			f, err := Encode(in, modelName, T)
			require.NoError(t, err)
			sat, value := bruteSolve(t, f)
			require.Equal(t, T >= opt, sat, "horizon %d, optimum %d", T, opt)
			if sat {
				s, err := f.Decode(value)
				require.NoError(t, err)
				require.NoError(t, verify.Schedule(in, s))
				require.LessOrEqual(t, s.Makespan, T)
			}
		}
	})
}

// bruteSolve decides a formula with gini, through the DIMACS text (so the writer is
// exercised too) and ReadAssignment-compatible output.
func bruteSolve(t *rapid.T, f *Formula) (bool, func(int) bool) {
	var b bytes.Buffer
	require.NoError(t, f.WriteDIMACS(&b))
	g, err := newSolverFromDIMACS(&b)
	require.NoError(t, err)
	if g.Solve() != 1 {
		return false, nil
	}
	var out strings.Builder
	out.WriteString("s SATISFIABLE\nv")
	for v := 1; v <= f.Vars; v++ {
		if g.value(v) {
			fmt.Fprintf(&out, " %d", v)
		} else {
			fmt.Fprintf(&out, " -%d", v)
		}
	}
	out.WriteString(" 0\n")
	value, err := ReadAssignment(strings.NewReader(out.String()), f.Vars)
	require.NoError(t, err)
	return true, value
}

// TestEncodeDeterministic: the same arguments give the same bytes (certificates hash
// them).
func TestEncodeDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 3, 10, 3)
		if len(in.Messages) == 0 {
			return
		}
		T := mustGreedy(t, in).Makespan
		var a, b bytes.Buffer
		f1, err := Encode(in, model.Wormhole, T)
		require.NoError(t, err)
		f2, err := Encode(in.Clone(), model.Wormhole, T)
		require.NoError(t, err)
		require.NoError(t, f1.WriteDIMACS(&a))
		require.NoError(t, f2.WriteDIMACS(&b))
		require.Equal(t, a.String(), b.String())
	})
}

func TestEncodeErrors(t *testing.T) {
	in := exampleInstance(t)
	_, err := Encode(in, "torus", 5)
	require.ErrorContains(t, err, `model "torus"`)
	_, err = Encode(in, model.Wormhole, 0)
	require.ErrorContains(t, err, "horizon 0")
	bad := in.Clone()
	bad.Messages[0].L = 0
	_, err = Encode(bad, model.Wormhole, 5)
	require.ErrorContains(t, err, `message "m0"`)
	// Below the dilation bound the formula holds the empty clause.
	f, err := Encode(in, model.Wormhole, 2)
	require.NoError(t, err)
	require.Equal(t, [][]int{{}}, f.Clauses)
	_, err = f.Decode(func(int) bool { return true })
	require.Error(t, err)
}

// TestCancelled: a cancelled search still returns a legal schedule and a proven
// lower bound, with optimal false unless the bounds met before any solver call.
func TestCancelled(t *testing.T) {
	in := exampleInstance(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Solve(ctx, in, Options{NoClique: true})
	require.NoError(t, err)
	require.NoError(t, verify.Schedule(in, res.Schedule))
	require.False(t, res.Optimal)
	require.Equal(t, 8, res.Schedule.Makespan) // the greedy schedule
	require.Equal(t, 7, res.Lower)
	require.Equal(t, 7, *res.Schedule.LowerBound)
	require.False(t, *res.Schedule.Optimal)
}

func TestUpperRejected(t *testing.T) {
	in := exampleInstance(t)
	waits := model.NewSchedule(in, model.Wormhole, [][]int{{1, 3}, {7}, {4, 5}})
	require.NoError(t, verify.Schedule(in, waits))
	_, err := Solve(context.Background(), in, Options{Model: model.Bufferless, Upper: waits})
	require.ErrorContains(t, err, `message "m0" waits`)
	illegal := model.NewSchedule(in, model.Wormhole, [][]int{{1, 2}, {1}, {1, 2}})
	_, err = Solve(context.Background(), in, Options{Upper: illegal})
	require.ErrorContains(t, err, "illegal")
}

func TestReadAssignment(t *testing.T) {
	v, err := ReadAssignment(strings.NewReader("c cadical\ns SATISFIABLE\nv 1 -2\nv 3 0\n"), 4)
	require.NoError(t, err)
	assert.True(t, v(1))
	assert.False(t, v(2))
	assert.True(t, v(3))
	assert.False(t, v(4))
	v, err = ReadAssignment(strings.NewReader("SAT\n-1 2 0\n"), 2)
	require.NoError(t, err)
	assert.True(t, v(2))
	for _, bad := range []string{"s UNSATISFIABLE\n", "UNSAT\n", "s SATISFIABLE\n", "v 1 -1 0\n", "v 1 x 0\n", "hello\n", "s UNKNOWN\n"} {
		_, err := ReadAssignment(strings.NewReader(bad), 4)
		assert.Error(t, err, bad)
	}
	_, err = ReadAssignment(strings.NewReader("s UNSATISFIABLE\n"), 4)
	assert.ErrorIs(t, err, ErrUnsatisfiable)
	// a variable above the formula's count is an answer to another formula:
	// refused naming the variable and the count (it was read as a value no
	// clause looks at)
	for _, bad := range []string{"v 1 -5 0\n", "v 99999999999 0\n", "SAT\n5 0\n"} {
		_, err := ReadAssignment(strings.NewReader(bad), 4)
		assert.ErrorContains(t, err, "above the formula's 4 variables", bad)
	}
	_, err = ReadAssignment(strings.NewReader("v 99999999999 0\n"), 4)
	assert.ErrorContains(t, err, "assignment: line 1: variable 99999999999, above the formula's 4 variables")
}

func FuzzReadAssignment(f *testing.F) {
	f.Add("s SATISFIABLE\nv 1 -2 0\n")
	f.Add("SAT\n1 2 -3 0\n")
	f.Add("c x\nv 0\n")
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ReadAssignment(strings.NewReader(s), math.MaxInt)
		if err == nil {
			_ = v(1)
		}
	})
}

// TestSymmetryFixesOrder: identical worms get no precedence variable, and the
// optimum is unchanged (checked against the search without symmetry breaking).
func TestSymmetryFixesOrder(t *testing.T) {
	in := exampleInstance(t) // m0 and m2 have the same path and length
	on, err := encode(in, model.Wormhole, 8, encodeOptions{symmetry: true})
	require.NoError(t, err)
	off, err := encode(in, model.Wormhole, 8, encodeOptions{})
	require.NoError(t, err)
	assert.Equal(t, off.Orders-1, on.Orders)
	assert.Equal(t, 1, on.Fixed)
	a, err := Solve(context.Background(), in, Options{})
	require.NoError(t, err)
	b, err := Solve(context.Background(), in, Options{NoSymmetry: true, NoClique: true, NoCards: true})
	require.NoError(t, err)
	assert.Equal(t, a.Schedule.Makespan, b.Schedule.Makespan)
}

func exampleInstance(t testing.TB) *model.Instance {
	in, err := model.ParseInstance([]byte(`{
  "name": "example",
  "network": {"nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]},
  "flits": 2,
  "messages": [
    {"id": "m0", "path": ["a", "b", "c"]},
    {"id": "m1", "path": ["b", "c"], "flits": 3},
    {"id": "m2", "edges": [0, 1]}
  ]
}`))
	require.NoError(t, err)
	return in
}
