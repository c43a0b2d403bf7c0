package deadlock

// The exact condition as a SAT formula: "a deadlock configuration of at most K
// worms exists" (config.go defines one), over the nodes the fixpoint left live.
//
// Variables (atomic reallocation):
//
//	x[n]     node n is occupied: some worm holds n's VC in n's state
//	h[n]     node n is a worm's head          (only for nodes the fixpoint calls good)
//	e[n,m]   the worm at n continues to m     (m a live successor of n)
//	o[c]     VC c is occupied
//
// Clauses:
//
//	at most one x[n] per VC c, and o[c] <-> OR x[n] over the nodes holding c;
//	x[n] -> h[n] or OR e[n,m];   e[n,m] -> x[n], x[m];   at most one e[.,m] per m;
//	h[n] -> x[n], and h[n] -> o[c] for every VC c n may request;
//	OR h[n] (some worm);  and, with a bound K, at most K VCs hold a head.
//
// A model is a configuration: from every occupied node follow one true e[n,m]
// until a head (the states form a DAG; the e's into a node are at most one, so the
// worms are disjoint paths), and every head's requests are occupied. Conversely a
// configuration sets these variables. Under non-atomic reallocation a head is
// blocked either by owned VCs (every VC it may request is held by a worm whose tail
// has left the VC's router: an inner VC of a chain) or by a commitment to one VC
// it may request that is some worm's tail VC (a VC a head allocated while the
// previous tail's flits still fill it):
//
//	t[n]     n is a worm's tail:  t[n] <-> x[n] and no e[.,n]
//	i[n]     n is occupied and not a tail
//	w[c]     VC c is owned:  w[c] <-> OR i[n] over holders, OR k[.,c]
//	a[n]     head n is blocked by owned VCs:  a[n] -> w[c] for every request c
//	k[n,c]   head n has committed to c:  k[n,c] -> h[n], OR t[m] over holders m of c
//	h[n] -> a[n] or OR k[n,c];  at most one k[.,c] per VC c
//
// Sizes are linear in the live nodes, successors and requests; the bound K adds a
// sequential counter (C. Sinz, CP 2005) over the VCs, K x VCs variables.

import (
	"fmt"
	"sort"
)

// Formula is a CNF formula with what decoding needs.
type Formula struct {
	Vars    int
	lits    []int32 // clauses, each ended by 0
	Clauses int
	atomic  bool
	g       *Graph
	x, h    []int32 // per node, 0 when the node has none
	t       []int32
	eOff    []int32 // e[n,m] for the j-th live successor of n: eVar[eOff[n]+j]
	eVar    []int32
	// commits[n]: the (VC, k variable) pairs of head n (non-atomic)
	commits map[int32][][2]int32
	// bound: cnt[j] is "more than j VCs hold a head" (assume ¬cnt[K])
	cnt []int32
}

func (f *Formula) newVar() int32 { f.Vars++; return int32(f.Vars) }

func (f *Formula) add(c ...int32) {
	f.lits = append(f.lits, c...)
	f.lits = append(f.lits, 0)
	f.Clauses++
}

// amo adds "at most one of ls" (pairwise up to 4, else a sequential ladder).
func (f *Formula) amo(ls []int32) {
	if len(ls) <= 4 {
		for i := range ls {
			for j := i + 1; j < len(ls); j++ {
				f.add(-ls[i], -ls[j])
			}
		}
		return
	}
	// s[i]: some of ls[0..i] is true
	prev := ls[0]
	for i := 1; i < len(ls); i++ {
		f.add(-prev, -ls[i])
		if i < len(ls)-1 {
			s := f.newVar()
			f.add(-prev, s)
			f.add(-ls[i], s)
			prev = s
		}
	}
}

// Each yields the clauses of f, each without its 0.
func (f *Formula) Each(yield func(c []int32)) {
	start := 0
	for i, l := range f.lits {
		if l == 0 {
			yield(f.lits[start:i])
			start = i + 1
		}
	}
}

