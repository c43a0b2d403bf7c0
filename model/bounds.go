package model

import (
	"container/heap"
	"fmt"
	"sort"
)

// Bound is a lower bound on the makespan of every legal schedule (wormhole, hence
// also bufferless), with the edge or message that attains it (-1 when not used).
type Bound struct {
	Name   string
	Value  int
	Edge   int
	Msg    int
	Detail string
}

// Names of the lower bounds of MODEL.md.
const (
	BoundDilation = "dilation"        // max_i d_i + L_i - 1
	BoundFlits    = "flit-congestion" // c_L
	BoundEdge     = "edge"            // the per-edge refinement, see EdgeBound
)

// LowerBounds returns the lower bounds of MODEL.md for the instance: dilation
// (max_i d_i + L_i - 1), flit congestion (c_L) and the per-edge refinement (EdgeBound,
// which is never below either). Cost O(sum d_i log c).
func (in *Instance) LowerBounds() []Bound {
	var bs []Bound
	dil := Bound{Name: BoundDilation, Edge: -1, Msg: -1}
	for i := range in.Messages {
		m := &in.Messages[i]
		if v := len(m.Path) + m.L - 1; dil.Msg < 0 || v > dil.Value {
			dil.Value, dil.Msg = v, i
		}
	}
	if dil.Msg >= 0 {
		m := &in.Messages[dil.Msg]
		dil.Detail = fmt.Sprintf("message %q: d + L - 1 = %d + %d - 1", m.ID, len(m.Path), m.L)
	}
	bs = append(bs, dil)
	ms := in.Measure()
	fl := Bound{Name: BoundFlits, Value: ms.CL, Edge: ms.CLEdge, Msg: -1}
	if ms.CLEdge >= 0 {
		fl.Detail = fmt.Sprintf("edge %d (%s) carries %d flits of %d messages", ms.CLEdge, in.Net.EdgeName(ms.CLEdge), ms.CL, ms.Load[ms.CLEdge])
	}
	bs = append(bs, fl)
	eb := Bound{Name: BoundEdge, Edge: -1, Msg: -1}
	for e, us := range in.Users() {
		if len(us) == 0 {
			continue
		}
		if v := in.EdgeBound(us); eb.Edge < 0 || v > eb.Value {
			eb.Value, eb.Edge = v, e
		}
	}
	if eb.Edge >= 0 {
		eb.Detail = fmt.Sprintf("edge %d (%s): %d messages queue on it (earliest arrivals, lengths and remaining hops)", eb.Edge, in.Net.EdgeName(eb.Edge), ms.Load[eb.Edge])
	}
	bs = append(bs, eb)
	return bs
}

// LowerBound returns the largest of LowerBounds (the first in their order on a tie).
func (in *Instance) LowerBound() Bound {
	bs := in.LowerBounds()
	best := bs[0]
	for _, b := range bs[1:] {
		if b.Value > best.Value {
			best = b
		}
	}
	return best
}

// EdgeBound is the per-edge lower bound of MODEL.md for one edge e used by the
// messages us, made exact as a one-machine scheduling relaxation.
//
// Proof. Message i uses e as its k-th edge (k = Pos+1), so its head cannot cross e
// before step k (release r_i = k). It holds e for at least L_i consecutive times, and
// no two messages hold e at once, so e is a machine that serves each message for L_i
// unit slots without overlap. Its tail crosses e at the end of that service, at some
// time C_i, and still has q_i = d_i - k hops to make, one per step, so it is
// delivered no earlier than C_i + q_i. Hence the makespan is at least the optimum of
// the one-machine problem "minimise max_i (C_i + q_i) with release dates r_i and
// processing times L_i", and at least the optimum of its preemptive relaxation, which
// Jackson's rule (at every slot serve the released message with the largest q)
// computes exactly. With one message it gives d + L - 1; with all releases equal to
// 1 it gives at least c_L: it dominates both simpler bounds.
func (in *Instance) EdgeBound(us []Use) int {
	type job struct{ r, p, q int }
	jobs := make([]job, len(us))
	for j, u := range us {
		m := &in.Messages[u.Msg]
		jobs[j] = job{r: u.Pos + 1, p: m.L, q: len(m.Path) - u.Pos - 1}
	}
	sort.Slice(jobs, func(a, b int) bool { return jobs[a].r < jobs[b].r })
	var h jacksonHeap
	best := 0
	now := 0 // the next free slot
	for next := 0; next < len(jobs) || h.Len() > 0; {
		if h.Len() == 0 && now < jobs[next].r {
			now = jobs[next].r
		}
		for next < len(jobs) && jobs[next].r <= now {
			heap.Push(&h, jacksonJob{rem: jobs[next].p, q: jobs[next].q})
			next++
		}
		top := &h[0]
		run := top.rem
		if next < len(jobs) && now+run > jobs[next].r {
			run = jobs[next].r - now
		}
		now += run
		top.rem -= run
		if top.rem == 0 {
			if v := now - 1 + top.q; v > best {
				best = v
			}
			heap.Pop(&h)
		}
	}
	return best
}

type jacksonJob struct{ rem, q int }

type jacksonHeap []jacksonJob

func (h jacksonHeap) Len() int           { return len(h) }
func (h jacksonHeap) Less(a, b int) bool { return h[a].q > h[b].q }
func (h jacksonHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *jacksonHeap) Push(x any)        { *h = append(*h, x.(jacksonJob)) }
func (h *jacksonHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
