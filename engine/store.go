// Store-and-forward: seed 000 (Greenberg, Oh), section B.2, algorithm STORE;
// MODEL.md, "Store-and-forward".

package engine

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/wormlab/wormlab/model"
)

// StoreResult is a store-and-forward run: per packet the hop times t_1 < ... < t_d
// (the step in which the packet's first flit crosses e_k), its delivery time
// t_d + L - 1, and the counters.
type StoreResult struct {
	Hops      [][]int
	Delivered []int
	Makespan  int
	Counters  Counters
	Steps     []StepCount
}

// Store routes the instance store-and-forward (seed 000, section B.2, STORE; MODEL.md
// "Store-and-forward"): packet i may leave its source from step release[i] + 1
// (release nil: all at time 0), is stored whole at every node (unbounded queues), and
// crosses each edge in L consecutive steps; an edge carries one packet at a time and
// the arbitration policy picks among the packets queued for it. Work per step is
// proportional to the edges that have a packet queued and are free, plus the events
// that happen; idle stretches are skipped.
func Store(ctx context.Context, in *model.Instance, release []int, cfg Config) (*StoreResult, error) {
	pol, err := resolvePolicy(cfg)
	if err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if err := checkCounts(in); err != nil {
		return nil, err
	}
	n, ne := len(in.Messages), len(in.Net.Edges)
	if release != nil && len(release) != n {
		return nil, fmt.Errorf("engine: store: %d release times for %d messages", len(release), n)
	}
	if err := checkStoreWork(in, release); err != nil {
		return nil, err
	}
	arb := pol.Arbiter(ne, rand.New(rand.NewPCG(cfg.Seed, 0x73746f7265)))
	random, isRandom := arb.(drawer)
	nIn, port := inputPorts(in.Net)
	res := &StoreResult{Hops: make([][]int, n), Delivered: make([]int, n)}
	rel := make([]int, n)
	// queue[f][p] holds the packets stored at the tail of edge f that arrived on input
	// port p (p = nIn: injected there), as a heap in the policy's order, so that a
	// step looks at one packet per port.
	less := func(a, b int32) bool {
		ra, rb := int32(len(in.Messages[a].Path)-len(res.Hops[a])), int32(len(in.Messages[b].Path)-len(res.Hops[b]))
		return pol.QueueBefore(Queued{a, ra, rel[a]}, Queued{b, rb, rel[b]})
	}
	queue := make([][]packetHeap, ne)
	count := make([]int, ne)
	portOf := func(i int32) int32 {
		h := len(res.Hops[i])
		if h == 0 {
			return nIn[in.Net.Edges[in.Messages[i].Path[0]].From]
		}
		return port[in.Messages[i].Path[h-1]]
	}
	busy := make([]int, ne)    // last step in which f carries a flit
	active := make([]bool, ne) // f is in the work list
	var work []int32
	// Events: at time t, packet id (kind 0) is stored whole at the tail of its next
	// edge and may cross it from step t+1; or edge id (kind 1) becomes free for step t+1.
	var ev eventHeap
	seq := 0
	push := func(t int, kind uint8, id int32) {
		seq++
		heap.Push(&ev, event{t: t, seq: seq, kind: kind, id: id})
	}
	for i := range in.Messages {
		if release != nil {
			if release[i] < 0 {
				return nil, fmt.Errorf("engine: store: message %q: negative release time %d", in.Messages[i].ID, release[i])
			}
			rel[i] = release[i]
		}
		res.Hops[i] = make([]int, 0, len(in.Messages[i].Path))
		push(rel[i], 0, int32(i))
	}
	activate := func(f int32, t int) {
		switch {
		case active[f] || count[f] == 0:
		case busy[f] < t:
			active[f] = true
			work = append(work, f)
		default: // look again when the edge frees
			push(busy[f], 1, f)
		}
	}
	var buf []Request
	now := 0
	for iter := 0; ; iter++ {
		if iter&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		// Apply the events due by time now.
		for ev.Len() > 0 && ev[0].t <= now {
			x := heap.Pop(&ev).(event)
			if x.kind == 0 {
				i := x.id
				f := int32(in.Messages[i].Path[len(res.Hops[i])])
				if queue[f] == nil {
					queue[f] = make([]packetHeap, nIn[in.Net.Edges[f].From]+1)
				}
				q := &queue[f][portOf(i)]
				q.less = less
				heap.Push(q, i)
				count[f]++
				activate(f, now+1)
			} else {
				activate(x.id, now+1)
			}
		}
		if len(work) == 0 {
			if ev.Len() == 0 {
				break
			}
			now = ev[0].t
			continue
		}
		t := now + 1
		moving, flits, reqs, lost := 0, 0, 0, 0
		for _, f := range work {
			active[f] = false
			u := in.Net.Edges[f].From
			qs := queue[f]
			var w Request
			if isRandom {
				// Uniform over the stored packets: find the r-th across the ports.
				r := random.Draw(count[f])
				for p := range qs {
					if r < qs[p].Len() {
						i := qs[p].w[r]
						heap.Remove(&qs[p], r)
						w = Request{Msg: i, Port: int32(p)}
						break
					}
					r -= qs[p].Len()
				}
			} else {
				buf = buf[:0]
				for p := range qs {
					if qs[p].Len() == 0 {
						continue
					}
					i := qs[p].w[0]
					h := len(res.Hops[i])
					r := Request{Msg: i, Port: int32(p), In: -1, Rem: int32(len(in.Messages[i].Path) - h), Rel: rel[i]}
					if h > 0 {
						r.In = int32(in.Messages[i].Path[h-1])
					}
					buf = append(buf, r)
				}
				w = buf[arb.Pick(int(f), buf, nIn[u])]
				heap.Pop(&qs[w.Port])
			}
			arb.Granted(int(f), w.Port, nIn[u])
			reqs += count[f]
			lost += count[f] - 1
			count[f]--
			i := w.Msg
			m := &in.Messages[i]
			res.Hops[i] = append(res.Hops[i], t)
			busy[f] = t + m.L - 1
			moving++
			flits += m.L
			if len(res.Hops[i]) == len(m.Path) {
				res.Delivered[i] = t + m.L - 1
				res.Makespan = max(res.Makespan, t+m.L-1)
			} else {
				push(t+m.L-1, 0, i)
			}
			if count[f] > 0 {
				push(busy[f], 1, f)
			}
		}
		work = work[:0]
		now = t
		res.Counters.BusySteps++
		res.Counters.WormMoves += int64(moving)
		res.Counters.FlitMoves += int64(flits)
		res.Counters.Requests += int64(reqs)
		res.Counters.Lost += int64(lost)
		if cfg.RecordSteps {
			res.Steps = append(res.Steps, StepCount{T: t, Moving: moving, Flits: flits, Requests: reqs, Lost: lost})
		}
	}
	res.Counters.Steps = now
	return res, nil
}

