package certify

// The edge-set certificate: a horizon refuted by an exhaustive search of the
// relaxation of the instance to a few edges. This file is the checker's own search,
// written from MODEL.md and the lemma below; it shares no code with the solver's
// edge-set bound (package optimal), whose claim it re-decides.
//
// # The relaxation and the lemma
//
// Fix a horizon T, a model and a set F of edges. Message i (path e_1 .. e_d, length
// L, head crossing times t_1 < ... < t_d, extended by the drain t_{d+j} = t_d + j)
// holds e_k during [t_k, t_{k+L} - 1] (MODEL.md, rule 2). Keep, for the F-hops k of
// every message (e_k in F), only these facts of a schedule of makespan <= T:
//
//  1. t_k >= k (the head needs k steps), and for F-hops k < k' of one message,
//     t_k' >= t_k + (k' - k) (strictly increasing times);
//  2. delivery: t_d + L - 1 <= T, so t_k <= T - L + 1 - (d - k) for every hop k;
//  3. the hold of e_k contains [t_k, E_k] with
//     E_k = max over F-hops k' of the message with k <= k' <= k + L of
//     t_k' + (k + L - k') - 1, because t_{k+L} >= t_k' + (k + L - k');
//  4. for each edge of F the intervals [t_k, E_k] of different messages are
//     pairwise disjoint (they lie inside holds, which are disjoint).
//
// Lemma. Every legal schedule of makespan <= T satisfies 1-4 for every F; so if no
// assignment of the t_k of the F-hops satisfies them, no schedule of makespan <= T
// exists in the model, and the optimum exceeds T.
//
// In the bufferless model t_k = s + k, so the F-hops of a message are one job with
// one unknown (its start) and holds of exactly L at fixed offsets; the relaxation is
// exact on F. In the wormhole model the head may wait: write W_j for the total wait
// between the first F-hop k_0 of a group and its j-th F-hop (t_{k_j} = t_{k_0} + (k_j
// - k_0) + W_j); then by 3 the hold of hop j is longer than L by W_r - W_j, r the last
// F-hop within k_j + L. When the next F-hop lies beyond k_j + L no hold of the earlier
// hops depends on it; the search then drops the coupling t_k' >= t_k + (k' - k)
// between the two groups (a further relaxation) and treats them as separate jobs.
// Each hold extension is at most the edge's root slack (the slots of its window
// [min k, max T - (d - k)] minus the sum of L of its users): a longer hold leaves too
// few slots for the other users, so bounding the waits by it loses no solution.
//
// # The search
//
// Chronological over the slots (t, f), t = 1 .. T, f in F's order. At the first
// free slot either a job whose first F-edge is f starts there (with one of its wait
// profiles, placing all its holds), or the slot stays idle. This is complete: in a
// solution, the first hold of every job is its earliest, so every free slot is
// either idle or the start of a job not yet placed. Jobs with equal hops, release
// and path length are interchangeable and counted, not named. At every node each
// edge of F must pass Horn's test for its remaining holds (release, deadline,
// length L, preemptive: for every window [R, D] the holds released at or after R and
// due by D need no more than the free slots in it, free runs shorter than the
// shortest hold not counted); failed states (slot, remaining counts, occupancy of
// the slots ahead) are remembered. Kinds with the same hops relative to their
// start, edges and L (a class: the same wait profiles) differ only in release and
// deadline; at a slot, a kind is not started with a profile that a more urgent
// kind of its class, released by then, could take there (exchange: swapping the
// two jobs' placements keeps both within their deadlines; see dominated).
//
// Cost per node O(|F| (K^2 + T)) for K kinds of job. Measured on issue 16's
// frontier tree at horizon 149, F = {1->0, 0->2, 2->6}: 790 nodes, 2.0 ms
// (bufferless), 1,131 nodes, 2.4-3.0 ms (wormhole), BenchmarkEdgeSetCheckFrontier;
// without the class dominance neither search finished within 5,000,000 nodes.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wormlab/wormlab/model"
)

