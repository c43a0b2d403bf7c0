package certify

// The deadlock certificate checker's own SAT formula of "a deadlock
// configuration of at most K packets exists" (K = 0: of any number), written from
// docs/deadlock.md's definition over the checker's own enumeration of packet
// states and its own fixpoint (deadlock_check.go), sharing nothing with package
// deadlock's encoder. The writer proves this formula and the checker re-encodes
// it, so a constraint lost in the decision's encoder is not lost here too.
//
// A configuration is a set of worms, each a path of states s_1 ... s_m (s_{j+1}
// a successor of s_j, every state reachable from a source, none at its
// destination) holding disjoint VCs, whose head s_m is blocked:
//
//   - atomic reallocation: every VC s_m may request is held by some worm;
//   - non-atomic: every VC s_m may request is owned (held by a worm's state
//     that has a predecessor on its worm: an inner VC; or a tail VC some head
//     was granted), or s_m was granted one VC it may request that a worm's tail
//     state holds; at most one head is granted each VC.
//
// Every state of a configuration is live in the checker's fixpoint (each round
// keeps the VCs a configuration holds, since its states lead to blocked heads and
// a blocked head requests some held VC, all of them when atomic), so the
// formula has variables for live states only, and heads only among the good
// ones. Variables, per live state s (over all destinations):
//
//	x[s]    s is occupied (a worm holds s's VC in state s)
//	h[s]    s is a worm's head (good states only)
//	e[s,t]  the worm at s continues to t (t a live successor of s)
//	t[s]    s is a worm's tail, i[s] s is occupied with a predecessor (non-atomic)
//	a[s]    head s is blocked by owned VCs; k[s,c] head s was granted c (non-atomic)
//	w[c]    VC c is owned (non-atomic)
//
// Clauses (each true in the assignment a configuration gives, and together
// forcing a configuration: follow the e's from each occupied state to its head):
//
//	at most one x[s] per VC (pairwise, or a ladder of "some so far");  x[s] -> h[s] or OR e[s,.];  e[s,t] -> x[s], x[t];
//	at most one e[s,.] per s and one e[.,t] per t;  h[s] -> x[s], not e[s,.];
//	OR h[s] (some worm);
//	atomic:      h[s] -> OR x[q] over holders q of c, for every request c of s;
//	non-atomic:  t[s] -> x[s], not e[.,s];  i[s] -> x[s], OR e[.,s];
//	             w[c] -> OR i[q] over holders q of c, OR k[.,c];
//	             k[s,c] -> h[s], OR t[q] over holders q of c;  at most one k[.,c];
//	             a[s] -> w[c] for every request c;  h[s] -> a[s] or OR k[s,.];
//	with K > 0:  at most K of the h[s] (a sequential counter, C. Sinz, CP 2005).
//
// Variables are numbered in the order the clauses first name them, states by
// destination (topology.Sinks' order) and the enumeration's index, so the
// writer and the checker number them alike.

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
)

type dlCNF struct {
	vars    int
	clauses [][]int
}

func (f *dlCNF) v() int { f.vars++; return f.vars }

func (f *dlCNF) add(c ...int) { f.clauses = append(f.clauses, append([]int(nil), c...)) }

// amo: at most one of ls, pairwise up to 5, else by a ladder: s_i "some of
// ls[0..i] is true".
func (f *dlCNF) amo(ls []int) {
	if len(ls) <= 5 {
		for i := range ls {
			for j := i + 1; j < len(ls); j++ {
				f.add(-ls[i], -ls[j])
			}
		}
		return
	}
	prev := ls[0]
	for i := 1; i < len(ls); i++ {
		f.add(-prev, -ls[i])
		if i < len(ls)-1 {
			s := f.v()
			f.add(-prev, s)
			f.add(-ls[i], s)
			prev = s
		}
	}
}

// atMost: at most k of xs, by a sequential counter: s[i][j] "at least j+1 of
// xs[0..i] are true".
func (f *dlCNF) atMost(xs []int, k int) {
	n := len(xs)
	if k <= 0 || n <= k {
		return
	}
	prev := make([]int, k)
	for i, x := range xs {
		if i == n-1 {
			f.add(-x, -prev[k-1])
			break
		}
		cur := make([]int, k)
		for j := range k {
			cur[j] = f.v()
		}
		f.add(-x, cur[0])
		if i == 0 {
			for j := 1; j < k; j++ {
				f.add(-cur[j])
			}
		} else {
			for j := range k {
				f.add(-prev[j], cur[j])
				if j > 0 {
					f.add(-x, -prev[j-1], cur[j])
				}
			}
			f.add(-x, -prev[k-1])
		}
		prev = cur
	}
}

