package optimal

// A constraint-programming search for bufferless schedules that meet a horizon: the
// scheduler's view of the problem beside the SAT encoding. See doc.go, "The
// schedule search", for its place in Solve.
//
// Model. In the bufferless model of MODEL.md message i is fixed by its start s_i =
// t_1 (t_k = s_i + k - 1), and is delivered at s_i + d_i + L_i - 2, so a horizon T
// gives the window s_i in [1, T - d_i - L_i + 2]. Every edge e is a unary resource:
// message i using e as its k-th edge holds it during [s_i + k - 1, s_i + k + L_i -
// 2] (MODEL.md rule 2), a task of length L_i. Two messages sharing e at offsets k, k'
// conflict iff s_j - s_i lies in [k - k' - L_j + 1, k - k' + L_i - 1] (the
// forbidden-difference condition of encode.go's bufferless family, found here again
// from the edge intervals); the intervals of one pair are merged.
//
// Propagation (bounds on the windows [lo_i, hi_i]):
//   - pairwise: for each forbidden interval [a, b] of s_j - s_i, "j before"
//     (s_j - s_i <= a - 1) is possible iff lo_j - hi_i <= a - 1, "j after"
//     (s_j - s_i >= b + 1) iff hi_j - lo_i >= b + 1; neither is a failure, one
//     alone is a precedence that moves both windows; and a bound of j that is
//     forbidden against every value of s_i moves past the interval;
//   - overload checking per edge (the unary resource's energy rule): for every set
//     of tasks on an edge, the earliest start plus their total length must fit
//     before the latest end; checked over the O(n^2) candidate sets formed by a
//     deadline and an earliest-start threshold;
//   - symmetry: of two messages with the same path and length, the earlier index
//     goes first (the relabelling argument of doc.go).
//
// Search (cpcore.go): depth first, branching on the unfixed start with the smallest
// lower bound (ties: the smaller index on the first run, as Gecode's "smallest",
// then a priority drawn per restart; breaking ties by the smaller upper bound
// first was tried: 2,300 failures instead of 119 on the 5x5 mesh of issue 16, and
// no schedule at 144 on the depth-4 tree in 20,000 where index order needs 11),
// left s_i = lo_i, right s_i >= lo_i + 1; failures are limited per run by the Luby
// sequence, and each restart draws new priorities from a seeded source, so a search
// is deterministic.
//
// Soundness. Every rule removes only values that no schedule within the horizon
// takes (given the symmetry convention), and a leaf assigns every start with all
// pairwise rules satisfied at fixed values, so a leaf is a legal bufferless schedule
// of makespan <= T. Solve verifies it anyway before using it. The search only finds
// schedules: an exhausted search is not used as a proof (the SAT search and the
// lower bounds prove; the certificate checker checks those).

import (
	"context"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// cpPair is a forbidden interval of the difference s_j - s_i.
type cpPair struct {
	j                   int32
	a, b                int32 // s_j - s_i is not in [a, b]
	canBefore, canAfter bool  // the sides allowed (symmetry fixes one)
}

// cpTask is message msg's use of a shared edge at offset off = k - 1.
type cpTask struct{ msg, off, l int32 }

// cpSearch is the bufferless model: variable i is s_i. solve may be called for
// several horizons.
type cpSearch struct {
	in     *model.Instance
	n      int
	d, l   []int32
	pairs  [][]cpPair
	edges  [][]cpTask // shared edges only (two users or more)
	msgEdg [][]int32  // message -> its shared edges (indices into edges)

	s  *cpStore
	ov cpEdges
	// scans counts the pair rules applied; with the task windows of the
	// overload checks (ov.tasks), a measure of the work done that does not
	// depend on the machine's load (work; lns.go's turns).
	scans int64
}

// work is the pair rules and task windows the search has gone through.
func (c *cpSearch) work() int64 { return c.scans + c.ov.tasks }

// newCPSearch builds the pair lists and edge tasks of in (bufferless model). Cost
// O(sum over shared edges of c_e^2).
func newCPSearch(in *model.Instance, symmetry bool) *cpSearch {
	n := len(in.Messages)
	c := &cpSearch{in: in, n: n, d: make([]int32, n), l: make([]int32, n)}
	for i := range in.Messages {
		c.d[i] = int32(len(in.Messages[i].Path))
		c.l[i] = int32(in.Messages[i].L)
	}
	type key struct{ i, j int32 }
	ivs := map[key][][2]int32{}
	c.msgEdg = make([][]int32, n)
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue
		}
		e := int32(len(c.edges))
		ts := make([]cpTask, len(us))
		for x, u := range us {
			ts[x] = cpTask{msg: int32(u.Msg), off: int32(u.Pos), l: c.l[u.Msg]}
			c.msgEdg[u.Msg] = append(c.msgEdg[u.Msg], e)
		}
		c.edges = append(c.edges, ts)
		for x := range ts {
			for y := x + 1; y < len(ts); y++ {
				ti, tj := ts[x], ts[y]
				a := ti.off - tj.off
				ivs[key{ti.msg, tj.msg}] = append(ivs[key{ti.msg, tj.msg}], [2]int32{a - tj.l + 1, a + ti.l - 1})
			}
		}
	}
	c.pairs = make([][]cpPair, n)
	keys := make([]key, 0, len(ivs))
	for k := range ivs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y key) int {
		if x.i != y.i {
			return int(x.i - y.i)
		}
		return int(x.j - y.j)
	})
	for _, k := range keys {
		iv := ivs[k]
		slices.SortFunc(iv, func(x, y [2]int32) int { return int(x[0] - y[0]) })
		merged := iv[:1]
		for _, v := range iv[1:] {
			last := &merged[len(merged)-1]
			if v[0] <= last[1]+1 {
				last[1] = max(last[1], v[1])
			} else {
				merged = append(merged, v)
			}
		}
		same := symmetry && c.l[k.i] == c.l[k.j] && slices.Equal(in.Messages[k.i].Path, in.Messages[k.j].Path)
		for _, v := range merged {
			// k.i < k.j: with symmetry j goes after i
			c.pairs[k.i] = append(c.pairs[k.i], cpPair{j: k.j, a: v[0], b: v[1], canBefore: !same, canAfter: true})
			c.pairs[k.j] = append(c.pairs[k.j], cpPair{j: k.i, a: -v[1], b: -v[0], canBefore: true, canAfter: !same})
		}
	}
	c.ov = newCPEdges(len(c.edges), func(e int32, w []cpWin) []cpWin {
		for _, t := range c.edges[e] {
			w = append(w, cpWin{est: c.s.lo[t.msg] + t.off, lct: c.s.hi[t.msg] + t.off + t.l - 1, l: t.l})
		}
		return w
	})
	c.s = newCPStore(n, c)
	return c
}