// KindEdgeSet is a certificate whose horizon makespan-1 is refuted by the
// exhaustive search of the relaxation to an edge set (see EdgeSet).
const KindEdgeSet = "edge-set"

// EdgeSet is the claim of an edge-set certificate: the relaxation of the instance
// to Edges has no solution at Horizon (the makespan minus one) in the manifest's
// model. EdgeNames are the edges as "from->to", checked against the instance;
// Nodes is the writer's count of search nodes (the checker reports its own).
type EdgeSet struct {
	Horizon   int      `json:"horizon"`
	Edges     []int    `json:"edges"`
	EdgeNames []string `json:"edge_names"`
	Nodes     int64    `json:"nodes"`
}

// Limits of the relaxation: an edge set this large or a kind with this many wait
// profiles is refused (the claim then cannot be checked).
const (
	maxRelaxEdges    = 16
	maxRelaxProfiles = 4096
	maxRelaxMemo     = 1 << 20
	// checkNodeLimit bounds the checker's search (about a minute on this
	// machine): a claim it cannot decide within it is not confirmed.
	checkNodeLimit = 1 << 25
)

// rxHold is one hold of a profile: F-edge index x, from start+a for n slots.
type rxHold struct{ x, a, n int }

// rxProfile fixes a job's holds relative to its start; latest is its latest start.
type rxProfile struct {
	holds  []rxHold
	latest int
}

// rxHop is one F-hop of a kind, for Horn's test: edge, least offset from the start,
// deadline of the hold's end.
type rxHop struct{ x, off, dl int }

type rxKind struct {
	first, release, L int
	count             int
	// class numbers the kinds with the same hops relative to the start, edges and
	// L: they have the same profiles (same index), latest starts shifted by a
	// constant; urgency is the latest start of profile 0 (smaller: more urgent).
	class, urgency int
	hops           []rxHop
	profiles       []rxProfile
}

// relaxation is the search state for one horizon.
type relaxation struct {
	ctx      context.Context
	T, nf    int
	kinds    []rxKind
	byFirst  [][]int
	occ      [][]bool // occ[x][u], u in 0 .. T+1
	reach    int      // largest a+n of any hold
	left     int      // jobs not yet placed
	memo     map[string]struct{}
	nodes    int64
	maxNodes int64
	stopped  bool
	key      []byte
	free     []int
	pre      []int
	tasks    []rxTask
}

type rxTask struct{ r, d, dem int }

// edgeSetRefutes decides the claim: true when the relaxation of in to the edges fs
// has no solution at horizon T in the model (the search was exhaustive), false
// when it has one. reason says how; err is for a search that was stopped (ctx,
// maxNodes > 0 exceeded) or a relaxation this checker refuses to build.
func edgeSetRefutes(ctx context.Context, in *model.Instance, modelName string, fs []int, T int, maxNodes int64) (refuted bool, nodes int64, reason string, err error) {
	if err := ctx.Err(); err != nil {
		return false, 0, "", err
	}
	r, trivial, err := newRelaxation(ctx, in, modelName, fs, T)
	if err != nil {
		return false, 0, "", err
	}
	if trivial != "" {
		return true, 0, trivial, nil
	}
	r.maxNodes = maxNodes
	found := r.search(1, 0)
	if r.stopped {
		if ctx.Err() != nil {
			return false, r.nodes, "", ctx.Err()
		}
		return false, r.nodes, "", fmt.Errorf("edge set: search stopped after %d nodes: the claim is not confirmed", r.nodes)
	}
	if found {
		return false, r.nodes, fmt.Sprintf("the relaxation has a solution at horizon %d", T), nil
	}
	return true, r.nodes, fmt.Sprintf("exhaustive search, %d nodes", r.nodes), nil
}

