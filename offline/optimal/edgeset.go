package optimal

// The edge-set bound: horizons refuted by an exhaustive search over a relaxation of
// the instance to a few tight edges, a chronological branch and bound over those
// edges alone. It
// captures what no single-edge bound sees: several saturated edges in series (in a
// tree, the worms crossing 1->0 go on over 0->2 and 2->6), where the slack of one
// edge decides where the gaps of the next can fall. The technique is the one-machine
// relaxation of model.EdgeBound (Jackson's preemptive rule, used here as an EDF
// feasibility test on the free slots of each edge) inside a depth-first search over
// the order in which the tight edges are taken, as in the branch-and-bound methods
// for job shops with few machines (Carlier and Pinson, "An algorithm for solving the
// job-shop problem", Management Science 35, 1989: one-machine bounds at every node).
//
// # The relaxation
//
// Fix a horizon T and a set F of edges. For message i with path e_1 .. e_d, length
// L and head crossing times t_1 < ... < t_d (extended by t_{d+j} = t_d + j for the
// drain), MODEL.md rule 2 says that i holds e_k during [t_k, t_{k+L} - 1]: a hold of
// length L + (waits of the head at hops k+1 .. min(k+L, d)), where the wait at hop m
// is w_m = t_m - t_{m-1} - 1 (always 0 in the bufferless model). Keep only the holds
// of the F-edges and the conditions:
//   - t_k >= k for every hop (the head needs k steps);
//   - the delivery t_d + L - 1 <= T, so for the last F-hop k of a group (below) and
//     M = min(k + L, d): t_M + (d - M) + L - 1 <= T;
//   - the holds of one F-edge are pairwise disjoint.
//
// Every legal schedule of makespan <= T satisfies them, so if they have no solution,
// no schedule of makespan <= T exists (Lemma). The F-hops of a message form groups:
// consecutive F-hops k_a < k_b stay in one group when k_b <= k_a + L, since then
// every wait between them lengthens some hold of the group; a gap wider than L is
// cut (the wait there lengthens nothing, so the two groups are independent jobs of
// the relaxation, each with its own t_k >= k and delivery condition). A group with
// first F-hop k0 is a job: its start t_{k0}, and a wait profile (w_m for k0 < m <=
// M) that fixes every hold of the group relative to the start.
//
// # The search
//
// Time runs forward over the slots (t, f) of the F-edges, t = 1 .. T, f in F's
// order. At the first undecided free slot (t, f) either a job whose first F-edge is
// f starts there, with one of its wait profiles, or the slot stays idle. This is
// complete: in a solution, a free slot (t, f) not held by a job placed earlier is
// idle or the first hold of a job starting at t, since every other hold of a job
// starts after its first one. Jobs with the same hops, length and path length are
// interchangeable, so the search branches on kinds of jobs, not on messages.
//
// Pruning: at every node each F-edge must admit its remaining jobs (release max(k,
// t + k - k0), deadline T - (d - k), at least L consecutive slots each) in its
// undecided free slots: free runs shorter than the shortest job are dropped, a
// counting test bounds the jobs inside every window [R, D] by sum floor(run / L)
// over the runs, and EDF decides the preemptive problem on what is left (exact for
// the preemptive problem, hence a relaxation: the argument of Jackson's rule in
// model.EdgeBound). A wait w_m lengthens the holds of the F-edges e_k with k < m
// <= k + L; the profiles let each w_m up to the smallest slack of those edges at
// the root (free slots of the edge's window minus its load): a longer wait
// overloads that edge, which every node's test would reject anyway (esProfiles
// also explains the padding past the destination). Kinds that differ only in
// release and delivery are started in dominance order (dominators, an exchange
// argument). Failed states (time, slot, remaining kinds, the occupancy of the next
// 64 slots of each edge) are remembered, at most 2^20 of them.
//
// A search that runs out of its node budget proves nothing; refute reports whether
// it was exhaustive. Cost per node: O(|F| (K^2 R + T)) for K kinds and R free runs.
//
// Measured on issue 16's frontier (kary-tree --k 2 --depth 4 --traffic random
// --messages 128 --flits 4 --seed 1, edge bound 148 on 1->0; F = {1->0, 0->2,
// 2->6}, the three edges of 148 flits each): T = 148 is refuted in 4 nodes in both
// models, T = 149 in 4,751 nodes (bufferless) and 26,568 nodes (wormhole),
// BenchmarkEdgeSetFrontier 13 ms and 33 ms; cadical needed over 600 s for T = 148 on
// the same three edges before the busy-slot clauses (busy.go; with them it refutes
// 148 on the whole instance in about 1 s) and over 600 s for T = 149 with them, and
// Gecode's disjunctive model over 300 s for T = 149.

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/model"
)