// encode writes the formula of g restricted to fp's live nodes; maxHeads > 0 adds
// the counter for bounds up to maxHeads.
func encode(g *Graph, fp *Fixpoint, atomic bool, maxHeads int) *Formula {
	n := g.Nodes()
	f := &Formula{atomic: atomic, g: g, x: make([]int32, n), h: make([]int32, n), eOff: make([]int32, n+1)}
	for m := range n {
		if fp.Live[m] {
			f.x[m] = f.newVar()
			if fp.Good[m] {
				f.h[m] = f.newVar()
			}
		}
	}
	for m := range n {
		f.eOff[m+1] = f.eOff[m]
		if !fp.Live[m] {
			continue
		}
		for _, s := range g.Succ(int32(m)) {
			if fp.Live[s] {
				f.eVar = append(f.eVar, f.newVar())
				f.eOff[m+1]++
			}
		}
	}
	o := make([]int32, g.Channels)
	var holders []int32
	for c := range g.Channels {
		if !fp.Alive[c] {
			continue
		}
		o[c] = f.newVar()
		holders = holders[:0]
		for _, m := range g.Holders(int32(c)) {
			if fp.Live[m] {
				holders = append(holders, f.x[m])
				f.add(-f.x[m], o[c])
			}
		}
		f.amo(holders)
		f.add(append([]int32{-o[c]}, holders...)...)
	}
	// incoming e's per node
	in := make([][]int32, n)
	for m := range n {
		if !fp.Live[m] {
			continue
		}
		j := f.eOff[m]
		cl := []int32{-f.x[m]}
		if f.h[m] != 0 {
			cl = append(cl, f.h[m])
		}
		for _, s := range g.Succ(int32(m)) {
			if !fp.Live[s] {
				continue
			}
			e := f.eVar[j]
			j++
			cl = append(cl, e)
			f.add(-e, f.x[m])
			f.add(-e, f.x[s])
			in[s] = append(in[s], e)
		}
		f.add(cl...)
	}
	for m := range n {
		f.amo(in[m])
	}
	var some []int32
	if atomic {
		for m := range n {
			if f.h[m] == 0 {
				continue
			}
			f.add(-f.h[m], f.x[m])
			for _, c := range g.Choices(int32(m)) {
				f.add(-f.h[m], o[c]) // good: every request is alive
			}
			some = append(some, f.h[m])
		}
	} else {
		f.t = make([]int32, n)
		f.commits = map[int32][][2]int32{}
		inner := make([]int32, n)
		for m := range n {
			if !fp.Live[m] {
				continue
			}
			t, i := f.newVar(), f.newVar()
			f.t[m], inner[m] = t, i
			f.add(-t, f.x[m])
			for _, e := range in[m] {
				f.add(-t, -e)
			}
			f.add(append([]int32{-f.x[m], t}, in[m]...)...)
			f.add(-i, f.x[m])
			f.add(-i, -t)
			f.add(-f.x[m], t, i)
		}
		w := make([]int32, g.Channels)
		commits := make([][]int32, g.Channels)
		for c := range g.Channels {
			if fp.Alive[c] {
				w[c] = f.newVar()
			}
		}
		for m := range n {
			if f.h[m] == 0 {
				continue
			}
			a := f.newVar()
			f.add(-f.h[m], f.x[m])
			cl := []int32{-f.h[m], a}
			allAlive := true
			for _, c := range g.Choices(int32(m)) {
				if !fp.Alive[c] {
					allAlive = false
					continue
				}
				k := f.newVar()
				f.add(-k, f.h[m])
				f.add(-k, w[c])
				tl := []int32{-k}
				for _, q := range g.Holders(c) {
					if fp.Live[q] {
						tl = append(tl, f.t[q])
					}
				}
				f.add(tl...)
				commits[c] = append(commits[c], k)
				f.commits[int32(m)] = append(f.commits[int32(m)], [2]int32{c, k})
				cl = append(cl, k)
			}
			if allAlive {
				for _, c := range g.Choices(int32(m)) {
					f.add(-a, w[c])
				}
			} else {
				f.add(-a)
			}
			f.add(cl...)
			some = append(some, f.h[m])
		}
		for c := range g.Channels {
			if !fp.Alive[c] {
				continue
			}
			cl := []int32{-w[c]}
			for _, q := range g.Holders(int32(c)) {
				if fp.Live[q] {
					f.add(-inner[q], w[c])
					cl = append(cl, inner[q])
				}
			}
			for _, k := range commits[c] {
				f.add(-k, w[c])
				cl = append(cl, k)
			}
			f.add(cl...)
			f.amo(commits[c])
		}
	}
	f.add(some...)
	if maxHeads > 0 {
		// hv[c]: a head holds c; at most maxHeads of them by a sequential counter
		var hv []int32
		for c := range g.Channels {
			if !fp.Alive[c] {
				continue
			}
			var hc []int32
			for _, m := range g.Holders(int32(c)) {
				if f.h[m] != 0 {
					hc = append(hc, f.h[m])
				}
			}
			if len(hc) == 0 {
				continue
			}
			v := f.newVar()
			for _, x := range hc {
				f.add(-x, v)
			}
			hv = append(hv, v)
		}
		f.counter(hv, maxHeads)
	}
	return f
}