func newRelaxation(ctx context.Context, in *model.Instance, modelName string, fs []int, T int) (*relaxation, string, error) {
	if modelName != model.Wormhole && modelName != model.Bufferless {
		return nil, "", fmt.Errorf("edge set: model %q is neither %s nor %s", modelName, model.Wormhole, model.Bufferless)
	}
	if len(fs) == 0 || len(fs) > maxRelaxEdges {
		return nil, "", fmt.Errorf("edge set: %d edges (want 1 to %d)", len(fs), maxRelaxEdges)
	}
	if T < 1 || T >= 1<<24 || len(in.Messages) >= 1<<16 {
		return nil, "", fmt.Errorf("edge set: horizon %d or %d messages out of range (the memo key holds t in 24 bits, counts in 16)", T, len(in.Messages))
	}
	index := map[int]int{}
	for x, e := range fs {
		if e < 0 || e >= len(in.Net.Edges) {
			return nil, "", fmt.Errorf("edge set: edge %d does not exist (the network has %d edges)", e, len(in.Net.Edges))
		}
		if _, dup := index[e]; dup {
			return nil, "", fmt.Errorf("edge set: edge %d listed twice", e)
		}
		index[e] = x
	}
	nf := len(fs)
	// Root slack of each edge of F.
	lo, hi, load, users := make([]int, nf), make([]int, nf), make([]int, nf), make([]int, nf)
	for x := range lo {
		lo[x], hi[x] = T+1, 0
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		d := len(m.Path)
		for k1, e := range m.Path {
			if x, ok := index[e]; ok {
				k := k1 + 1
				lo[x], hi[x] = min(lo[x], k), max(hi[x], T-(d-k))
				load[x] += m.L
				users[x]++
				if T-(d-k)-k+1 < m.L {
					return nil, fmt.Sprintf("message %s cannot cross edge %d (%s) and be delivered by %d", m.ID, e, in.Net.EdgeName(e), T), nil
				}
			}
		}
	}
	slack := make([]int, nf)
	for x := range slack {
		slack[x] = hi[x] - lo[x] + 1 - load[x]
		if users[x] > 0 && slack[x] < 0 {
			return nil, fmt.Sprintf("edge %d (%s): %d flits in the %d slots %d..%d", fs[x], in.Net.EdgeName(fs[x]), load[x], hi[x]-lo[x]+1, lo[x], hi[x]), nil
		}
	}
	r := &relaxation{ctx: ctx, T: T, nf: nf, byFirst: make([][]int, nf), memo: map[string]struct{}{}}
	kindOf, classOf := map[string]int{}, map[string]int{}
	for i := range in.Messages {
		m := &in.Messages[i]
		d, L := len(m.Path), m.L
		var ks, xs []int
		for k1, e := range m.Path {
			if x, ok := index[e]; ok {
				ks, xs = append(ks, k1+1), append(xs, x)
			}
		}
		for len(ks) > 0 {
			g := len(ks)
			if modelName == model.Wormhole {
				g = 1
				for g < len(ks) && ks[g] <= ks[g-1]+L {
					g++
				}
			}
			gk, gx := ks[:g], xs[:g]
			ks, xs = ks[g:], xs[g:]
			var sb strings.Builder
			for j := range gk {
				fmt.Fprintf(&sb, ":%d@%d", gx[j], gk[j]-gk[0])
			}
			shape := fmt.Sprintf("%d", L) + sb.String()
			key := fmt.Sprintf("%d/%d/", d, gk[0]) + shape
			c, seen := kindOf[key]
			if !seen {
				kd, err := newKind(modelName, T, d, L, gk, gx, slack)
				if err != nil {
					return nil, "", fmt.Errorf("edge set: message %s: %w", m.ID, err)
				}
				possible := false
				for _, p := range kd.profiles {
					possible = possible || p.latest >= kd.release
				}
				if !possible {
					return nil, fmt.Sprintf("message %s: no placement of its hops on the edge set meets horizon %d", m.ID, T), nil
				}
				cl, seen := classOf[shape]
				if !seen {
					cl = len(classOf)
					classOf[shape] = cl
				}
				kd.class, kd.urgency = cl, kd.profiles[0].latest
				c = len(r.kinds)
				kindOf[key] = c
				r.kinds = append(r.kinds, kd)
				r.byFirst[kd.first] = append(r.byFirst[kd.first], c)
				for _, p := range kd.profiles {
					for _, h := range p.holds {
						r.reach = max(r.reach, h.a+h.n)
					}
				}
			}
			r.kinds[c].count++
			r.left++
		}
	}
	r.occ = make([][]bool, nf)
	for x := range r.occ {
		r.occ[x] = make([]bool, T+2+r.reach)
	}
	r.free = make([]int, T+2)
	r.pre = make([]int, T+2)
	return r, "", nil
}

