package lower

import (
	"fmt"
	"sort"

	"github.com/wormlab/wormlab/model"
)

// BoundSequence names the exact one-edge bound of EdgeSequence.
const BoundSequence = "edge-sequence"

// MaxSequenceUsers is the largest load c_e for which EdgeSequence is computed.
const MaxSequenceUsers = 8

// EdgeSequence is the per-edge bound of MODEL.md made exact without preemption:
// the least over all orders of the messages using e of max_i (C_i + q_i), where in
// the order each message occupies e for L_i consecutive slots, not before slot
// r_i = k_i (its position on its path), C_i is its last slot and q_i = d_i - k_i
// the hops it has left.
//
// Proof. A message holds e from the step its head crosses it through the step its
// tail does, an interval of at least L_i steps that cannot be interrupted (the worm
// is contiguous) and starts no earlier than step k_i; the intervals of different
// messages are disjoint (MODEL.md rule 2). Shortening each to its first L_i steps
// keeps them disjoint, and the message is delivered at least q_i steps after its
// tail crosses e. So every legal schedule gives a non-preemptive one-machine
// schedule with max(C_i + q_i) at most its makespan. The model's EdgeBound solves
// the preemptive relaxation; this one is never smaller and is strictly larger when
// a message released later with more hops to go would have to interrupt another.
//
// Cost: depth-first search over orders with pruning, at most c_e! leaves, so only
// edges with c_e <= MaxSequenceUsers are searched.
func EdgeSequence(in *model.Instance, us []model.Use) int {
	v, _ := edgeSequence(in, us, limit{})
	return v
}

// edgeSequence is EdgeSequence charging lim a unit of work per node of the
// search; ok is false when lim ended it (the value is then not the edge's least:
// the best order found so far only bounds it from above).
func edgeSequence(in *model.Instance, us []model.Use, lim limit) (v int, ok bool) {
	type job struct{ r, p, q int }
	jobs := make([]job, len(us))
	for j, u := range us {
		m := &in.Messages[u.Msg]
		jobs[j] = job{r: u.Pos + 1, p: m.L, q: len(m.Path) - u.Pos - 1}
	}
	sort.Slice(jobs, func(a, b int) bool { return jobs[a].r < jobs[b].r })
	best := -1
	used := make([]bool, len(jobs))
	var dfs func(n, free, cur int)
	dfs = func(n, free, cur int) {
		if best >= 0 && cur >= best || lim.charge(1) {
			return
		}
		if n == len(jobs) {
			best = cur
			return
		}
		for j := range jobs {
			if used[j] {
				continue
			}
			start := max(free, jobs[j].r)
			end := start + jobs[j].p - 1
			used[j] = true
			dfs(n+1, end+1, max(cur, end+jobs[j].q))
			used[j] = false
		}
	}
	dfs(0, 1, 0)
	return best, !lim.cut()
}

// sequenceBound is the largest EdgeSequence over the edges with 2 to
// MaxSequenceUsers messages. lim's stop ends it (up to c_e! nodes an edge, on as
// many edges as the instance has): the largest over the edges searched whole is
// still a bound, and its detail counts the edges left.
func sequenceBound(in *model.Instance, lim limit) (model.Bound, bool) {
	b := model.Bound{Name: BoundSequence, Edge: -1, Msg: -1}
	users := in.Users()
	heavy, left := 0, 0
	for e, us := range users {
		if len(us) > MaxSequenceUsers {
			heavy++
		}
		if len(us) < 2 || len(us) > MaxSequenceUsers {
			continue
		}
		if lim.cut() {
			left++
			continue
		}
		if v, ok := edgeSequence(in, us, lim); !ok {
			left++
		} else if b.Edge < 0 || v > b.Value {
			b.Value, b.Edge = v, e
		}
	}
	if b.Edge < 0 {
		return b, false
	}
	b.Detail = fmt.Sprintf("edge %d (%s): the best order of its %d messages without preemption", b.Edge, in.Net.EdgeName(b.Edge), len(users[b.Edge]))
	if heavy > 0 {
		// It can then be below the edge bound, which it dominates edge by edge.
		b.Detail += fmt.Sprintf("; %d edges with more than %d messages not searched (the edge bound covers them)", heavy, MaxSequenceUsers)
	}
	if left > 0 {
		b.Detail += fmt.Sprintf("; cut short: %d edges not searched", left)
	}
	return b, true
}
