package verify_test

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// genInstance draws a small instance: a random directed multigraph (parallel edges
// allowed) and messages on random walks that use no edge twice. Message 1 starts on
// an edge of message 0's path, so at least two messages share an edge.
func genInstance(t *rapid.T) *model.Instance {
	net := &model.Network{}
	n := rapid.IntRange(2, 5).Draw(t, "nodes")
	for v := 0; v < n; v++ {
		net.AddNode(fmt.Sprintf("v%d", v))
	}
	ne := rapid.IntRange(n, 3*n).Draw(t, "edges")
	for e := 0; e < ne; e++ {
		from := rapid.IntRange(0, n-1).Draw(t, "from")
		to := rapid.IntRange(0, n-2).Draw(t, "to")
		if to >= from {
			to++
		}
		net.AddEdge(from, to)
	}
	in := &model.Instance{Name: "random", Net: net, Flits: 1}
	nm := rapid.IntRange(2, 6).Draw(t, "messages")
	for i := 0; i < nm; i++ {
		var first int
		if i == 1 {
			p0 := in.Messages[0].Path
			first = p0[rapid.IntRange(0, len(p0)-1).Draw(t, "shared")]
		} else {
			first = rapid.IntRange(0, ne-1).Draw(t, "first")
		}
		path := []int{first}
		used := map[int]bool{first: true}
		for len(path) < rapid.IntRange(1, 4).Draw(t, "d") {
			var next []int
			for _, e := range net.Out(net.Edges[path[len(path)-1]].To) {
				if !used[e] {
					next = append(next, e)
				}
			}
			if len(next) == 0 {
				break
			}
			e := next[rapid.IntRange(0, len(next)-1).Draw(t, "next")]
			used[e] = true
			path = append(path, e)
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path,
			L: rapid.IntRange(1, 4).Draw(t, "L"), AsEdges: true})
	}
	require.NoError(t, in.Validate())
	return in
}

// genWaits draws the gaps between a message's consecutive crossing times (0 = no
// wait), or all zeros when the message may not wait.
func genCross(t *rapid.T, start, d int, wait bool) []int {
	cross := make([]int, d)
	tk := start
	for k := range cross {
		if k > 0 && wait {
			tk += rapid.IntRange(0, 3).Draw(t, "wait")
		}
		cross[k] = tk + k
	}
	return cross
}

// makespan is max_i t_d + L_i - 1 (MODEL.md: the largest delivery time).
func makespan(in *model.Instance, cross [][]int) int {
	mk := 0
	for i, c := range cross {
		mk = max(mk, c[len(c)-1]+in.Messages[i].L-1)
	}
	return mk
}

func schedule(in *model.Instance, modelName string, cross [][]int) *model.Schedule {
	s := &model.Schedule{Model: modelName, Makespan: makespan(in, cross)}
	for i, c := range cross {
		tm := model.Times{ID: in.Messages[i].ID, Cross: c}
		if modelName == model.Bufferless {
			tm.Start = ptr(c[0] - 1)
		}
		s.Messages = append(s.Messages, tm)
	}
	return s
}

// genSerial draws a schedule in which the worms run one at a time in a random order:
// each starts (t_1) after the previous one is delivered (t_d + L - 1), waiting
// anywhere in the wormhole model and nowhere in the bufferless one.
func genSerial(t *rapid.T, in *model.Instance, modelName string) [][]int {
	order := rapid.Permutation(seq(len(in.Messages))).Draw(t, "order")
	cross := make([][]int, len(in.Messages))
	free := 0 // the previous delivery time
	for _, i := range order {
		start := free + 1 + rapid.IntRange(0, 2).Draw(t, "gap")
		cross[i] = genCross(t, start, len(in.Messages[i].Path), modelName == model.Wormhole)
		free = cross[i][len(cross[i])-1] + in.Messages[i].L - 1
	}
	return cross
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// MODEL.md, "Legality": a worm holds edges only between its head's first crossing
// and its delivery, so worms that run one at a time never share an edge; such
// schedules are legal in both models and their makespan is the last delivery.
func TestSerialSchedulesAreLegal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t)
		m := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		s := schedule(in, m, genSerial(t, in, m))
		require.NoError(t, verify.Schedule(in, s))
		require.Empty(t, verify.All(in, s))
	})
}

// conflictKey identifies a conflict: two messages (instance indices i < j) hold edge
// e at once, first at time t.
type conflictKey struct{ t, e, i, j int }

