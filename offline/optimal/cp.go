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
// Search: depth first, branching on the unfixed start with the smallest lower bound
// (ties: the smaller upper bound, then a priority drawn per restart), left s_i = lo_i,
// right s_i >= lo_i + 1; failures are limited per run by the Luby sequence, and each
// restart draws new priorities from a seeded source, so a search is deterministic.
//
// Soundness. Every rule removes only values that no schedule within the horizon
// takes (given the symmetry convention), and a leaf assigns every start with all
// pairwise rules satisfied at fixed values, so a leaf is a legal bufferless schedule
// of makespan <= T. Solve verifies it anyway before using it. The search only finds
// schedules: an exhausted search is not used as a proof (the SAT search and the
// lower bounds prove; the certificate checker checks those).

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

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

// cpStats describes one schedule search.
type cpStats struct {
	Nodes, Fails int64
	Restarts     int
	Elapsed      time.Duration
}

// cpSearch is the search state for one instance; solve may be called for several
// horizons.
type cpSearch struct {
	in     *model.Instance
	n      int
	d, l   []int32
	pairs  [][]cpPair
	edges  [][]cpTask // shared edges only (two users or more)
	msgEdg [][]int32  // message -> its shared edges (indices into edges)

	lo, hi []int32
	trail  []cpUndo
	queue  []int32
	inq    []bool
	dirty  []int32
	isDrt  []bool
	prio   []uint32
	scr    []cpWin

	fails, limit int64
	nodes        int64
	ctx          context.Context
	stopped      bool
}

type cpUndo struct {
	v      int32
	lo, hi int32
}

type cpWin struct{ est, lct, l int32 }

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
	c.lo, c.hi = make([]int32, n), make([]int32, n)
	c.inq = make([]bool, n)
	c.isDrt = make([]bool, len(c.edges))
	c.prio = make([]uint32, n)
	return c
}

// solve looks for a bufferless schedule of makespan at most T within maxFails
// failures; it returns the starts (s_i = t_1) or nil.
func (c *cpSearch) solve(ctx context.Context, T int, maxFails int64, seed uint64) ([]int, cpStats) {
	start := time.Now()
	var st cpStats
	c.ctx, c.stopped = ctx, false
	rng := rand.New(rand.NewPCG(seed, uint64(T)))
	var total int64
	for run := 1; total < maxFails && !c.stopped && ctx.Err() == nil; run++ {
		c.trail, c.queue, c.dirty = c.trail[:0], c.queue[:0], c.dirty[:0]
		clear(c.inq)
		clear(c.isDrt)
		ok := true
		for i := range c.n {
			c.lo[i], c.hi[i] = 1, int32(T)-c.d[i]-c.l[i]+2
			if c.hi[i] < 1 {
				ok = false
			}
			c.push(int32(i))
		}
		for i := range c.prio {
			if run == 1 {
				c.prio[i] = uint32(i)
			} else {
				c.prio[i] = rng.Uint32()
			}
		}
		if !ok || !c.propagate() {
			st.Elapsed = time.Since(start)
			return nil, st // no schedule at this horizon at all
		}
		c.fails, c.nodes = 0, 0
		c.limit = min(100*luby(run), maxFails-total)
		r := c.dfs()
		total += c.fails
		st.Fails += c.fails
		st.Nodes += c.nodes
		st.Restarts = run - 1
		if r > 0 {
			s := make([]int, c.n)
			for i := range s {
				s[i] = int(c.lo[i])
			}
			st.Elapsed = time.Since(start)
			return s, st
		}
		if r == 0 {
			break // the whole tree was searched: no schedule (under the symmetry rule)
		}
	}
	st.Elapsed = time.Since(start)
	return nil, st
}

// luby returns the i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 ...
func luby(i int) int64 {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1<<(k-1) - 1))
		}
	}
}

// dfs returns 1 at a leaf (every start fixed), 0 when the subtree has no
// schedule, -1 when the failure limit or the context stopped it.
func (c *cpSearch) dfs() int {
	c.nodes++
	if c.nodes&1023 == 0 && c.ctx.Err() != nil {
		c.stopped = true
	}
	if c.stopped {
		return -1
	}
	x := int32(-1)
	for i := range int32(c.n) {
		if c.lo[i] == c.hi[i] {
			continue
		}
		if x < 0 || c.lo[i] < c.lo[x] || c.lo[i] == c.lo[x] && (c.hi[i] < c.hi[x] || c.hi[i] == c.hi[x] && c.prio[i] < c.prio[x]) {
			x = i
		}
	}
	if x < 0 {
		return 1
	}
	v := c.lo[x]
	mark := len(c.trail)
	if c.setHi(x, v) && c.propagate() {
		if r := c.dfs(); r != 0 {
			return r
		}
	} else {
		c.fail()
	}
	c.undo(mark)
	if c.fails >= c.limit {
		return -1
	}
	if c.setLo(x, v+1) && c.propagate() {
		return c.dfs()
	}
	c.fail()
	return 0
}

