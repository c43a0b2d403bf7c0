package lower

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// BoundDisjunctive names the bound of Disjunctive.
const BoundDisjunctive = "disjunctive"

// Disjunction says, for messages I and J sharing an edge, that either J is
// delivered at least A steps after I or I at least B steps after J.
type Disjunction struct{ I, J, A, B int }

// Disjunctions returns the delivery-time disjunctions of the general separation
// lemma, one per pair of messages and shared edge (duplicates removed).
//
// General separation lemma. Let messages i and j share edge e, with r_i, r_j hops
// left after it, and r_i <= L_i - 1 and r_j <= L_j - 1. In every legal wormhole
// schedule D_j >= D_i + L_j + r_j - r_i (i crossed e first) or
// D_i >= D_j + L_i + r_i - r_j (j did).
//
// Proof. As for AlignedConflicts: if i holds e first, its tail crosses e in some
// step tau with its head already at the destination (k_i + L_i - 1 >= d_i), so it
// drains one move per step and D_i = tau + r_i; j's head crosses e at tau + 1 or
// later and then needs r_j hops and L_j - 1 drain moves: D_j >= tau + r_j + L_j.
// (When r_i > L_i - 1 the leader i may still wait after e and nothing follows, so
// such pairs are left out; testdata/leader-condition.json shows the condition is
// needed.) With r_i = r_j this is the aligned lemma.
func Disjunctions(in *model.Instance) []Disjunction {
	seen := map[Disjunction]bool{}
	var ds []Disjunction
	for _, us := range in.Users() {
		for a := 0; a < len(us); a++ {
			for b := a + 1; b < len(us); b++ {
				i, j := us[a].Msg, us[b].Msg
				mi, mj := &in.Messages[i], &in.Messages[j]
				ri, rj := len(mi.Path)-us[a].Pos-1, len(mj.Path)-us[b].Pos-1
				if ri > mi.L-1 || rj > mj.L-1 {
					continue
				}
				d := Disjunction{I: i, J: j, A: mj.L + rj - ri, B: mi.L + ri - rj}
				if !seen[d] {
					seen[d] = true
					ds = append(ds, d)
				}
			}
		}
	}
	return ds
}

// Disjunctive returns the least U >= from such that the head-crossing times of
// every message can satisfy the following disjunctive program with every delivery
// at most U. Variables: h_i(k), the step in which the head of message i crosses
// its k-th edge, and D_i its delivery time; M_i(m) is the step of i's m-th move:
// h_i(m) for m <= d_i and h_i(d_i) + (m - d_i) after (the worm drains).
//
//	h_i(1) >= 1;  h_i(k+1) >= h_i(k) + 1;  D_i = h_i(d_i) + L_i - 1;
//	for messages i, j using a shared edge as e_{k_i} and e_{k_j}, one first, say i:
//	  h_j(k_j) >= M_i(k_i + L_i).
//
// This is the wormhole model of MODEL.md exactly: i holds its k-th edge from step
// M_i(k) through step M_i(k + L_i) - 1 (the moves k .. k + L_i - 1), so two
// holdings of a shared edge are disjoint if and only if one message's head crosses
// it no earlier than the step in which the other makes its (k + L)-th move
// (pipelining allows that very step). So every legal schedule satisfies the
// program with its own order on each shared edge, and the least solution of any
// orientation that satisfies every disjunction is a legal schedule: when the search
// completes, U is the optimum. Cut short (budget), every makespan below U is still
// refuted, so U is a lower bound. The general separation lemma (Disjunctions)
// is a consequence.
//
// The search: depth-first over the disjunctions the current least solution
// violates, most violated first, with incremental longest-path propagation
// (O(sum d_i) variables, one disjunction per pair of messages on a shared edge), at
// most budget nodes in all (<= 0: no limit), for U = from, from + 1, ... Pass
// from = a known lower bound (or 0) to skip the values below it.
func Disjunctive(in *model.Instance, from, budget int) (value int, exact bool) {
	s := newDisjSearch(in)
	return s.solve(from, budget)
}