// occupancy simulates the schedule step by step with the rule of MODEL.md taken
// literally: the worm moves in steps t_1 .. t_d, then in every step while it drains,
// with one last move in step t_d + L; after step t, with h moves made, it holds e_k
// for max(1, h-L+1) <= k <= min(h, d). It returns the holders of each (edge, time).
func occupancy(in *model.Instance, cross [][]int) map[[2]int][]int {
	end := 0
	for i, c := range cross {
		end = max(end, c[len(c)-1]+in.Messages[i].L)
	}
	h := make([]int, len(cross))
	occ := map[[2]int][]int{}
	for t := 1; t <= end; t++ {
		for i, c := range cross {
			m := &in.Messages[i]
			d, l := len(m.Path), m.L
			// Step t: does the worm make its move number h+1?
			switch {
			case h[i] < d && c[h[i]] == t:
				h[i]++
			case h[i] >= d && h[i] < d+l:
				h[i]++
			}
			for k := max(1, h[i]-l+1); k <= min(h[i], d); k++ {
				key := [2]int{m.Path[k-1], t}
				occ[key] = append(occ[key], i)
			}
		}
	}
	return occ
}

// bruteConflicts returns, for every edge and pair of messages that hold it at the
// same time in the simulation, the first such time, sorted like verify.All.
func bruteConflicts(in *model.Instance, cross [][]int) []conflictKey {
	first := map[[3]int]int{}
	for et, hs := range occupancy(in, cross) {
		for a := 0; a < len(hs); a++ {
			for b := a + 1; b < len(hs); b++ {
				key := [3]int{et[0], min(hs[a], hs[b]), max(hs[a], hs[b])}
				if t, ok := first[key]; !ok || et[1] < t {
					first[key] = et[1]
				}
			}
		}
	}
	var out []conflictKey
	for k, t := range first {
		out = append(out, conflictKey{t, k[0], k[1], k[2]})
	}
	slices.SortFunc(out, func(a, b conflictKey) int {
		return cmp.Or(cmp.Compare(a.t, b.t), cmp.Compare(a.e, b.e), cmp.Compare(a.i, b.i), cmp.Compare(a.j, b.j))
	})
	return out
}

// bruteHolding returns the first and last time message i holds edge e in the
// simulation.
func bruteHolding(in *model.Instance, cross [][]int, i, e int) (from, to int) {
	from, to = -1, -1
	for et, hs := range occupancy(in, cross) {
		if et[0] == e && slices.Contains(hs, i) {
			if from < 0 || et[1] < from {
				from = et[1]
			}
			to = max(to, et[1])
		}
	}
	return from, to
}

func keyOf(t require.TestingT, in *model.Instance, v verify.Violation) conflictKey {
	idx := in.Index()
	i, ok1 := idx[v.Msg]
	j, ok2 := idx[v.Other]
	require.True(t, ok1 && ok2, "conflict names unknown messages: %v", v)
	require.Equal(t, in.Net.EdgeName(v.Edge), v.EdgeName)
	return conflictKey{v.Time, v.Edge, i, j}
}

// MODEL.md, "Legality" rule 2: shifting a worm so that its head crosses an edge while
// another worm holds it makes the schedule illegal, and the verifier reports a true
// collision: the edge and time it names are among those the step-by-step simulation
// finds, and the deliberate one (that edge, that pair, the first time both hold it)
// is among All's violations.
func TestCollisionIsRejected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t)
		cross := genSerial(t, in, model.Wormhole)
		// Messages 0 and 1 share an edge by construction; pick one of their shared
		// edges, the worm that stays (i) and the one that moves (j).
		var shared []int
		for _, e := range in.Messages[1].Path {
			if slices.Contains(in.Messages[0].Path, e) {
				shared = append(shared, e)
			}
		}
		e := rapid.SampledFrom(shared).Draw(t, "edge")
		i := rapid.IntRange(0, 1).Draw(t, "stays")
		j := 1 - i
		kj := slices.Index(in.Messages[j].Path, e)
		// Worm i holds e from t_{ki} at least through that step; move j so that its
		// head crosses e in a step in which i holds e.
		from, to := bruteHolding(in, cross, i, e)
		at := rapid.IntRange(from, to).Draw(t, "at")
		delta := at - cross[j][kj]
		if cross[j][0]+delta < 1 {
			t.Skip("the move would need a crossing before step 1")
		}
		for k := range cross[j] {
			cross[j][k] += delta
		}
		s := schedule(in, model.Wormhole, cross)
		truth := bruteConflicts(in, cross)
		require.NotEmpty(t, truth)
		err := verify.Schedule(in, s)
		var ve *verify.Error
		require.ErrorAs(t, err, &ve)
		require.Equal(t, verify.RuleConflict, ve.Rule)
		assert.Contains(t, truth, keyOf(t, in, ve.Violation))
		var got []conflictKey
		for _, v := range verify.All(in, s) {
			got = append(got, keyOf(t, in, v))
		}
		want := conflictKey{-1, e, min(i, j), max(i, j)}
		for _, c := range truth {
			if c.e == e && c.i == want.i && c.j == want.j {
				want.t = c.t
			}
		}
		require.GreaterOrEqual(t, want.t, 1, "the simulation misses the deliberate collision")
		assert.Contains(t, got, want)
	})
}

