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
// such pairs are left out.) With r_i = r_j this is the aligned lemma.
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

// Disjunctive returns the least U >= from for which the delivery times can satisfy
// D_i >= d_i + L_i - 1 and every disjunction of Disjunctions with max_i D_i <= U,
// found by depth-first search over the orientations of violated disjunctions with
// incremental longest-path propagation (at most budget nodes in all; <= 0: no
// limit). It is a lower bound on the makespan of every legal schedule, since such a
// schedule's delivery times satisfy all of it. Pass from = a makespan already known
// to be a lower bound (or 0) to skip the values below it. When the budget runs out
// the value proven so far is returned with exact false.
func Disjunctive(in *model.Instance, from, budget int) (value int, exact bool) {
	return solveDisjunctive(in, Disjunctions(in), from, budget)
}

func solveDisjunctive(in *model.Instance, ds []Disjunction, from, budget int) (value int, exact bool) {
	n := len(in.Messages)
	if n == 0 {
		return 0, true
	}
	s := &disjSearch{ds: ds, est: make([]int, n), out: make([][]arc, n), budget: budget}
	for i := range in.Messages {
		s.est[i] = len(in.Messages[i].Path) + in.Messages[i].L - 1
	}
	u := from
	for _, v := range s.est {
		u = max(u, v)
	}
	for {
		s.stopped = false
		switch s.feasible(u) {
		case true:
			return u, true
		}
		if s.stopped {
			return u, false
		}
		u++
	}
}

type arc struct{ to, w int }

type disjSearch struct {
	ds      []Disjunction
	est     []int
	out     [][]arc
	trail   []trailEntry
	budget  int
	nodes   int
	stopped bool
}

type trailEntry struct{ v, old int }

// feasible reports whether some orientation keeps every delivery <= u; false with
// stopped set means the budget ran out.
func (s *disjSearch) feasible(u int) bool {
	s.nodes++
	if s.budget > 0 && s.nodes > s.budget {
		s.stopped = true
		return false
	}
	// the most violated disjunction: neither orientation holds for the estimates.
	pick, worst := -1, 0
	for k, d := range s.ds {
		vi := s.est[d.I] + d.A - s.est[d.J] // > 0: "I first" is violated
		vj := s.est[d.J] + d.B - s.est[d.I]
		if vi > 0 && vj > 0 {
			if v := min(vi, vj); pick < 0 || v > worst {
				pick, worst = k, v
			}
		}
	}
	if pick < 0 {
		return true // the estimates satisfy everything and are all <= u
	}
	d := s.ds[pick]
	for _, o := range [2]arc{{d.J, d.A}, {d.I, d.B}} {
		from := d.I
		if o.to == d.I {
			from = d.J
		}
		mark := len(s.trail)
		s.out[from] = append(s.out[from], o)
		if s.propagate(from, o, u) && s.feasible(u) {
			return true
		}
		s.out[from] = s.out[from][:len(s.out[from])-1]
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

// propagate raises the estimates along the new arc and every arc after it; false
// when some estimate exceeds u.
func (s *disjSearch) propagate(from int, a arc, u int) bool {
	type item struct{ v, t int }
	queue := []item{{a.to, s.est[from] + a.w}}
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

func disjunctiveBound(in *model.Instance, from, budget int) model.Bound {
	v, exact := Disjunctive(in, from, budget)
	b := model.Bound{Name: BoundDisjunctive, Value: v, Edge: -1, Msg: -1}
	how := fmt.Sprintf("least makespan of the relaxation from %d on", from)
	if !exact {
		how = "the relaxation's search was cut short; every smaller makespan was refuted"
	}
	b.Detail = fmt.Sprintf("%d delivery-time disjunctions (separation lemma on every shared edge): %s", len(Disjunctions(in)), how)
	return b
}