// packetHeap is one input port's packets waiting for an edge, best first.
type packetHeap struct {
	less func(a, b int32) bool
	w    []int32
}

func (h packetHeap) Len() int           { return len(h.w) }
func (h packetHeap) Less(a, b int) bool { return h.less(h.w[a], h.w[b]) }
func (h packetHeap) Swap(a, b int)      { h.w[a], h.w[b] = h.w[b], h.w[a] }
func (h *packetHeap) Push(x any)        { h.w = append(h.w, x.(int32)) }
func (h *packetHeap) Pop() any {
	x := h.w[len(h.w)-1]
	h.w = h.w[:len(h.w)-1]
	return x
}

// CheckHops checks a store-and-forward result by the rules of MODEL.md's
// store-and-forward model, generalised to packets of L flits received whole: every
// message has one hop time per edge of its path, hop times are positive and
// t_{k+1} >= t_k + L (a packet is stored whole before it moves on), and no two
// packets occupy an edge at once (packet i occupies e_k during [t_k, t_k + L - 1]).
// With L = 1: hops in order, one packet per edge per step. It shares no code with
// Store.
func CheckHops(in *model.Instance, hops [][]int) error {
	if len(hops) != len(in.Messages) {
		return fmt.Errorf("store: %d hop lists for %d messages", len(hops), len(in.Messages))
	}
	type occ struct{ from, to, msg int }
	byEdge := make([][]occ, len(in.Net.Edges))
	for i := range in.Messages {
		m := &in.Messages[i]
		h := hops[i]
		if len(h) != len(m.Path) {
			return fmt.Errorf("store: message %q: %d hop times for a path of %d edges", m.ID, len(h), len(m.Path))
		}
		for k, t := range h {
			if t < 1 {
				return fmt.Errorf("store: message %q: hop %d at time %d, not positive", m.ID, k+1, t)
			}
			if k > 0 && t < h[k-1]+m.L {
				return fmt.Errorf("store: message %q: hop %d at time %d before hop %d (time %d) is received whole (+%d)", m.ID, k+1, t, k, h[k-1], m.L)
			}
			byEdge[m.Path[k]] = append(byEdge[m.Path[k]], occ{t, t + m.L - 1, i})
		}
	}
	for f, os := range byEdge {
		sort.Slice(os, func(a, b int) bool {
			return os[a].from < os[b].from || os[a].from == os[b].from && os[a].msg < os[b].msg
		})
		for a := 1; a < len(os); a++ {
			if x, y := os[a-1], os[a]; y.from <= x.to {
				return fmt.Errorf("store: edge %d (%s): messages %q and %q both use it at time %d", f, in.Net.EdgeName(f), in.Messages[x.msg].ID, in.Messages[y.msg].ID, y.from)
			}
		}
	}
	return nil
}