// esHold is one hold of a job's profile: F-edge index fe, from start+a for n slots.
type esHold struct{ fe, a, n int }

// esProfile fixes the holds of a job relative to its start t0; the job is delivered
// no earlier than t0 + end.
type esProfile struct {
	holds []esHold
	end   int
}

// esKind is a kind of job: identical groups of F-hops of different messages.
type esKind struct {
	first    int // F-edge index of the first hold
	release  int // t0 >= release (the first F-hop k0)
	uses     []esUse
	profiles []esProfile
	count    int
	minLen   int // the shortest hold of any profile on any edge (L)
	// before lists the kinds that dominate this one (see dominators): while one of
	// them has a job left, this kind is not started.
	before []int
}

// esUse is one F-hop of a kind: the F-edge, the hop offset k - k0, and the edge's
// deadline for this job's hold end, T - (d - k).
type esUse struct{ fe, off, hop, deadline int }

// edgeSet is the search state for one horizon.
type edgeSet struct {
	ctx     context.Context
	T       int
	nf      int
	kinds   []esKind
	byFirst [][]int  // F-edge index -> kinds starting there
	occ     [][]bool // occ[fe][u]: slot u of F-edge fe is held (u in 1 .. T+reach)
	memo    map[string]struct{}
	nodes   int64
	budget  int64
	memoMax int
	aborted bool
	keyBuf  []byte
	edfBuf  []esTask
	runBuf  [][2]int
}

// esTask is aggregated work for the EDF test.
type esTask struct{ r, d, n, l, w int }

// maxProfiles bounds the wait profiles of one kind; a kind with more makes the
// horizon unrefutable by this search (refute returns false).
const maxProfiles = 1024

// newEdgeSet builds the relaxation of in on the F-edges fs for horizon T in the
// model. ok is false when the relaxation is trivially infeasible (some edge
// overloaded at the root: then the single-edge bounds already refute T) or too
// large to search (too many profiles).
func newEdgeSet(ctx context.Context, in *model.Instance, modelName string, fs []int, T int) (s *edgeSet, trivial bool, ok bool) {
	if len(fs) == 0 || T >= 1<<16 || len(in.Messages) >= 1<<16 || len(fs) > 255 {
		return nil, false, false // the memo key holds t, counts in 16 bits, f in 8
	}
	fIndex := map[int]int{}
	for x, e := range fs {
		fIndex[e] = x
	}
	nf := len(fs)
	// Root slack of each F-edge: slots of [min release, max deadline] minus load.
	lo := make([]int, nf)
	hi := make([]int, nf)
	load := make([]int, nf)
	for x := range lo {
		lo[x], hi[x] = T+1, 0
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		d := len(m.Path)
		for k1, e := range m.Path {
			x, isF := fIndex[e]
			if !isF {
				continue
			}
			k := k1 + 1
			lo[x] = min(lo[x], k)
			hi[x] = max(hi[x], T-(d-k))
			load[x] += m.L
		}
	}
	slack := make([]int, nf)
	for x := range slack {
		slack[x] = hi[x] - lo[x] + 1 - load[x]
		if load[x] > 0 && slack[x] < 0 {
			return nil, true, false
		}
	}
	kindOf := map[string]int{}
	var kinds []esKind
	for i := range in.Messages {
		m := &in.Messages[i]
		d, L := len(m.Path), m.L
		var hops []int // F-hops k (1-based) in path order
		for k1, e := range m.Path {
			if _, isF := fIndex[e]; isF {
				hops = append(hops, k1+1)
			}
		}
		for len(hops) > 0 {
			g := 1
			if modelName == model.Wormhole {
				for g < len(hops) && hops[g] <= hops[g-1]+L {
					g++
				}
			} else {
				g = len(hops) // no waits: one group
			}
			group := hops[:g]
			hops = hops[g:]
			k0 := group[0]
			var sb strings.Builder
			fmt.Fprintf(&sb, "%d/%d/%d", k0, d, L)
			var uses []esUse
			for _, k := range group {
				x := fIndex[m.Path[k-1]]
				uses = append(uses, esUse{fe: x, off: k - k0, hop: k, deadline: T - (d - k)})
				fmt.Fprintf(&sb, ",%d:%d", x, k)
			}
			key := sb.String()
			if id, seen := kindOf[key]; seen {
				kinds[id].count++
				continue
			}
			kd := esKind{first: uses[0].fe, release: k0, uses: uses, count: 1}
			profiles, fine := esProfiles(modelName, group, uses, d, L, slack)
			if !fine {
				return nil, false, false
			}
			kd.profiles = profiles
			kd.minLen = L
			kindOf[key] = len(kinds)
			kinds = append(kinds, kd)
		}
	}
	reach := 0
	for _, kd := range kinds {
		for _, p := range kd.profiles {
			for _, h := range p.holds {
				reach = max(reach, h.a+h.n)
			}
		}
	}
	if reach > 64 {
		return nil, false, false // the memo key keeps 64 slots per edge
	}
	s = &edgeSet{ctx: ctx, T: T, nf: nf, kinds: kinds, byFirst: make([][]int, nf), memo: map[string]struct{}{}}
	for id, kd := range kinds {
		s.byFirst[kd.first] = append(s.byFirst[kd.first], id)
	}
	dominators(s.kinds)
	s.occ = make([][]bool, nf)
	for x := range s.occ {
		s.occ[x] = make([]bool, T+reach+2)
	}
	return s, false, true
}