// counter adds s[i][j] "more than j of xs[0..i] are true" for j = 0..K (K+1
// levels), and records the last row: assuming ¬cnt[j] bounds the count by j.
func (f *Formula) counter(xs []int32, K int) {
	prev := make([]int32, K+1)
	for i, x := range xs {
		cur := make([]int32, K+1)
		for j := range K + 1 {
			cur[j] = f.newVar()
			// count(i) > j if count(i-1) > j, or x and count(i-1) > j-1
			if i > 0 {
				f.add(-prev[j], cur[j])
			}
			switch {
			case j == 0:
				f.add(-x, cur[0])
			case i > 0:
				f.add(-x, -prev[j-1], cur[j])
			}
		}
		prev = cur
	}
	f.cnt = prev
	if len(xs) == 0 {
		f.cnt = nil
	}
}

// Bound returns the unit literals that bound the worms (head VCs) by k, given the
// counter encoded for maxHeads >= k: "not more than k".
func (f *Formula) Bound(k int) []int32 {
	if f.cnt == nil || k >= len(f.cnt) {
		return nil
	}
	return []int32{-f.cnt[k]}
}

// decode reads a configuration from a model (value of each variable).
func (f *Formula) decode(val func(v int32) bool) (*Config, error) {
	g := f.g
	n := g.Nodes()
	next := make([]int32, n)
	hasPred := make([]bool, n)
	for m := range n {
		next[m] = -1
		if f.x[m] == 0 || !val(f.x[m]) || (f.h[m] != 0 && val(f.h[m])) {
			continue
		}
		j := f.eOff[m]
		for _, s := range g.Succ(int32(m)) {
			if f.x[s] == 0 {
				continue
			}
			if val(f.eVar[j]) && val(f.x[s]) {
				next[m] = s
				break
			}
			j++
		}
		if next[m] < 0 {
			return nil, fmt.Errorf("deadlock: internal error: occupied node %d neither a head nor continued", m)
		}
		hasPred[next[m]] = true
	}
	cfg := &Config{g: g, Atomic: f.atomic}
	for m := range n {
		if f.x[m] == 0 || !val(f.x[m]) || hasPred[m] {
			continue
		}
		w := Worm{Commit: -1}
		for u := int32(m); ; u = next[u] {
			w.Nodes = append(w.Nodes, u)
			if next[u] < 0 {
				break
			}
		}
		for _, ck := range f.commits[w.head()] {
			if val(ck[1]) {
				w.Commit = ck[0]
				break
			}
		}
		cfg.Worms = append(cfg.Worms, w)
	}
	sort.Slice(cfg.Worms, func(i, j int) bool { return cfg.Worms[i].Nodes[0] < cfg.Worms[j].Nodes[0] })
	return cfg, nil
}
