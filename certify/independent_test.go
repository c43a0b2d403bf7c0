package certify

// A second encoding of "is there a legal schedule of makespan at most T?", written
// from MODEL.md alone and deliberately naive (time-indexed: one variable per
// message, hop and step), to test optimal.Encode, the weak link of a refutation
// certificate: a proof only shows that the formula is unsatisfiable, so the formula
// must be unsatisfiable exactly when no schedule exists.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/crillab/gophersat/solver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// timeIndexed is the CNF: y(i, k, t) says "the head of message i crosses its k-th
// edge in step t" (in the bufferless model only k = 1 is a variable: t_k = t_1 + k - 1).
//
//   - windows: t_k in [k, T - (d - k) - (L - 1)], because t_1 >= 1, the t_k increase,
//     and the delivery t_d + L - 1 must be at most T;
//   - exactly one t per (i, k): one clause "some t", one binary clause per pair;
//   - wormhole order: t_k < t_{k+1}, a binary clause per pair of steps that breaks it;
//   - no edge held by two messages at once (MODEL.md legality rule 2): message i
//     makes its m-th move in step M(m) = t_m for m <= d and t_d + (m - d) after
//     (draining), and holds e_k exactly at the times [M(k), M(k + L) - 1]. For every
//     two messages sharing an edge, every combination of the (at most four) crossing
//     times that fixes both holding intervals and makes them intersect is excluded
//     by one clause.
type timeIndexed struct {
	in      *model.Instance
	model   string
	T       int
	vars    int
	clauses [][]int
	y       map[[3]int]int // (message, hop, step) -> variable
	lo, hi  map[[2]int]int // window of (message, hop)
}

func encodeTimeIndexed(in *model.Instance, modelName string, T int) *timeIndexed {
	f := &timeIndexed{in: in, model: modelName, T: T, y: map[[3]int]int{}, lo: map[[2]int]int{}, hi: map[[2]int]int{}}
	for i := range in.Messages {
		m := &in.Messages[i]
		d := len(m.Path)
		hops := d
		if modelName == model.Bufferless {
			hops = 1
		}
		for k := 1; k <= hops; k++ {
			lo, hi := k, T-(d-k)-(m.L-1)
			f.lo[[2]int{i, k}], f.hi[[2]int{i, k}] = lo, hi
			var some []int
			for t := lo; t <= hi; t++ {
				f.vars++
				f.y[[3]int{i, k, t}] = f.vars
				some = append(some, f.vars)
			}
			f.clauses = append(f.clauses, some) // empty when the window is: unsatisfiable
			for a := 0; a < len(some); a++ {
				for b := a + 1; b < len(some); b++ {
					f.clauses = append(f.clauses, []int{-some[a], -some[b]})
				}
			}
		}
		if modelName == model.Wormhole {
			for k := 1; k < d; k++ {
				for t := f.lo[[2]int{i, k}]; t <= f.hi[[2]int{i, k}]; t++ {
					for u := f.lo[[2]int{i, k + 1}]; u <= min(t, f.hi[[2]int{i, k + 1}]); u++ {
						f.clauses = append(f.clauses, []int{-f.y[[3]int{i, k, t}], -f.y[[3]int{i, k + 1, u}]})
					}
				}
			}
		}
	}
	for e, us := range in.Users() {
		for a := 0; a < len(us); a++ {
			for b := a + 1; b < len(us); b++ {
				f.exclude(e, us[a], us[b])
			}
		}
	}
	return f
}

// key is the crossing-time variable family that fixes move m of message i.
func (f *timeIndexed) key(i, m int) [2]int {
	d := len(f.in.Messages[i].Path)
	if f.model == model.Bufferless {
		return [2]int{i, 1}
	}
	return [2]int{i, min(m, d)}
}

