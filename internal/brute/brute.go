// Package brute decides small scheduling questions by enumeration, for tests: every
// vector of head crossing times is tried and judged by verify.Schedule alone, so an
// answer shares nothing with the solvers and bounds it is compared with.
//
// Cost: the product over messages of their candidate vectors (for message i with d
// hops and horizon T, C(T - L_i + 1, d) in the wormhole model, T - d - L_i + 2 in
// the bufferless model), each judged in O(sum of path lengths); calls take a budget
// on that product and give up (ok false) above it.
package brute

import (
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Feasible reports whether in has a legal schedule of makespan <= T in the model
// (model.Wormhole or model.Bufferless). ok is false when the candidates number more
// than budget.
func Feasible(in *model.Instance, modelName string, T, budget int) (feasible, ok bool) {
	ok = each(in, modelName, T, budget, func([][]int) bool { feasible = true; return false })
	return feasible, ok
}

// Legal returns every legal schedule of makespan <= T in the model, as crossing
// times per message; ok is false when the candidates number more than budget.
func Legal(in *model.Instance, modelName string, T, budget int) (all [][][]int, ok bool) {
	ok = each(in, modelName, T, budget, func(cross [][]int) bool { all = append(all, cross); return true })
	return all, ok
}

// each calls yield with every legal schedule of makespan <= T until it returns
// false; it returns false (calling nothing) when the candidates number more than
// budget.
func each(in *model.Instance, modelName string, T, budget int, yield func([][]int) bool) bool {
	n := len(in.Messages)
	options := make([][][]int, n)
	total := 1
	for i := range in.Messages {
		m := &in.Messages[i]
		options[i] = Vectors(len(m.Path), T-m.L+1, modelName == model.Bufferless)
		if len(options[i]) == 0 {
			return true
		}
		total *= len(options[i])
		if total > budget {
			return false
		}
	}
	idx := make([]int, n)
	for {
		cross := make([][]int, n)
		for i := range cross {
			cross[i] = options[i][idx[i]]
		}
		if verify.Schedule(in, model.NewSchedule(in, modelName, cross)) == nil && !yield(cross) {
			return true
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
			return true
		}
	}
}

// Optimum returns the least makespan of a legal schedule of in in the model, trying
// T = 1, 2, ..., limit; ok is false when some horizon's candidates number more than
// budget or no schedule exists up to limit.
func Optimum(in *model.Instance, modelName string, limit, budget int) (opt int, ok bool) {
	for T := 1; T <= limit; T++ {
		feasible, ok := Feasible(in, modelName, T, budget)
		if !ok {
			return 0, false
		}
		if feasible {
			return T, true
		}
	}
	return 0, false
}

// Vectors lists the increasing vectors 1 <= t_1 < ... < t_d <= last; with noWait
// only those with t_k = t_1 + k - 1.
func Vectors(d, last int, noWait bool) [][]int {
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