// esProfiles enumerates the wait profiles of a group of F-hops (hops k, their uses)
// of a message with path length d and length L: one without waits in the
// bufferless model; in the wormhole model every vector (w_m) for k0 < m <= k_last +
// L, with w_m at most the least root slack of the edges it lengthens and the
// lengthening of each edge within its slack, zero waits first, then by total wait.
//
// A position m > d is padding: no wait happens there (the worm drains), but the
// profile lengthens the holds it would lengthen and leaves the delivery alone.
// Every real profile is the one with zero padding, and a padded profile differs
// from it only by longer holds, so padding never makes the relaxation feasible
// where it was not; it makes the profile lists of groups with the same hops but
// different path lengths identical, which the dominance rule (dominators) needs.
func esProfiles(modelName string, hops []int, uses []esUse, d, L int, slack []int) ([]esProfile, bool) {
	k0, kl := hops[0], hops[len(hops)-1]
	M := min(kl+L, d) // the last real position that lengthens a hold
	build := func(w map[int]int) esProfile {
		// t_k - t0 = (k - k0) + sum_{k0 < m <= k} w_m, for k <= d
		at := func(k int) int {
			v := k - k0
			for m := k0 + 1; m <= k; m++ {
				v += w[m]
			}
			return v
		}
		var p esProfile
		for _, u := range uses {
			n := L
			for m := u.hop + 1; m <= u.hop+L; m++ {
				n += w[m]
			}
			p.holds = append(p.holds, esHold{fe: u.fe, a: at(u.hop), n: n})
		}
		p.end = at(M) + (d - M) + L - 1
		return p
	}
	if modelName != model.Wormhole {
		return []esProfile{build(nil)}, true
	}
	// Positions and the edges each lengthens.
	type pos struct {
		m   int
		cap int
		fes []int
	}
	var ps []pos
	for m := k0 + 1; m <= kl+L; m++ {
		p := pos{m: m, cap: -1}
		for _, u := range uses {
			if u.hop < m && m <= u.hop+L {
				p.fes = append(p.fes, u.fe)
				if p.cap < 0 || slack[u.fe] < p.cap {
					p.cap = slack[u.fe]
				}
			}
		}
		if p.cap < 0 {
			return nil, false // cannot happen inside a group
		}
		ps = append(ps, p)
	}
	var out []esProfile
	var total []int
	w := map[int]int{}
	used := make([]int, len(slack))
	sum := 0
	var rec func(x int) bool
	rec = func(x int) bool {
		if x == len(ps) {
			out = append(out, build(w))
			total = append(total, sum)
			return len(out) <= maxProfiles
		}
		p := ps[x]
		for v := 0; v <= p.cap; v++ {
			fine := true
			for _, fe := range p.fes {
				if used[fe]+v > slack[fe] {
					fine = false
				}
			}
			if !fine {
				break
			}
			for _, fe := range p.fes {
				used[fe] += v
			}
			w[p.m], sum = v, sum+v
			more := rec(x + 1)
			for _, fe := range p.fes {
				used[fe] -= v
			}
			sum -= v
			if !more {
				return false
			}
		}
		w[p.m] = 0
		return true
	}
	if !rec(0) {
		return nil, false
	}
	// Zero waits first, then by total wait (the same order for every group with
	// these hops, whatever d).
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return total[idx[a]] < total[idx[b]] })
	sorted := make([]esProfile, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted, true
}