// newKind lists the wait profiles of a group of F-hops gk (1-based hops, edges gx).
func newKind(modelName string, T, d, L int, gk, gx []int, slack []int) (rxKind, error) {
	k0 := gk[0]
	kd := rxKind{first: gx[0], release: k0, L: L}
	for j := range gk {
		kd.hops = append(kd.hops, rxHop{x: gx[j], off: gk[j] - k0, dl: T - (d - gk[j])})
	}
	last := len(gk) - 1
	// reachOf[j]: the last F-hop of the group within gk[j] + L.
	reachOf := make([]int, len(gk))
	for j := range gk {
		reachOf[j] = j
		for reachOf[j]+1 < len(gk) && gk[reachOf[j]+1] <= gk[j]+L {
			reachOf[j]++
		}
	}
	W := make([]int, len(gk))
	emit := func() {
		latest := T - L + 1 - d + k0 - W[last]
		p := rxProfile{latest: latest}
		for j := range gk {
			p.holds = append(p.holds, rxHold{x: gx[j], a: gk[j] - k0 + W[j], n: L + W[reachOf[j]] - W[j]})
		}
		kd.profiles = append(kd.profiles, p)
	}
	if modelName == model.Bufferless {
		emit()
		return kd, nil
	}
	var rec func(j int) error
	rec = func(j int) error {
		if j == len(gk) {
			emit()
			if len(kd.profiles) > maxRelaxProfiles {
				return fmt.Errorf("more than %d wait profiles", maxRelaxProfiles)
			}
			return nil
		}
		// The wait before hop j lengthens the holds of the hops j' < j that reach j.
		maxW := T
		for jp := 0; jp < j; jp++ {
			if reachOf[jp] >= j {
				maxW = min(maxW, slack[gx[jp]]-(W[j-1]-W[jp]))
			}
		}
		for w := 0; w <= maxW; w++ {
			W[j] = W[j-1] + w
			if err := rec(j + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rec(1); err != nil {
		return kd, err
	}
	return kd, nil
}

// search reports whether the relaxation has a solution with every slot before
// (t, x) decided.
func (r *relaxation) search(t, x int) bool {
	for {
		if r.left == 0 {
			return true
		}
		if t > r.T {
			return false
		}
		if !r.occ[x][t] {
			break
		}
		t, x = r.next(t, x)
	}
	r.nodes++
	if r.stopped || (r.maxNodes > 0 && r.nodes > r.maxNodes) {
		r.stopped = true
		return false
	}
	if r.nodes&4095 == 0 && r.ctx.Err() != nil {
		r.stopped = true
		return false
	}
	if !r.feasible(t, x) {
		return false
	}
	key := r.stateKey(t, x)
	if _, failed := r.memo[key]; failed {
		return false
	}
	nt, nx := r.next(t, x)
	for _, c := range r.byFirst[x] {
		kd := &r.kinds[c]
		if kd.count == 0 || kd.release > t {
			continue
		}
		for pi := range kd.profiles {
			p := &kd.profiles[pi]
			if p.latest < t || r.dominated(c, pi, t) || !r.fits(t, p) {
				continue
			}
			r.place(t, p, true)
			kd.count--
			r.left--
			ok := r.search(nt, nx)
			kd.count++
			r.left++
			r.place(t, p, false)
			if ok {
				return true
			}
			if r.stopped {
				return false
			}
		}
	}
	if r.search(nt, nx) {
		return true
	}
	if !r.stopped && len(r.memo) < maxRelaxMemo {
		r.memo[key] = struct{}{}
	}
	return false
}

// dominated reports whether starting kind c with profile pi at t may be skipped:
// another kind of the same class, released by t, more urgent (or as urgent and
// listed first), can take the same profile at t. Exchange: in a solution that
// starts c here and places the other job later with placement P, swap the two
// jobs; the other job meets its deadline here (t is within its latest start), and
// c meets its own on P, since P ended in time for the more urgent job.
func (r *relaxation) dominated(c, pi, t int) bool {
	kd := &r.kinds[c]
	for _, c2 := range r.byFirst[kd.first] {
		o := &r.kinds[c2]
		if c2 == c || o.class != kd.class || o.count == 0 || o.release > t {
			continue
		}
		if (o.urgency < kd.urgency || (o.urgency == kd.urgency && c2 < c)) && t <= o.profiles[pi].latest {
			return true
		}
	}
	return false
}

func (r *relaxation) next(t, x int) (int, int) {
	if x+1 < r.nf {
		return t, x + 1
	}
	return t + 1, 0
}

func (r *relaxation) fits(t int, p *rxProfile) bool {
	for _, h := range p.holds {
		row := r.occ[h.x]
		for u := t + h.a; u < t+h.a+h.n; u++ {
			if row[u] {
				return false
			}
		}
	}
	return true
}

func (r *relaxation) place(t int, p *rxProfile, v bool) {
	for _, h := range p.holds {
		row := r.occ[h.x]
		for u := t + h.a; u < t+h.a+h.n; u++ {
			row[u] = v
		}
	}
}

// stateKey encodes what decides the rest of the search: the slot, the counts of
// the kinds, and the occupancy of every edge from t to t+reach.
func (r *relaxation) stateKey(t, x int) string {
	b := r.key[:0]
	b = append(b, byte(t), byte(t>>8), byte(t>>16), byte(x))
	for c := range r.kinds {
		n := r.kinds[c].count
		b = append(b, byte(n), byte(n>>8))
	}
	for y := 0; y < r.nf; y++ {
		row := r.occ[y]
		var acc byte
		for i := 0; i <= r.reach; i++ {
			if t+i < len(row) && row[t+i] {
				acc |= 1 << (i & 7)
			}
			if i&7 == 7 || i == r.reach {
				b = append(b, acc)
				acc = 0
			}
		}
	}
	r.key = b
	return string(b)
}

// feasible runs Horn's test on every edge of F for the holds not yet placed, with
// every slot before (t, x) decided.
func (r *relaxation) feasible(t, x int) bool {
	for y := 0; y < r.nf; y++ {
		tasks := r.tasks[:0]
		minL := 0
		for c := range r.kinds {
			kd := &r.kinds[c]
			if kd.count == 0 {
				continue
			}
			t0 := max(kd.release, t)
			if kd.first < x {
				t0 = max(kd.release, t+1)
			}
			for _, h := range kd.hops {
				if h.x != y {
					continue
				}
				tasks = append(tasks, rxTask{r: t0 + h.off, d: h.dl, dem: kd.count * kd.L})
				if minL == 0 || kd.L < minL {
					minL = kd.L
				}
			}
		}
		r.tasks = tasks
		if len(tasks) == 0 {
			continue
		}
		// Free, undecided slots of edge y, runs shorter than minL dropped.
		row := r.occ[y]
		T := r.T
		for u := 0; u <= T; u++ {
			r.free[u] = 0
			if u >= 1 && !row[u] && (u > t || (u == t && y >= x)) {
				r.free[u] = 1
			}
		}
		for u := 1; u <= T; {
			if r.free[u] == 0 {
				u++
				continue
			}
			v := u
			for v <= T && r.free[v] == 1 {
				v++
			}
			if v-u < minL {
				for w := u; w < v; w++ {
					r.free[w] = 0
				}
			}
			u = v
		}
		r.pre[0] = 0
		for u := 1; u <= T; u++ {
			r.pre[u] = r.pre[u-1] + r.free[u]
		}
		capacity := func(a, b int) int {
			a = max(a, 1)
			b = min(b, T)
			if b < a {
				return 0
			}
			return r.pre[b] - r.pre[a-1]
		}
		// Horn: for every R (a release) and D (a deadline), the demand of the
		// tasks inside [R, D] fits the free slots there.
		sort.Slice(tasks, func(a, b int) bool { return tasks[a].r > tasks[b].r })
		var inside []rxTask // tasks with r >= R, by deadline
		for i := 0; i < len(tasks); {
			R := tasks[i].r
			for i < len(tasks) && tasks[i].r == R {
				tk := tasks[i]
				at := sort.Search(len(inside), func(j int) bool { return inside[j].d > tk.d })
				inside = append(inside, rxTask{})
				copy(inside[at+1:], inside[at:])
				inside[at] = tk
				i++
			}
			dem := 0
			for j := range inside {
				dem += inside[j].dem
				if j+1 < len(inside) && inside[j+1].d == inside[j].d {
					continue
				}
				if dem > capacity(R, inside[j].d) {
					return false
				}
			}
		}
	}
	return true
}

// chooseEdgeSets is the writer's rule for F at horizon T: the edges used by two or
// more messages whose root slack (the slots of [min k, max T - (d - k)] minus the
// sum of L of their users) is at most 3, least slack first (ties: more flits, lower
// index), at most 16 of them, cut into the groups no message links (two edges are
// in one group when a message uses both, or a third edge of the group links them),
// each group its 4 tightest edges in index order, the groups in the order of their
// tightest edge. The relaxation to a group is a relaxation of the instance, so a
// group without a solution is a claim the checker can decide on its own; the
// writer offers the groups in turn (the solver's edge-set bound searches them so,
// and one group of two edges can refute a horizon where the search over the four
// tightest edges, two unlinked pairs, does not end).
func chooseEdgeSets(in *model.Instance, T int) [][]int {
	type cand struct{ e, slack, load int }
	lo := make([]int, len(in.Net.Edges))
	hi := make([]int, len(in.Net.Edges))
	load := make([]int, len(in.Net.Edges))
	users := make([]int, len(in.Net.Edges))
	for e := range lo {
		lo[e] = T + 1
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		for k1, e := range m.Path {
			k := k1 + 1
			lo[e], hi[e] = min(lo[e], k), max(hi[e], T-(len(m.Path)-k))
			load[e] += m.L
			users[e]++
		}
	}
	var cs []cand
	for e := range lo {
		if users[e] < 2 {
			continue
		}
		if s := hi[e] - lo[e] + 1 - load[e]; s <= 3 {
			cs = append(cs, cand{e, s, load[e]})
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
	if len(cs) > 16 {
		cs = cs[:16]
	}
	// group[x]: the group of candidate x, merged by relabelling (at most 16)
	group := make([]int, len(cs))
	idx := map[int]int{}
	for x, c := range cs {
		group[x], idx[c.e] = x, x
	}
	for i := range in.Messages {
		var on []int
		for _, e := range in.Messages[i].Path {
			if x, ok := idx[e]; ok {
				on = append(on, group[x])
			}
		}
		for _, g := range on {
			for y := range group {
				if group[y] == g {
					group[y] = on[0] // labels only merge into on[0]'s
				}
			}
		}
	}
	var sets [][]int
	at := map[int]int{}
	for x, c := range cs {
		j, ok := at[group[x]]
		if !ok {
			j = len(sets)
			at[group[x]] = j
			sets = append(sets, nil)
		}
		if len(sets[j]) < 4 {
			sets[j] = append(sets[j], c.e)
		}
	}
	for _, fs := range sets {
		sort.Ints(fs)
	}
	return sets
}

// writeNodeLimit bounds the writer's confirming search.
const writeNodeLimit = 1 << 26

// writeEdgeSet chooses F for horizon makespan-1 (chooseEdgeSet) and confirms with
// the checker's search that the relaxation has no solution there, so that no
// certificate is written that would fail its check.
func writeEdgeSet(ctx context.Context, in *model.Instance, modelName string, makespan int) (*EdgeSet, error) {
	T := makespan - 1
	sets := chooseEdgeSets(in, T)
	if len(sets) == 0 {
		return nil, fmt.Errorf("certify: edge-set optimum %d: no edge has slack at most 3 at horizon %d", makespan, T)
	}
	var tried []string
	for _, fs := range sets {
		refuted, nodes, reason, err := edgeSetRefutes(ctx, in, modelName, fs, T, writeNodeLimit)
		if err == nil && refuted {
			es := &EdgeSet{Horizon: T, Edges: fs, Nodes: nodes}
			for _, e := range fs {
				es.EdgeNames = append(es.EdgeNames, in.Net.EdgeName(e))
			}
			return es, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			reason = err.Error()
		}
		tried = append(tried, fmt.Sprintf("%s: %s", edgeList(in, fs), reason))
	}
	return nil, fmt.Errorf("certify: no edge set refutes horizon %d (%s)", T, strings.Join(tried, "; "))
}

// checkEdgeSet re-decides an edge-set claim: the horizon is the makespan minus
// one, the edges exist and have the names given, and this package's search finds
// no solution of the relaxation. failure is "" when the claim holds; line says
// what was checked.
func checkEdgeSet(ctx context.Context, in *model.Instance, modelName string, makespan int, es *EdgeSet) (line, failure string, elapsed time.Duration, err error) {
	if es.Horizon != makespan-1 {
		return "", fmt.Sprintf("edge set: horizon %d is not the makespan %d minus one", es.Horizon, makespan), 0, nil
	}
	if len(es.EdgeNames) != len(es.Edges) {
		return "", fmt.Sprintf("edge set: %d edges but %d edge names", len(es.Edges), len(es.EdgeNames)), 0, nil
	}
	for i, e := range es.Edges {
		if e < 0 || e >= len(in.Net.Edges) {
			return "", fmt.Sprintf("edge set: edge %d does not exist (the network has %d edges)", e, len(in.Net.Edges)), 0, nil
		}
		if got := in.Net.EdgeName(e); got != es.EdgeNames[i] {
			return "", fmt.Sprintf("edge set: edge %d is %s, the manifest names %s", e, got, es.EdgeNames[i]), 0, nil
		}
	}
	start := time.Now()
	refuted, _, reason, err := edgeSetRefutes(ctx, in, modelName, es.Edges, es.Horizon, checkNodeLimit)
	elapsed = time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			return "", "", 0, err
		}
		return "", fmt.Sprintf("%v", err), 0, nil
	}
	if !refuted {
		return "", fmt.Sprintf("edge set %s: %s: the claim is false", edgeList(in, es.Edges), reason), 0, nil
	}
	return fmt.Sprintf("edge set %s: no %s solution of the relaxation at horizon %d (%s): horizon %d is infeasible", edgeList(in, es.Edges), modelName, es.Horizon, reason, es.Horizon), "", elapsed, nil
}

func edgeList(in *model.Instance, fs []int) string {
	parts := make([]string, len(fs))
	for i, e := range fs {
		parts[i] = fmt.Sprintf("%d (%s)", e, in.Net.EdgeName(e))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