// disjSearch is the program of Disjunctive as a graph of difference constraints:
// est[v] is the least value of variable v given the arcs so far.
type disjSearch struct {
	est     []int
	base    []int
	out     [][]arc
	choices []choice
	trail   []trailEntry
	budget  int
	nodes   int
	stopped bool
	// stop, when set, is asked at every node, as the clique searches ask
	// limit.over: true ends the search as the budget does.
	stop func() bool
	nMsg int
	// last is a message delivered last in the solution found (-1: none yet).
	last int
}

type arc struct{ from, to, w int }

// choice is a disjunction: one of two sets of arcs must hold.
type choice struct{ first, second []arc }

type trailEntry struct{ v, old int }

// newDisjSearch builds the variables (D_i first, then h_i(k)) and the arcs.
func newDisjSearch(in *model.Instance) *disjSearch {
	n := len(in.Messages)
	s := &disjSearch{nMsg: n, last: -1}
	for i := range in.Messages {
		s.base = append(s.base, len(in.Messages[i].Path)+in.Messages[i].L-1)
	}
	off := make([]int, n)
	for i := range in.Messages {
		off[i] = len(s.base)
		for k := range in.Messages[i].Path {
			s.base = append(s.base, k+1)
		}
	}
	s.out = make([][]arc, len(s.base))
	for i := range in.Messages {
		m := &in.Messages[i]
		for k := 0; k+1 < len(m.Path); k++ {
			s.addStatic(arc{off[i] + k, off[i] + k + 1, 1})
		}
		s.addStatic(arc{off[i] + len(m.Path) - 1, i, m.L - 1})
	}
	// release returns the variable and lag of M_i(k + L_i), k the 1-based position.
	release := func(i, k int) (int, int) {
		m := &in.Messages[i]
		if mv := k + m.L; mv <= len(m.Path) {
			return off[i] + mv - 1, 0
		} else {
			return off[i] + len(m.Path) - 1, mv - len(m.Path)
		}
	}
	for _, us := range in.Users() {
		for a := 0; a < len(us); a++ {
			for b := a + 1; b < len(us); b++ {
				i, j := us[a].Msg, us[b].Msg
				hi, hj := off[i]+us[a].Pos, off[j]+us[b].Pos
				ri, wi := release(i, us[a].Pos+1)
				rj, wj := release(j, us[b].Pos+1)
				s.choices = append(s.choices, choice{
					first:  []arc{{ri, hj, wi}},
					second: []arc{{rj, hi, wj}},
				})
			}
		}
	}
	return s
}

func (s *disjSearch) addStatic(a arc) { s.out[a.from] = append(s.out[a.from], a) }

// solve returns the least feasible bound on max_i D_i from 'from' on.
func (s *disjSearch) solve(from, budget int) (int, bool) {
	if s.nMsg == 0 {
		return 0, true
	}
	s.budget = budget
	u := from
	for v := 0; v < s.nMsg; v++ {
		u = max(u, s.base[v])
	}
	for {
		s.est = append(s.est[:0], s.base...)
		s.trail = s.trail[:0]
		ok := true
		for v := range s.out {
			for _, a := range s.out[v] {
				ok = ok && s.propagate(a, u)
			}
		}
		s.stopped = false
		if ok && s.feasible(u) {
			s.last = 0
			for i := 1; i < s.nMsg; i++ {
				if s.est[i] > s.est[s.last] {
					s.last = i
				}
			}
			return u, true
		}
		if s.stopped {
			return u, false
		}
		u++
	}
}

func (s *disjSearch) holds(arcs []arc) bool {
	for _, a := range arcs {
		if s.est[a.to] < s.est[a.from]+a.w {
			return false
		}
	}
	return true
}

// violation measures how far the arcs are from holding (the largest shortfall).
func (s *disjSearch) violation(arcs []arc) int {
	v := 0
	for _, a := range arcs {
		v = max(v, s.est[a.from]+a.w-s.est[a.to])
	}
	return v
}

