package optimal

// Busy-slot clauses: the one-machine argument behind the edge bound, as clauses, at
// the horizon where it is tight.
//
// Lemma. Let e be an edge, and S the messages using e whose hop k on e is at least
// rho and whose remaining hops d - k after e are at least kappa. At horizon T
// message i in S holds e for at least L_i consecutive steps inside [k_i, T - (d_i -
// k_i)] (it cannot reach e before step k_i; its hold ends by T - (d_i - k_i),
// encode.go's release argument), so inside W = [rho, T - kappa]. When the sum of
// their lengths equals |W| (zero slack), their holds tile W: every step of W is
// held by a message of S. Hence, for every tau in W, the clause
//
//	OR over i in S of h(i, e, tau)
//
// holds in every legal schedule of makespan <= T, where h(i, e, tau) is a new
// variable with h -> [t_k <= tau] and h -> NOT [M_i(k + L_i) <= tau] (i holds e at
// tau: its head has crossed e and it has not released it; doc.go's M). Setting h
// to "i holds e at tau" satisfies both implications, so the clauses keep every
// legal schedule and add none.
//
// Zero slack at T means T = rho + sum_S L_i + kappa - 1. That is at most the edge
// bound (Jackson's preemptive bound is the largest such value over the sets S cut
// by a release and a tail), which is at most Solve's lower bound; so in a search
// the clauses only speak at the lower bound itself: Solve adds them under an
// activation literal assumed with that horizon, and Encode adds them outright when
// its horizon is that value. Without them a CDCL solver must count the steps of a
// saturated edge by resolution (a pigeonhole argument): cadical gave no answer in
// 60 s on the 48-worm tree of docs/solver.md at its bound, and refutes it in 0.02
// s with them.

import (
	"sort"

	"github.com/wormlab/wormlab/model"
)

// busyBudget bounds the auxiliary variables of the busy-slot clauses in one
// formula.
const busyBudget = 100000

// busyFamily is one tight set: the users S of an edge cut by release rho and tail
// kappa, whose holds tile [rho, T - kappa] at horizon T.
type busyFamily struct {
	edge       int
	uses       []model.Use
	rho, kappa int
	T          int
}

// busyFamilies returns the tight sets of in at horizon T, in edge order.
func busyFamilies(in *model.Instance, T int) []busyFamily {
	var out []busyFamily
	for e, us := range in.Users() {
		if len(us) < 2 {
			continue
		}
		rels, tails := map[int]bool{}, map[int]bool{}
		for _, u := range us {
			rels[u.Pos+1] = true
			tails[len(in.Messages[u.Msg].Path)-u.Pos-1] = true
		}
		rs, qs := sortedKeys(rels), sortedKeys(tails)
		for _, rho := range rs {
			for _, kappa := range qs {
				var S []model.Use
				sum := 0
				for _, u := range us {
					if u.Pos+1 >= rho && len(in.Messages[u.Msg].Path)-u.Pos-1 >= kappa {
						S = append(S, u)
						sum += in.Messages[u.Msg].L
					}
				}
				if len(S) >= 2 && rho+sum+kappa-1 == T {
					out = append(out, busyFamily{edge: e, uses: S, rho: rho, kappa: kappa, T: T})
				}
			}
		}
	}
	return out
}

func sortedKeys(m map[int]bool) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// timeLit is the literal "t_k <= v" of message i (a constant outside the window).
func (f *Formula) timeLit(i, k, v int) int {
	if f.Model == model.Bufferless {
		return f.le(f.chainOf(i, 1), v-(k-1))
	}
	return f.le(f.chainOf(i, k), v)
}

// busy adds the busy-slot clauses of the tight sets at horizon T, each clause
// with the literal -act (act = litTrue: outright). It returns the number of
// families added; it stops adding families when busyBudget auxiliary variables
// are used.
func (f *Formula) busy(T, act int) int {
	in := f.in
	type key struct{ i, k, tau int }
	hold := map[key]int{}
	aux, added := 0, 0
	for _, fam := range busyFamilies(in, T) {
		need := 0
		for _, u := range fam.uses {
			if _, ok := hold[key{u.Msg, u.Pos + 1, fam.rho}]; !ok {
				need += T - fam.kappa - fam.rho + 1
			}
		}
		if aux+need > busyBudget {
			f.comment("busy: edge %s from %d to %d skipped: over the budget of %d variables", in.Net.EdgeName(fam.edge), fam.rho, T-fam.kappa, busyBudget)
			continue
		}
		added++
		f.Busy++
		f.comment("busy: edge %s: the %d messages from hop %d with %d hops left hold every step %d..%d at horizon %d",
			in.Net.EdgeName(fam.edge), len(fam.uses), fam.rho, fam.kappa, fam.rho, T-fam.kappa, T)
		for tau := fam.rho; tau <= T-fam.kappa; tau++ {
			c := []int{-act}
			held := false // some message surely holds e at tau: no clause
			for _, u := range fam.uses {
				i, k := u.Msg, u.Pos+1
				m := &in.Messages[i]
				d := len(m.Path)
				at := f.timeLit(i, k, tau) // the head has crossed e by tau
				rm, rc := k+m.L, 0         // released by tau: M_i(k + L) <= tau
				if rm > d {
					rm, rc = d, rm-d
				}
				gone := f.timeLit(i, rm, tau-rc)
				if at == litFalse || gone == litTrue {
					continue // i cannot hold e at tau
				}
				if at == litTrue && gone == litFalse {
					held = true
					break
				}
				h, ok := hold[key{i, k, tau}]
				if !ok {
					h = f.newVar()
					aux++
					hold[key{i, k, tau}] = h
					f.clause(-h, at)
					f.clause(-h, -gone)
				}
				c = append(c, h)
			}
			if !held {
				f.clause(c...)
			}
		}
	}
	return added
}