// move is the step of move m of message i given the crossing times chosen.
func (f *timeIndexed) move(i, m int, val map[[2]int]int) int {
	d := len(f.in.Messages[i].Path)
	if f.model == model.Bufferless {
		return val[[2]int{i, 1}] + m - 1 // t_m = t_1 + m - 1, and draining continues one a step
	}
	if m <= d {
		return val[[2]int{i, m}]
	}
	return val[[2]int{i, d}] + m - d
}

func (f *timeIndexed) exclude(e int, ua, ub model.Use) {
	i, j := ua.Msg, ub.Msg
	ka, kb := ua.Pos+1, ub.Pos+1
	li, lj := f.in.Messages[i].L, f.in.Messages[j].L
	var keys [][2]int
	for _, k := range [][2]int{f.key(i, ka), f.key(i, ka+li), f.key(j, kb), f.key(j, kb+lj)} {
		if !containsKey(keys, k) {
			keys = append(keys, k)
		}
	}
	val := map[[2]int]int{}
	var rec func(n int)
	rec = func(n int) {
		if n < len(keys) {
			k := keys[n]
			for t := f.lo[k]; t <= f.hi[k]; t++ {
				val[k] = t
				rec(n + 1)
			}
			return
		}
		// Combinations that break t_k < t_{k'} within a message are excluded by the
		// order clauses already.
		for _, a := range keys {
			for _, b := range keys {
				if a[0] == b[0] && a[1] < b[1] && val[a] >= val[b] {
					return
				}
			}
		}
		si, ei := f.move(i, ka, val), f.move(i, ka+li, val)-1
		sj, ej := f.move(j, kb, val), f.move(j, kb+lj, val)-1
		if si <= ej && sj <= ei {
			c := make([]int, len(keys))
			for x, k := range keys {
				c[x] = -f.y[[3]int{k[0], k[1], val[k]}]
			}
			f.clauses = append(f.clauses, c)
		}
	}
	rec(0)
}

func containsKey(ks [][2]int, k [2]int) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// decode reads the schedule off a model of the formula.
func (f *timeIndexed) decode(value func(v int) bool) *model.Schedule {
	cross := make([][]int, len(f.in.Messages))
	for i := range f.in.Messages {
		d := len(f.in.Messages[i].Path)
		cross[i] = make([]int, d)
		for k := 1; k <= d; k++ {
			key := f.key(i, k)
			for t := f.lo[key]; t <= f.hi[key]; t++ {
				if value(f.y[[3]int{key[0], key[1], t}]) {
					cross[i][k-1] = t
					if f.model == model.Bufferless {
						cross[i][k-1] = t + k - 1
					}
				}
			}
		}
	}
	return model.NewSchedule(f.in, f.model, cross)
}

// sat solves a CNF with gophersat and returns the model's value function.
func sat(vars int, clauses [][]int) (bool, func(v int) bool) {
	cs := make([][]int, len(clauses))
	for i, c := range clauses {
		cs[i] = append([]int(nil), c...)
	}
	s := solver.New(solver.ParseSliceNb(cs, vars))
	if s.Solve() != solver.Sat {
		return false, nil
	}
	m := s.Model()
	return true, func(v int) bool { return v >= 1 && v <= len(m) && m[v-1] }
}