// solve looks for a bufferless schedule of makespan at most T within maxFails
// failures; it returns the starts (s_i = t_1) or nil.
func (c *cpSearch) solve(ctx context.Context, T int, maxFails int64, seed uint64) ([]int, cpStats) {
	return c.resume(ctx, newCPRestarts(T, maxFails, seed), maxFails)
}

// resume is solve in parts (cpRestarts): it runs the search r until it ends or
// its failures reach until, and returns the starts when it found some.
func (c *cpSearch) resume(ctx context.Context, r *cpRestarts, until int64) ([]int, cpStats) {
	s := c.s
	init := func() bool {
		ok := true
		for i := range c.n {
			s.lo[i], s.hi[i] = 1, int32(r.T)-c.d[i]-c.l[i]+2
			ok = ok && s.hi[i] >= 1
		}
		return ok
	}
	st := s.resume(ctx, r, init, until)
	if !r.found {
		return nil, st
	}
	starts := make([]int, c.n)
	for i := range starts {
		starts[i] = int(s.lo[i])
	}
	return starts, st
}

// solveWithin is solve with the windows of the starts given: s_i in [lo_i,
// hi_i], fixed (lo_i = hi_i) for every worm but those of free, which must be
// consistent with each other (the large-neighbourhood search, lns.go); T
// only seeds the restarts' priorities. It returns the starts, or nil.
func (c *cpSearch) solveWithin(ctx context.Context, T int, lo, hi []int32, free []int32, maxFails int64, seed uint64) ([]int32, cpStats) {
	s := c.s
	s.only = free
	defer func() { s.only = nil }()
	init := func() bool {
		copy(s.lo, lo)
		copy(s.hi, hi)
		for i := range c.n {
			if lo[i] > hi[i] {
				return false
			}
		}
		return true
	}
	found, st := s.search(ctx, T, init, maxFails, seed)
	if !found {
		return nil, st
	}
	return append([]int32(nil), s.lo...), st
}

func (c *cpSearch) moved(i int32) { c.ov.mark(c.msgEdg[i]) }

func (c *cpSearch) drop() { c.ov.drop() }

// propagate runs the pairwise rules to a fixpoint, then overload checking on the
// edges whose tasks moved, and again while that moves anything.
func (c *cpSearch) propagate(s *cpStore) bool {
	for {
		for i := s.pop(); i >= 0; i = s.pop() {
			c.scans += int64(len(c.pairs[i]))
			for _, p := range c.pairs[i] {
				if !c.pair(s, i, p) {
					return false
				}
			}
		}
		if !c.ov.check() {
			return false
		}
		if len(s.queue) == 0 {
			return true
		}
	}
}

// pair applies the rules of one forbidden interval of s_j - s_i.
func (c *cpSearch) pair(s *cpStore, i int32, p cpPair) bool {
	j := p.j
	before := p.canBefore && s.lo[j]-s.hi[i] <= p.a-1
	after := p.canAfter && s.hi[j]-s.lo[i] >= p.b+1
	switch {
	case !before && !after:
		return false
	case !before: // s_j >= s_i + b + 1
		return s.setLo(j, s.lo[i]+p.b+1) && s.setHi(i, s.hi[j]-p.b-1)
	case !after: // s_j <= s_i + a - 1
		return s.setHi(j, s.hi[i]+p.a-1) && s.setLo(i, s.lo[j]-p.a+1)
	}
	// a bound of j forbidden against every value of s_i moves past the interval
	if s.lo[j]-s.hi[i] >= p.a && s.lo[j]-s.lo[i] <= p.b {
		if !s.setLo(j, s.lo[i]+p.b+1) {
			return false
		}
	}
	if s.hi[j]-s.hi[i] >= p.a && s.hi[j]-s.lo[i] <= p.b {
		if !s.setHi(j, s.hi[i]+p.a-1) {
			return false
		}
	}
	return true
}
