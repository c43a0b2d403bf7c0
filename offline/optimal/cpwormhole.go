package optimal

// The schedule search of cp.go for the wormhole model, where a head may wait: one
// variable per hop, t_{i,k}, the step in which message i's head crosses its k-th
// edge (MODEL.md rule 1). Same engine (cpcore.go), other rules:
//
//   - hop order: t_{i,k+1} >= t_{i,k} + 1, and the windows of encode.go:
//     t_{i,k} in [k, T - L_i + 1 - (d_i - k)];
//   - release: message i holds its k-th edge during [t_{i,k}, M_i(k + L_i) - 1]
//     (doc.go's M: t_m for m <= d_i, t_{d_i} + m - d_i after), a variable plus a
//     constant;
//   - edges: two messages on a shared edge (i at hop k, j at hop k') go one after
//     the other, t_{j,k'} >= M_i(k + L_i) or t_{i,k} >= M_j(k' + L_j) (MODEL.md rule
//     2); the rule is bounds reasoning on the two sides, as in cp.go, applied per
//     edge (the runs of encode.go are not needed: the order on a run follows);
//   - overload checking per edge with each task's window [t_{i,k}, M_i(k + L_i) - 1]
//     and length L_i (the least a worm can hold an edge);
//   - symmetry as in cp.go: of two messages with the same path and length, the
//     earlier index goes first on every edge.
//
// Branching on the hop time with the smallest lower bound is a simulation with
// backtracking: the left branch moves a head as early as it can, the right branch
// makes it wait a step. Soundness is that of cp.go: every rule removes only values
// no legal schedule within the horizon takes, and a leaf fixes every time with both
// sides of every edge rule checked at fixed values, so it is a legal schedule.