// smallInstance draws a tiny instance: a few messages of length 1-3 on a 2x2 or
// 2x3 mesh, a small tree, a line, or a bundle of worms on overlapping stretches of
// one line (the all-conflict family).
func smallInstance(t *rapid.T, maxMsgs int) *model.Instance {
	in := &model.Instance{Name: "small", Net: &model.Network{}}
	n := in.Net
	kind := rapid.SampledFrom([]string{"mesh", "tree", "line", "bundle"}).Draw(t, "kind")
	var paths [][]int
	switch kind {
	case "line", "bundle":
		size := rapid.IntRange(3, 5).Draw(t, "size")
		for v := 0; v < size; v++ {
			n.AddNode(fmt.Sprint(v))
		}
		for v := 0; v+1 < size; v++ {
			n.AddEdge(v, v+1)
		}
		msgs := rapid.IntRange(2, maxMsgs).Draw(t, "messages")
		for x := 0; x < msgs; x++ {
			a := rapid.IntRange(0, size-2).Draw(t, "from")
			b := rapid.IntRange(a+1, size-1).Draw(t, "to")
			if kind == "bundle" {
				a, b = 0, rapid.IntRange(1, size-1).Draw(t, "to")
			}
			var p []int
			for v := a; v < b; v++ {
				p = append(p, v)
			}
			paths = append(paths, p)
		}
	case "mesh", "tree":
		// An undirected graph as pairs of edges; paths are random simple walks.
		var links [][2]int
		if kind == "mesh" {
			w := rapid.IntRange(2, 3).Draw(t, "w")
			for v := 0; v < 2*w; v++ {
				n.AddNode(fmt.Sprint(v))
			}
			for r := 0; r < 2; r++ {
				for c := 0; c < w; c++ {
					v := r*w + c
					if c+1 < w {
						links = append(links, [2]int{v, v + 1})
					}
					if r == 0 {
						links = append(links, [2]int{v, v + w})
					}
				}
			}
		} else {
			size := rapid.IntRange(3, 6).Draw(t, "size")
			n.AddNode("0")
			for v := 1; v < size; v++ {
				n.AddNode(fmt.Sprint(v))
				links = append(links, [2]int{rapid.IntRange(0, v-1).Draw(t, "parent"), v})
			}
		}
		for _, l := range links {
			n.AddLink(l[0], l[1])
		}
		msgs := rapid.IntRange(2, maxMsgs).Draw(t, "messages")
		for x := 0; x < msgs; x++ {
			at := rapid.IntRange(0, len(n.Nodes)-1).Draw(t, "source")
			hops := rapid.IntRange(1, 3).Draw(t, "hops")
			seen := map[int]bool{at: true}
			var p []int
			for h := 0; h < hops; h++ {
				var outs []int
				for _, e := range n.Out(at) {
					if !seen[n.Edges[e].To] {
						outs = append(outs, e)
					}
				}
				if len(outs) == 0 {
					break
				}
				e := outs[rapid.IntRange(0, len(outs)-1).Draw(t, "edge")]
				p = append(p, e)
				at = n.Edges[e].To
				seen[at] = true
			}
			if len(p) > 0 {
				paths = append(paths, p)
			}
		}
	}
	if len(paths) == 0 {
		t.Skip("no paths")
	}
	for x, p := range paths {
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", x), Path: p, L: rapid.IntRange(1, 3).Draw(t, "L")})
	}
	in.Flits = 1
	if err := in.Validate(); err != nil {
		t.Fatalf("generated instance: %v", err)
	}
	return in
}

// Property (the encoder's correctness, the weak link of a refutation
// certificate): for every horizon T from 1 to two steps past the optimum,
// optimal.Encode(in, model, T) is satisfiable iff the time-indexed encoding written
// from MODEL.md is, and every model of either decodes to a schedule that
// verify.Schedule accepts with makespan at most T. Checked in both models over
// random tiny instances, with the wormhole optimum at most the bufferless one
// (MODEL.md: a bufferless schedule is a wormhole schedule), and optimal.Solve
// finds both optima.
func TestEncodeAgreesWithTimeIndexed(t *testing.T) {
	maxMsgs := 4
	if !testing.Short() && os.Getenv("WORMLAB_LONG") != "" {
		maxMsgs = 6 // with -rapid.checks=N for a longer run
	}
	rapid.Check(t, func(t *rapid.T) {
		in := smallInstance(t, maxMsgs)
		w := agree(t, in, model.Wormhole)
		b := agree(t, in, model.Bufferless)
		if w > b {
			t.Fatalf("wormhole optimum %d above the bufferless optimum %d\n%s", w, b, dump(in))
		}
		// And the solver's search (incremental, with its own bounds) finds them.
		for m, want := range map[string]int{model.Wormhole: w, model.Bufferless: b} {
			res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: m})
			if err != nil {
				t.Fatalf("%s: optimal.Solve: %v", m, err)
			}
			if !res.Optimal || res.Schedule.Makespan != want {
				t.Fatalf("%s: optimal.Solve makespan %d optimal %v, time-indexed optimum %d\n%s", m, res.Schedule.Makespan, res.Optimal, want, dump(in))
			}
		}
	})
}