// feasible reports whether some orientation keeps every delivery <= u; false with
// stopped set means the budget ran out.
func (s *disjSearch) feasible(u int) bool {
	s.nodes++
	if s.budget > 0 && s.nodes > s.budget || s.stop != nil && s.stop() {
		s.stopped = true
		return false
	}
	pick, worst := -1, 0
	for k := range s.choices {
		c := &s.choices[k]
		if s.holds(c.first) || s.holds(c.second) {
			continue
		}
		if v := min(s.violation(c.first), s.violation(c.second)); pick < 0 || v > worst {
			pick, worst = k, v
		}
	}
	if pick < 0 {
		return true // the least solution satisfies every disjunction, all D <= u
	}
	c := s.choices[pick]
	for _, arcs := range [2][]arc{c.first, c.second} {
		mark := len(s.trail)
		ok := true
		for _, a := range arcs {
			s.out[a.from] = append(s.out[a.from], a)
		}
		for _, a := range arcs {
			ok = ok && s.propagate(a, u)
		}
		if ok && s.feasible(u) {
			return true
		}
		for _, a := range arcs {
			s.out[a.from] = s.out[a.from][:len(s.out[a.from])-1]
		}
		for len(s.trail) > mark {
			t := s.trail[len(s.trail)-1]
			s.est[t.v] = t.old
			s.trail = s.trail[:len(s.trail)-1]
		}
		if s.stopped {
			return false
		}
	}
	return false
}

// propagate raises the estimates along arc a and every arc after it; false when a
// delivery estimate exceeds u (a head estimate above u also makes its delivery
// exceed u, through the static arcs).
func (s *disjSearch) propagate(a arc, u int) bool {
	type item struct{ v, t int }
	queue := []item{{a.to, s.est[a.from] + a.w}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if it.t <= s.est[it.v] {
			continue
		}
		if it.t > u {
			return false
		}
		s.trail = append(s.trail, trailEntry{it.v, s.est[it.v]})
		s.est[it.v] = it.t
		for _, b := range s.out[it.v] {
			queue = append(queue, item{b.to, it.t + b.w})
		}
	}
	return true
}

// DisjunctionCount is the number of disjunctions of the disjunctive program, one
// per pair of messages on a shared edge: sum_e c_e (c_e - 1) / 2, in O(|E| + n)
// without listing the users of each edge.
func DisjunctionCount(in *model.Instance) int64 {
	c := make([]int64, len(in.Net.Edges))
	for i := range in.Messages {
		for _, e := range in.Messages[i].Path {
			c[e]++
		}
	}
	var k int64
	for _, x := range c {
		k += x * (x - 1) / 2
	}
	return k
}

// MaxDisjunctions is the largest number of disjunctions (pairs of messages on a
// shared edge, sum_e C(c_e, 2)) for which Bounds runs Disjunctive; each search node
// costs O(disjunctions).
const MaxDisjunctions = 4000

// disjunctiveBound runs Disjunctive with a tenth of the budget of the other
// searches, its nodes being costlier; ok is false above MaxDisjunctions. lim's
// stop, when set, ends the search at the next node as the budget would (each node
// costs O(MaxDisjunctions), and with no budget the search has no end of its own).
func disjunctiveBound(in *model.Instance, from, budget int, lim limit) (model.Bound, bool) {
	// Count the disjunctions (one per pair of messages on a shared edge) before
	// building them: on 2*10^4 worms building them all first took 4.8 GB to find
	// that they were too many.
	if DisjunctionCount(in) > MaxDisjunctions {
		return model.Bound{}, false
	}
	s := newDisjSearch(in)
	s.stop = lim.stop
	if budget > 0 {
		budget = max(1, budget/10)
	}
	v, exact := s.solve(from, budget)
	b := model.Bound{Name: BoundDisjunctive, Value: v, Edge: -1, Msg: -1}
	if exact {
		b.Msg = s.last
	}
	how := fmt.Sprintf("search from %d complete: the optimum", from)
	if !exact {
		how = fmt.Sprintf("search from %d cut short; every smaller makespan refuted", from)
	}
	b.Detail = fmt.Sprintf("disjunctive program of head-crossing times, one disjunction per pair on a shared edge (%d): %s", len(s.choices), how)
	return b, true
}