func (c *cpSearch) fail() {
	c.fails++
	for _, i := range c.queue {
		c.inq[i] = false
	}
	c.queue = c.queue[:0]
	for _, e := range c.dirty {
		c.isDrt[e] = false
	}
	c.dirty = c.dirty[:0]
}

func (c *cpSearch) undo(mark int) {
	for k := len(c.trail) - 1; k >= mark; k-- {
		u := c.trail[k]
		c.lo[u.v], c.hi[u.v] = u.lo, u.hi
	}
	c.trail = c.trail[:mark]
}

func (c *cpSearch) push(i int32) {
	if !c.inq[i] {
		c.inq[i] = true
		c.queue = append(c.queue, i)
	}
	for _, e := range c.msgEdg[i] {
		if !c.isDrt[e] {
			c.isDrt[e] = true
			c.dirty = append(c.dirty, e)
		}
	}
}

func (c *cpSearch) setLo(i, v int32) bool {
	if v <= c.lo[i] {
		return true
	}
	c.trail = append(c.trail, cpUndo{i, c.lo[i], c.hi[i]})
	c.lo[i] = v
	c.push(i)
	return v <= c.hi[i]
}

func (c *cpSearch) setHi(i, v int32) bool {
	if v >= c.hi[i] {
		return true
	}
	c.trail = append(c.trail, cpUndo{i, c.lo[i], c.hi[i]})
	c.hi[i] = v
	c.push(i)
	return c.lo[i] <= v
}

// propagate runs the pairwise rules to a fixpoint, then overload checking on the
// edges whose tasks moved; false is a failure (the caller undoes the trail and
// calls fail).
func (c *cpSearch) propagate() bool {
	for {
		for len(c.queue) > 0 {
			i := c.queue[len(c.queue)-1]
			c.queue = c.queue[:len(c.queue)-1]
			c.inq[i] = false
			for _, p := range c.pairs[i] {
				if !c.pair(i, p) {
					return false
				}
			}
		}
		for len(c.dirty) > 0 {
			e := c.dirty[len(c.dirty)-1]
			c.dirty = c.dirty[:len(c.dirty)-1]
			c.isDrt[e] = false
			if !c.overload(e) {
				return false
			}
		}
		if len(c.queue) == 0 {
			return true
		}
	}
}

// pair applies the rules of one forbidden interval of s_j - s_i.
func (c *cpSearch) pair(i int32, p cpPair) bool {
	j := p.j
	before := p.canBefore && c.lo[j]-c.hi[i] <= p.a-1
	after := p.canAfter && c.hi[j]-c.lo[i] >= p.b+1
	switch {
	case !before && !after:
		return false
	case !before: // s_j >= s_i + b + 1
		return c.setLo(j, c.lo[i]+p.b+1) && c.setHi(i, c.hi[j]-p.b-1)
	case !after: // s_j <= s_i + a - 1
		return c.setHi(j, c.hi[i]+p.a-1) && c.setLo(i, c.lo[j]-p.a+1)
	}
	// a bound of j forbidden against every value of s_i moves past the interval
	if c.lo[j]-c.hi[i] >= p.a && c.lo[j]-c.lo[i] <= p.b {
		if !c.setLo(j, c.lo[i]+p.b+1) {
			return false
		}
	}
	if c.hi[j]-c.hi[i] >= p.a && c.hi[j]-c.lo[i] <= p.b {
		if !c.setHi(j, c.hi[i]+p.a-1) {
			return false
		}
	}
	return true
}

// overload checks the energy rule on shared edge e: for every deadline D and
// threshold R, the tasks whose windows lie in [R, D] must fit, R + sum l - 1 <= D.
func (c *cpSearch) overload(e int32) bool {
	ts := c.edges[e]
	w := c.scr[:0]
	for _, t := range ts {
		w = append(w, cpWin{est: c.lo[t.msg] + t.off, lct: c.hi[t.msg] + t.off + t.l - 1, l: t.l})
	}
	c.scr = w
	// by earliest start, latest first
	slices.SortFunc(w, func(x, y cpWin) int { return int(y.est - x.est) })
	for _, dl := range w {
		D := dl.lct
		sum := int32(0)
		for _, t := range w {
			if t.lct <= D {
				sum += t.l
				if t.est+sum-1 > D {
					return false
				}
			}
		}
	}
	return true
}