// MODEL.md, "Legality" rule 2 and the makespan of "Time and movement": on random
// schedules, legal and illegal, the verifier agrees with the step-by-step simulation
// exactly: the same holdings, the same conflicts (edge, pair, first time) in the
// documented order, the same makespan (the last time any worm holds an edge, =
// max_i t_d + L - 1), no-wait violations exactly for the bufferless messages that
// wait; and Schedule reports the first of All.
func TestAgreesWithSimulation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t)
		var cross [][]int
		if rapid.Bool().Draw(t, "near-serial") {
			// A serial schedule with one crossing time moved, keeping the times
			// positive and increasing.
			cross = genSerial(t, in, model.Wormhole)
			i := rapid.IntRange(0, len(cross)-1).Draw(t, "moved")
			k := rapid.IntRange(0, len(cross[i])-1).Draw(t, "k")
			lo, hi := 1, cross[i][k]+6
			if k > 0 {
				lo = cross[i][k-1] + 1
			}
			if k+1 < len(cross[i]) {
				hi = cross[i][k+1] - 1
			}
			cross[i][k] = rapid.IntRange(lo, max(lo, hi)).Draw(t, "to")
		} else {
			cross = make([][]int, len(in.Messages))
			for i := range cross {
				cross[i] = genCross(t, rapid.IntRange(1, 8).Draw(t, "start"), len(in.Messages[i].Path), true)
			}
		}
		m := rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model")
		s := schedule(in, m, cross)
		occ := occupancy(in, cross)
		mk := 0
		for et := range occ {
			mk = max(mk, et[1])
		}
		s.Makespan = mk + rapid.IntRange(-1, 1).Draw(t, "makespan error")
		truth := bruteConflicts(in, cross)

		all := verify.All(in, s)
		var got []conflictKey
		var rest []verify.Violation
		for _, v := range all {
			if v.Rule == verify.RuleConflict {
				got = append(got, keyOf(t, in, v))
			} else {
				rest = append(rest, v)
			}
		}
		require.Equal(t, truth, got)
		// AllLimit(k) lists All's first k conflicts in All's order, every other
		// violation of All in its place, and counts the conflicts left out.
		k := rapid.IntRange(1, 6).Draw(t, "listed conflicts")
		limited, more := verify.AllLimit(in, s, k)
		var want0 []verify.Violation
		listed := 0
		for _, v := range all {
			if v.Rule == verify.RuleConflict {
				if listed == k {
					continue
				}
				listed++
			}
			want0 = append(want0, v)
		}
		require.Equal(t, want0, limited)
		require.Equal(t, len(truth)-listed, more)
		// MODEL.md, "The bufferless model": t_k = s_i + k, so a bufferless message
		// whose times are not consecutive waits.
		var want []verify.Rule
		if m == model.Bufferless {
			for _, c := range cross {
				if c[len(c)-1]-c[0] != len(c)-1 {
					want = append(want, verify.RuleWaits)
				}
			}
		}
		if s.Makespan != mk {
			want = append(want, verify.RuleMakespan)
		}
		var rules []verify.Rule
		for _, v := range rest {
			rules = append(rules, v.Rule)
			if v.Rule == verify.RuleMakespan {
				require.Equal(t, mk, v.Want)
			}
		}
		require.Equal(t, want, rules)
		// The holdings the verifier checks are the simulation's, interval by interval.
		var sim []verify.Holding
		for i := range in.Messages {
			for _, e := range in.Messages[i].Path {
				from, to := bruteHolding(in, cross, i, e)
				sim = append(sim, verify.Holding{Edge: e, Msg: i, From: from, To: to})
			}
		}
		slices.SortFunc(sim, func(a, b verify.Holding) int {
			return cmp.Or(cmp.Compare(a.Edge, b.Edge), cmp.Compare(a.From, b.From), cmp.Compare(a.Msg, b.Msg))
		})
		require.Equal(t, sim, verify.Holdings(in, s))
		err := verify.Schedule(in, s)
		if len(all) == 0 {
			require.NoError(t, err)
			return
		}
		var ve *verify.Error
		require.ErrorAs(t, err, &ve)
		require.Equal(t, all[0], ve.Violation)
	})
}