// refute searches the relaxation; it returns true when the search was exhaustive
// and found no solution (no schedule of makespan <= T exists).
func (s *edgeSet) refute(budget int64) bool {
	s.budget = budget
	s.memoMax = 1 << 20
	found := s.dfs(1, 0)
	return !found && !s.aborted
}

// dfs decides slot (t, f) and everything after; true when a solution was found or
// the search was cut short (s.aborted).
func (s *edgeSet) dfs(t, f int) bool {
	// Advance to the next undecided free slot.
	for t <= s.T && s.occ[f][t] {
		f++
		if f == s.nf {
			f, t = 0, t+1
		}
	}
	if s.remaining() == 0 {
		return true
	}
	if t > s.T {
		return false
	}
	s.nodes++
	if s.nodes > s.budget {
		s.aborted = true
		return true
	}
	if s.nodes&4095 == 0 && s.ctx.Err() != nil {
		s.aborted = true
		return true
	}
	key := s.key(t, f)
	if _, failed := s.memo[key]; failed {
		return false
	}
	if !s.feasible(t, f) {
		s.remember(key)
		return false
	}
	nt, nfe := t, f+1
	if nfe == s.nf {
		nt, nfe = t+1, 0
	}
	for _, id := range s.byFirst[f] {
		kd := &s.kinds[id]
		if kd.count == 0 || kd.release > t || s.waits(kd) {
			continue
		}
		for pi := range kd.profiles {
			p := &kd.profiles[pi]
			if t+p.end > s.T || !s.fits(t, p) {
				continue
			}
			s.place(t, p, true)
			kd.count--
			found := s.dfs(nt, nfe)
			kd.count++
			s.place(t, p, false)
			if found {
				return true
			}
		}
	}
	// Idle: mark the slot held for the rest of this branch.
	s.occ[f][t] = true
	found := s.dfs(nt, nfe)
	s.occ[f][t] = false
	if found {
		return true
	}
	s.remember(key)
	return false
}

// waits reports whether a kind that dominates kd still has a job left.
func (s *edgeSet) waits(kd *esKind) bool {
	for _, a := range kd.before {
		if s.kinds[a].count > 0 {
			return true
		}
	}
	return false
}

// dominators fills each kind's before list. Kind a dominates kind b when they start
// on the same F-edge and have the same profiles (the same holds, profile by
// profile), a is released no later (a.release <= b.release), a is delivered no
// earlier relative to its start under every profile (a.end(p) >= b.end(p)), one of
// these is strict, and a's ends differ little: a.end(p) - min_q a.end(q) <= n(p),
// the length of p's first hold (always true without waits).
//
// Lemma (exchange). If the relaxation has a solution, it has one in which no job of
// b starts before a job of a. Take b's job at t1 with profile p and a's job at t2 >
// t1 with profile q, and give each slot the other kind, keeping the profiles: the
// holds do not change; a at t1 is released (t1 >= b.release >= a.release); b at t2
// is delivered in time (t2 + b.end(q) <= t2 + a.end(q) <= T); and a at t1 too,
// since both first holds are on one edge, so t2 >= t1 + n(p), and t1 + a.end(p) <=
// t1 + n(p) + a.end(q) <= t2 + a.end(q) <= T. Each such swap raises sum rank(kind)
// * start for any linear order of the kinds extending dominance, so swapping ends,
// for all dominating pairs at once. So the search may start a job of b only when
// no job of a kind dominating b is left.
func dominators(kinds []esKind) {
	for b := range kinds {
		kb := &kinds[b]
		kb.before = kb.before[:0]
		for a := range kinds {
			ka := &kinds[a]
			if a == b || ka.first != kb.first || ka.release > kb.release || len(ka.profiles) != len(kb.profiles) {
				continue
			}
			strict := ka.release < kb.release
			fine := true
			lo := ka.profiles[0].end
			for _, p := range ka.profiles {
				lo = min(lo, p.end)
			}
			for x, pa := range ka.profiles {
				pb := kb.profiles[x]
				if pa.end < pb.end || !slices.Equal(pa.holds, pb.holds) || pa.end-lo > pa.holds[0].n {
					fine = false
					break
				}
				strict = strict || pa.end > pb.end
			}
			if fine && strict {
				kb.before = append(kb.before, a)
			}
		}
	}
}