// dimacs writes f in DIMACS CNF.
func (f *dlCNF) dimacs() []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	fmt.Fprintf(w, "p cnf %d %d\n", f.vars, len(f.clauses))
	var buf []byte
	for _, c := range f.clauses {
		buf = buf[:0]
		for _, l := range c {
			buf = strconv.AppendInt(buf, int64(l), 10)
			buf = append(buf, ' ')
		}
		buf = append(buf, '0', '\n')
		w.Write(buf)
	}
	w.Flush()
	return b.Bytes()
}

// deadlockFormula encodes "a deadlock configuration of at most bound packets
// exists" (bound 0: any number) over sp; nil when the fixpoint leaves no VC
// (no configuration exists).
func (sp *stateSpace) deadlockFormula(atomic bool, bound int) *dlCNF {
	alive, live := sp.fixpoint(atomic)
	any := false
	for _, a := range alive {
		any = any || a
	}
	if !any {
		return nil
	}
	f := &dlCNF{}
	// global ids of live states
	type st struct {
		d int
		s int32
	}
	var states []st
	id := make([][]int, len(sp.dests))
	for i, d := range sp.dests {
		id[i] = make([]int, len(d.held))
		for s := range d.held {
			id[i][s] = -1
			if live[i][s] {
				id[i][s] = len(states)
				states = append(states, st{i, int32(s)})
			}
		}
	}
	n := len(states)
	x, h := make([]int, n), make([]int, n)
	for g, q := range states {
		x[g] = f.v()
		if sp.good(sp.dests[q.d], q.s, alive, atomic) {
			h[g] = f.v()
		}
	}
	holders := map[int32][]int{} // VC -> live states holding it
	var vcOrder []int32
	for g, q := range states {
		c := sp.dests[q.d].held[q.s]
		if _, ok := holders[c]; !ok {
			vcOrder = append(vcOrder, c)
		}
		holders[c] = append(holders[c], g)
	}
	for _, c := range vcOrder {
		var xs []int
		for _, g := range holders[c] {
			xs = append(xs, x[g])
		}
		f.amo(xs)
	}
	in := make([][]int, n)
	for g, q := range states {
		cl := []int{-x[g]}
		if h[g] != 0 {
			cl = append(cl, h[g])
		}
		var out []int
		for _, t := range sp.dests[q.d].succ[q.s] {
			u := id[q.d][t]
			if u < 0 {
				continue
			}
			e := f.v()
			f.add(-e, x[g])
			f.add(-e, x[u])
			if h[g] != 0 {
				f.add(-h[g], -e)
			}
			out = append(out, e)
			in[u] = append(in[u], e)
		}
		f.add(append(cl, out...)...)
		f.amo(out)
	}
	var heads []int
	for g := range states {
		f.amo(in[g])
		if h[g] != 0 {
			f.add(-h[g], x[g])
			heads = append(heads, h[g])
		}
	}
	f.add(heads...)
	if atomic {
		for g, q := range states {
			if h[g] == 0 {
				continue
			}
			for _, c := range sp.dests[q.d].req[q.s] {
				cl := []int{-h[g]}
				for _, u := range holders[c] {
					cl = append(cl, x[u])
				}
				f.add(cl...)
			}
		}
	} else {
		t, inner := make([]int, n), make([]int, n)
		for g := range states {
			t[g], inner[g] = f.v(), f.v()
			f.add(-t[g], x[g])
			for _, e := range in[g] {
				f.add(-t[g], -e)
			}
			f.add(-inner[g], x[g])
			f.add(append([]int{-inner[g]}, in[g]...)...)
		}
		w := map[int32]int{}
		owned := func(c int32) int {
			if v, ok := w[c]; ok {
				return v
			}
			w[c] = f.v()
			return w[c]
		}
		granted := map[int32][]int{}
		var grantOrder []int32
		for g, q := range states {
			if h[g] == 0 {
				continue
			}
			a := f.v()
			stuck := []int{-h[g], a}
			for _, c := range sp.dests[q.d].req[q.s] {
				f.add(-a, owned(c))
				k := f.v()
				f.add(-k, h[g])
				tl := []int{-k}
				for _, u := range holders[c] {
					tl = append(tl, t[u])
				}
				f.add(tl...)
				if _, ok := granted[c]; !ok {
					grantOrder = append(grantOrder, c)
				}
				granted[c] = append(granted[c], k)
				stuck = append(stuck, k)
			}
			f.add(stuck...)
		}
		for _, c := range grantOrder {
			f.amo(granted[c])
		}
		// w[c] -> an inner holder or a grant, for every VC the clauses name
		var named []int32
		for _, c := range vcOrder {
			if _, ok := w[c]; ok {
				named = append(named, c)
			}
		}
		for _, c := range grantOrder {
			if _, ok := holders[c]; !ok {
				named = append(named, c)
			}
		}
		for _, c := range named {
			cl := []int{-w[c]}
			for _, u := range holders[c] {
				cl = append(cl, inner[u])
			}
			cl = append(cl, granted[c]...)
			f.add(cl...)
		}
	}
	if bound > 0 {
		f.atMost(heads, bound)
	}
	return f
}