import (
	"context"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// cpwRel is the step a message releases an edge: the time variable v plus c.
type cpwRel struct{ v, c int32 }

// cpwTask is a message's use of a shared edge: its head crossing time variable,
// its release and its length.
type cpwTask struct {
	t   int32
	rel cpwRel
	l   int32
}

// cpwCon is the rule of one pair of tasks on one edge: A is "x first"
// (y.t >= x.rel), B is "y first" (x.t >= y.rel).
type cpwCon struct {
	x, y       cpwTask
	canA, canB bool
}

// cpwSearch is the wormhole model.
type cpwSearch struct {
	in    *model.Instance
	base  []int32 // base[i]: variable of message i's first hop; base[n] = variables
	msgOf []int32 // variable -> message
	cons  []cpwCon
	watch [][]int32   // variable -> the constraints it appears in
	edges [][]cpwTask // shared edges
	onEdg [][]int32   // variable -> the shared edges it is a start or release of

	s  *cpStore
	ov cpEdges
}

func newCPWSearch(in *model.Instance, symmetry bool) *cpwSearch {
	n := len(in.Messages)
	c := &cpwSearch{in: in, base: make([]int32, n+1)}
	for i := range in.Messages {
		c.base[i+1] = c.base[i] + int32(len(in.Messages[i].Path))
		for range in.Messages[i].Path {
			c.msgOf = append(c.msgOf, int32(i))
		}
	}
	nv := int(c.base[n])
	c.watch = make([][]int32, nv)
	c.onEdg = make([][]int32, nv)
	task := func(u model.Use) cpwTask {
		m := &in.Messages[u.Msg]
		d, L := int32(len(m.Path)), int32(m.L)
		K := int32(u.Pos) + L // the hop (0-based) whose crossing releases the edge
		r := cpwRel{v: c.base[u.Msg] + K}
		if K > d-1 {
			r = cpwRel{v: c.base[u.Msg] + d - 1, c: K - (d - 1)}
		}
		return cpwTask{t: c.base[u.Msg] + int32(u.Pos), rel: r, l: L}
	}
	for _, us := range in.Users() {
		if len(us) < 2 {
			continue
		}
		e := int32(len(c.edges))
		ts := make([]cpwTask, len(us))
		for x, u := range us {
			ts[x] = task(u)
			for _, v := range []int32{ts[x].t, ts[x].rel.v} {
				if k := c.onEdg[v]; len(k) == 0 || k[len(k)-1] != e {
					c.onEdg[v] = append(c.onEdg[v], e)
				}
			}
		}
		c.edges = append(c.edges, ts)
		for x := range us {
			for y := x + 1; y < len(us); y++ {
				mi, mj := &in.Messages[us[x].Msg], &in.Messages[us[y].Msg]
				same := symmetry && mi.L == mj.L && slices.Equal(mi.Path, mj.Path)
				k := int32(len(c.cons))
				c.cons = append(c.cons, cpwCon{x: ts[x], y: ts[y], canA: true, canB: !same})
				for _, v := range []int32{ts[x].t, ts[x].rel.v, ts[y].t, ts[y].rel.v} {
					if w := c.watch[v]; len(w) == 0 || w[len(w)-1] != k {
						c.watch[v] = append(c.watch[v], k)
					}
				}
			}
		}
	}
	c.ov = newCPEdges(len(c.edges), func(e int32, w []cpWin) []cpWin {
		for _, t := range c.edges[e] {
			w = append(w, cpWin{est: c.s.lo[t.t], lct: c.s.hi[t.rel.v] + t.rel.c - 1, l: t.l})
		}
		return w
	})
	c.s = newCPStore(nv, c)
	// Ties by slack first: on the depth-4 tree with 61 worms (issue 16) this finds
	// 144 in 206 failures, by index alone in 11,739.
	c.s.slackTies = true
	return c
}

// solve looks for a wormhole schedule of makespan at most T within maxFails
// failures; it returns every message's head crossing times or nil.
func (c *cpwSearch) solve(ctx context.Context, T int, maxFails int64, seed uint64) ([][]int, cpStats) {
	s := c.s
	init := func() bool {
		ok := true
		for i := range c.in.Messages {
			m := &c.in.Messages[i]
			d := int32(len(m.Path))
			for k := range d {
				v := c.base[i] + k
				s.lo[v], s.hi[v] = k+1, int32(T)-int32(m.L)+1-(d-1-k)
				ok = ok && s.lo[v] <= s.hi[v]
			}
		}
		return ok
	}
	found, st := s.search(ctx, T, init, maxFails, seed)
	if !found {
		return nil, st
	}
	cross := make([][]int, len(c.in.Messages))
	for i := range cross {
		for v := c.base[i]; v < c.base[i+1]; v++ {
			cross[i] = append(cross[i], int(s.lo[v]))
		}
	}
	return cross, st
}

func (c *cpwSearch) moved(v int32) { c.ov.mark(c.onEdg[v]) }

func (c *cpwSearch) drop() { c.ov.drop() }

func (c *cpwSearch) propagate(s *cpStore) bool {
	for {
		for v := s.pop(); v >= 0; v = s.pop() {
			i := c.msgOf[v]
			if v > c.base[i] && !s.setHi(v-1, s.hi[v]-1) {
				return false
			}
			if v+1 < c.base[i+1] && !s.setLo(v+1, s.lo[v]+1) {
				return false
			}
			for _, k := range c.watch[v] {
				if !c.con(s, &c.cons[k]) {
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

// con applies the rule of one pair on one edge.
func (c *cpwSearch) con(s *cpStore, k *cpwCon) bool {
	x, y := &k.x, &k.y
	a := k.canA && s.hi[y.t] >= s.lo[x.rel.v]+x.rel.c // x first still possible
	b := k.canB && s.hi[x.t] >= s.lo[y.rel.v]+y.rel.c // y first still possible
	switch {
	case !a && !b:
		return false
	case !b: // y.t >= x.rel
		return s.setLo(y.t, s.lo[x.rel.v]+x.rel.c) && s.setHi(x.rel.v, s.hi[y.t]-x.rel.c)
	case !a: // x.t >= y.rel
		return s.setLo(x.t, s.lo[y.rel.v]+y.rel.c) && s.setHi(y.rel.v, s.hi[x.t]-y.rel.c)
	}
	return true
}