func (s *edgeSet) remember(key string) {
	if len(s.memo) < s.memoMax {
		s.memo[key] = struct{}{}
	}
}

func (s *edgeSet) remaining() int {
	n := 0
	for i := range s.kinds {
		n += s.kinds[i].count
	}
	return n
}

func (s *edgeSet) fits(t int, p *esProfile) bool {
	for _, h := range p.holds {
		row := s.occ[h.fe]
		for u := t + h.a; u < t+h.a+h.n; u++ {
			if row[u] {
				return false
			}
		}
	}
	return true
}

func (s *edgeSet) place(t int, p *esProfile, on bool) {
	for _, h := range p.holds {
		row := s.occ[h.fe]
		for u := t + h.a; u < t+h.a+h.n; u++ {
			row[u] = on
		}
	}
}

// key is the memo key of the state at slot (t, f): the slot, the remaining count of
// every kind and the occupancy of slots t .. t+63 of every edge.
func (s *edgeSet) key(t, f int) string {
	b := s.keyBuf[:0]
	b = append(b, byte(t), byte(t>>8), byte(f))
	for i := range s.kinds {
		b = append(b, byte(s.kinds[i].count), byte(s.kinds[i].count>>8))
	}
	for x := 0; x < s.nf; x++ {
		var w uint64
		row := s.occ[x]
		for u := 0; u < 64 && t+u < len(row); u++ {
			if row[t+u] {
				w |= 1 << u
			}
		}
		for j := 0; j < 8; j++ {
			b = append(b, byte(w>>(8*j)))
		}
	}
	s.keyBuf = b
	return string(b)
}

// feasible tests every F-edge: its remaining jobs, each with release max(hop, t +
// off) (they start at t or later; the first hold at (t, f) only if its edge is not
// before f) and deadline T - (d - hop), must fit into the edge's undecided free
// slots (slot t of the edges before f is decided). A hold is at least L slots in
// one free run, so a run shorter than the shortest remaining job serves nobody, and
// a run of r slots inside a window [R, D] holds at most floor(r / Lmin) of the jobs
// released at R or later and due by D (the counting test); then the EDF test on the
// remaining slots (preemptive, so a relaxation).
func (s *edgeSet) feasible(t, f int) bool {
	for x := 0; x < s.nf; x++ {
		tasks := s.edfBuf[:0]
		for i := range s.kinds {
			kd := &s.kinds[i]
			if kd.count == 0 {
				continue
			}
			start := max(t, kd.release)
			if kd.first < f {
				start = max(start, t+1)
			}
			for _, u := range kd.uses {
				if u.fe == x {
					tasks = append(tasks, esTask{r: max(u.hop, start+u.off), d: u.deadline, n: kd.count, l: kd.minLen})
				}
			}
		}
		s.edfBuf = tasks
		if len(tasks) == 0 {
			continue
		}
		first := t
		if x < f {
			first = t + 1
		}
		if !s.edgeFits(tasks, s.occ[x], first) {
			return false
		}
	}
	return true
}