// Known optima: two worms of L flits on one edge need 2L steps (the edge bound),
// in both models; a worm of L = 3 behind another on a 2-hop line with a shared
// last edge: the time-indexed search finds the pipelined optimum.
func TestTimeIndexedKnown(t *testing.T) {
	n := &model.Network{}
	for _, v := range []string{"a", "b", "c"} {
		n.AddNode(v)
	}
	n.AddEdge(0, 1)
	n.AddEdge(1, 2)
	two := &model.Instance{Name: "two", Net: n, Flits: 2, Messages: []model.Message{
		{ID: "x", Path: []int{0}, L: 2}, {ID: "y", Path: []int{0}, L: 2}}}
	require.NoError(t, two.Validate())
	for _, m := range []string{model.Wormhole, model.Bufferless} {
		assert.Equal(t, 4, agree(t, two, m), m)
	}
	// x: a->b->c with L = 3 (delivered at 4 alone); y: b->c with L = 1. y first:
	// y holds b->c at time 1, x's head crosses b->c in step 2 at the earliest:
	// t = (1, 2), delivered at 2 + 3 - 1 = 4. Optimum 4 in both models.
	chain := &model.Instance{Name: "chain", Net: n, Flits: 1, Messages: []model.Message{
		{ID: "x", Path: []int{0, 1}, L: 3}, {ID: "y", Path: []int{1}, L: 1}}}
	require.NoError(t, chain.Validate())
	for _, m := range []string{model.Wormhole, model.Bufferless} {
		assert.Equal(t, 4, agree(t, chain, m), m)
	}
}

func agree(t interface {
	Fatalf(string, ...any)
}, in *model.Instance, modelName string) (optimum int) {
	serial := 0
	for i := range in.Messages {
		serial += len(in.Messages[i].Path) + in.Messages[i].L
	}
	optimum = -1
	for T := 1; T <= serial && (optimum < 0 || T <= optimum+2); T++ {
		ti := encodeTimeIndexed(in, modelName, T)
		okTI, valTI := sat(ti.vars, ti.clauses)
		f, err := optimal.Encode(in, modelName, T)
		if err != nil {
			t.Fatalf("Encode T=%d: %v", T, err)
		}
		okE, valE := sat(f.Vars, f.Clauses)
		if okTI != okE {
			t.Fatalf("%s T=%d: time-indexed satisfiable %v, optimal.Encode %v\n%s", modelName, T, okTI, okE, dump(in))
		}
		if !okTI {
			if optimum >= 0 {
				t.Fatalf("%s: T=%d infeasible after T=%d feasible", modelName, T, optimum)
			}
			continue
		}
		if optimum < 0 {
			optimum = T
		}
		for name, s := range map[string]*model.Schedule{"time-indexed": ti.decode(valTI)} {
			if err := verify.Schedule(in, s); err != nil || s.Makespan > T {
				t.Fatalf("%s T=%d: %s schedule (makespan %d): %v", modelName, T, name, s.Makespan, err)
			}
		}
		s, err := f.Decode(valE)
		if err != nil {
			t.Fatalf("%s T=%d: Decode: %v", modelName, T, err)
		}
		if err := verify.Schedule(in, s); err != nil || s.Makespan > T {
			t.Fatalf("%s T=%d: optimal.Encode schedule (makespan %d): %v", modelName, T, s.Makespan, err)
		}
	}
	if optimum < 0 {
		t.Fatalf("%s: no horizon up to the serial schedule's %d is feasible\n%s", modelName, serial, dump(in))
	}
	return optimum
}

func dump(in *model.Instance) string {
	var b strings.Builder
	if err := model.WriteInstance(&b, in); err != nil {
		return err.Error()
	}
	return b.String()
}