// edgeFits runs the counting and EDF tests of feasible on one edge.
func (s *edgeSet) edgeFits(tasks []esTask, occ []bool, first int) bool {
	lmin, last := tasks[0].l, 0
	for _, k := range tasks {
		lmin = min(lmin, k.l)
		last = max(last, k.d)
	}
	if last >= len(occ) {
		last = len(occ) - 1
	}
	// Free runs of at least lmin slots in [first, last].
	runs := s.runBuf[:0]
	for u := first; u <= last; {
		if occ[u] {
			u++
			continue
		}
		v := u
		for v+1 <= last && !occ[v+1] {
			v++
		}
		if v-u+1 >= lmin {
			runs = append(runs, [2]int{u, v})
		}
		u = v + 1
	}
	s.runBuf = runs
	// Counting test over windows [R, D] from the tasks' releases and deadlines: for
	// each release R, the tasks released at R or later by deadline, D rising.
	slices.SortFunc(tasks, func(a, b esTask) int { return a.d - b.d })
	for x, a := range tasks {
		R := a.r
		if x > 0 && slices.ContainsFunc(tasks[:x], func(c esTask) bool { return c.r == R }) {
			continue // this release was tried
		}
		need, lm := 0, 0
		for y, c := range tasks {
			if c.r < R {
				continue
			}
			need += c.n
			if lm == 0 || c.l < lm {
				lm = c.l
			}
			if y+1 < len(tasks) && tasks[y+1].d == c.d {
				continue // the window ends at the last task due at D
			}
			D := c.d
			have := 0
			for _, rn := range runs {
				lo, hi := max(rn[0], R), min(rn[1], D)
				if hi-lo+1 >= lm {
					have += (hi - lo + 1) / lm
				}
			}
			if have < need {
				return false
			}
		}
	}
	return edf(tasks, runs)
}

// edf reports whether the tasks (release r, deadline d, n jobs of l slots) fit
// preemptively into the slots of the runs, serving the earliest deadline first.
// EDF is optimal for this preemptive problem, so false is a proof.
func edf(tasks []esTask, runs [][2]int) bool {
	slices.SortFunc(tasks, func(a, b esTask) int { return a.r - b.r })
	for i := range tasks {
		tasks[i].w = tasks[i].n * tasks[i].l
	}
	var h []esTask // small: linear scans
	next, ri, u := 0, 0, 0
	for next < len(tasks) || len(h) > 0 {
		if len(h) == 0 && u < tasks[next].r {
			u = tasks[next].r
		}
		for ri < len(runs) && u > runs[ri][1] {
			ri++
		}
		if ri == len(runs) {
			return false // work left and no slot
		}
		if u < runs[ri][0] {
			u = runs[ri][0]
		}
		for next < len(tasks) && tasks[next].r <= u {
			h = append(h, tasks[next])
			next++
		}
		if len(h) == 0 {
			continue
		}
		bi := 0
		for i := range h {
			if h[i].d < h[bi].d {
				bi = i
			}
		}
		if u > h[bi].d {
			return false
		}
		h[bi].w--
		if h[bi].w == 0 {
			h[bi] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		u++
	}
	return true
}

// subBound raises lower by refuting horizons on the relaxation to the tight edges
// (see the top of this file): for T = lower, lower+1, ... while the search over the
// edge set proves that no schedule of makespan <= T exists, the bound becomes T+1.
// It stops at the first horizon it cannot refute, when budget (wall time) runs out
// or ctx is cancelled, and returns the best bound proven (never below lower) with a
// line saying how.
//
// Lemma. A schedule of makespan <= T satisfies every condition of the relaxation on
// any edge set F, so an exhaustive search that finds no solution proves that the
// optimum exceeds T (in the model searched: bufferless without waits, wormhole with
// every wait profile the root slack allows).
func subBound(ctx context.Context, in *model.Instance, modelName string, lower int, budget time.Duration) (int, string, error) {
	cctx, cancel := context.WithDeadline(ctx, time.Now().Add(budget))
	defer cancel()
	return subBoundNodes(cctx, in, modelName, lower, 1<<40)
}

// subBoundNodes is subBound with a budget of search nodes over all horizons
// instead of wall time, so that the bound it proves does not depend on the speed
// or the load of the machine (Solve uses it; issue 27: at load 20 a 5 s wall
// budget left the 6x6 mesh's bound at 77 where 2.9 s of CPU prove 78).
func subBoundNodes(ctx context.Context, in *model.Instance, modelName string, lower int, nodes int64) (int, string, error) {
	if modelName != model.Wormhole && modelName != model.Bufferless {
		return lower, "", fmt.Errorf("optimal: model %q is neither %q nor %q", modelName, model.Wormhole, model.Bufferless)
	}
	best, detail := lower, ""
	for T := lower; nodes > 0 && ctx.Err() == nil; T++ {
		groups := tightGroups(in, T)
		if len(groups) == 0 {
			break
		}
		refuted := false
		for _, fs := range groups {
			s, trivial, ok := newEdgeSet(ctx, in, modelName, fs, T)
			if trivial {
				refuted, detail = true, fmt.Sprintf("edges %v overloaded at horizon %d", fs, T)
				break
			}
			if !ok {
				continue
			}
			r := s.refute(nodes)
			nodes -= s.nodes
			if r {
				refuted = true
				detail = fmt.Sprintf("edge set %s: no %s schedule of makespan %d (exhaustive search, %d nodes)", edgeNames(in, fs), modelName, T, s.nodes)
				break
			}
			if nodes <= 0 || ctx.Err() != nil {
				break
			}
		}
		if !refuted {
			break
		}
		best = T + 1
	}
	return best, detail, nil
}

// maxGroupEdges is the most edges of one relaxation of the edge-set bound:
// the search's cost grows with the product of its edges' choices.
const maxGroupEdges = 4

// tightGroups returns the relaxations the edge-set bound searches at horizon T:
// the tight edges (root slack at most 3, at most 16 of them) cut into groups
// that no message links (an edge joins the group of another when some message
// uses both), each group its maxGroupEdges tightest edges, in the order of their
// tightest edge. The relaxation to a union of unlinked groups is the product of
// the groups' relaxations (no job holds edges of two of them), so it has a
// solution iff each group's has, and searching the groups one by one decides it
// without the product of their choices: on issue 27's 6x6 mesh of seed 1 the
// four tight edges at 77 are two unlinked pairs, and the pair {2,2->2,3,
// 4,2->3,2} refutes 77 in the wormhole model in 32,747 nodes, where the search
// over all four was not done after minutes. A group cut to its tightest edges is
// still a relaxation of the instance, so a refuted group proves the bound.
func tightGroups(in *model.Instance, T int) [][]int {
	fs := tightEdges(in, T, 3, 16)
	if len(fs) == 0 {
		return nil
	}
	// union-find over the tight edges, joined by every message using two
	at := map[int]int{}
	for x, e := range fs {
		at[e] = x
	}
	parent := make([]int, len(fs))
	for x := range parent {
		parent[x] = x
	}
	root := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for i := range in.Messages {
		first := -1
		for _, e := range in.Messages[i].Path {
			if x, ok := at[e]; ok {
				if first < 0 {
					first = x
				} else {
					parent[root(x)] = root(first)
				}
			}
		}
	}
	var groups [][]int
	where := map[int]int{}
	for x, e := range fs { // fs is in least-slack order
		r := root(x)
		g, ok := where[r]
		if !ok {
			g = len(groups)
			where[r] = g
			groups = append(groups, nil)
		}
		if len(groups[g]) < maxGroupEdges {
			groups[g] = append(groups[g], e)
		}
	}
	for _, g := range groups {
		sort.Ints(g)
	}
	return groups
}

// tightEdges returns up to maxEdges edges whose root slack at horizon T (free slots
// of [min release, max deadline] minus the flit load) is at most maxSlack, the
// least slack first (ties: heavier load, then lower index), in that order.
func tightEdges(in *model.Instance, T, maxSlack, maxEdges int) []int {
	type cand struct{ e, slack, load int }
	var cs []cand
	for e, us := range in.Users() {
		if len(us) < 2 {
			continue
		}
		lo, hi, load := T+1, 0, 0
		for _, u := range us {
			m := &in.Messages[u.Msg]
			k := u.Pos + 1
			lo = min(lo, k)
			hi = max(hi, T-(len(m.Path)-k))
			load += m.L
		}
		if sl := hi - lo + 1 - load; sl <= maxSlack {
			cs = append(cs, cand{e, sl, load})
		}
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].slack != cs[b].slack {
			return cs[a].slack < cs[b].slack
		}
		if cs[a].load != cs[b].load {
			return cs[a].load > cs[b].load
		}
		return cs[a].e < cs[b].e
	})
	if len(cs) > maxEdges {
		cs = cs[:maxEdges]
	}
	var fs []int
	for _, c := range cs {
		fs = append(fs, c.e)
	}
	return fs
}

func edgeNames(in *model.Instance, fs []int) string {
	var parts []string
	for _, e := range fs {
		parts = append(parts, fmt.Sprintf("%d (%s)", e, in.Net.EdgeName(e)))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
