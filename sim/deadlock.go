package sim

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/wormlab/wormlab/topology"
)

// WaitVC is one input virtual channel of a wait-for cycle: router (and its name in
// the topology), input port, VC and the packet at its front.
type WaitVC struct {
	Router, Port, VC int
	Name             string
	Packet           int64
}

// DeadlockError reports that no flit moved for Idle cycles while Flits were in the
// network; Cycle is a cycle of input VCs each waiting for the next (for an output VC
// the next one holds, or for a free slot in the next one's buffer), empty when the
// waits form no cycle (a stall without a cyclic wait). A deadlock of part of the
// network (partialDeadlock) has StuckVCs > 0: that many input VCs, holding
// StuckFlits flits, each waiting only for others of them, sent no flit in the
// Idle cycles up to At while other flits moved.
type DeadlockError struct {
	At, Idle, Flits int64
	Cycle           []WaitVC
	StuckVCs        int
	StuckFlits      int64
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	if e.StuckVCs > 0 {
		fmt.Fprintf(&b, "sim: deadlock: %d input VCs holding %d flits wait only for each other and sent no flit for %d cycles up to cycle %d, with %d flits in the network", e.StuckVCs, e.StuckFlits, e.Idle, e.At, e.Flits)
	} else {
		fmt.Fprintf(&b, "sim: deadlock: no flit moved for %d cycles up to cycle %d with %d flits in the network", e.Idle, e.At, e.Flits)
	}
	if len(e.Cycle) > 0 {
		b.WriteString("; wait cycle:")
		for _, w := range e.Cycle {
			fmt.Fprintf(&b, " (router %s port %d vc %d packet %d)", w.Name, w.Port, w.VC, w.Packet)
		}
	}
	return b.String()
}

// waits lists the input VCs that input VC iv waits for.
func (e *engine) waits(iv int32, out []int32) []int32 {
	V := e.V
	if e.vc[iv].n == 0 {
		return out
	}
	r := e.in[e.port(iv)].rtr
	ob := e.outBase[r]
	switch e.vc[iv].state {
	case vcWait:
		for _, c := range e.heads[iv].ch {
			for v := int32(0); v < V; v++ {
				if c.VCs>>uint(v)&1 == 0 {
					continue
				}
				ov := (ob+int32(c.Port))<<e.vs | v
				if owner := e.ov[ov].owner; owner >= 0 {
					out = append(out, owner)
				} else if next := e.out[e.port(ov)].next; next >= 0 && (e.ov[ov].credit == 0 || (e.cfg.AtomicVC && e.ov[ov].credit != e.B)) {
					// a free VC whose buffer is full (with Latch a head takes
					// the VC only as it moves), or under AtomicVC not empty:
					// the head waits for the packet at that buffer's front
					out = append(out, next<<e.vs|v)
				}
			}
		}
	case vcActive:
		ov := e.vc[iv].out
		if next := e.out[e.port(ov)].next; next >= 0 && e.ov[ov].credit == 0 {
			out = append(out, next<<e.vs|ov&e.vm)
		}
	}
	return out
}

// deadlockLook is the test for a deadlock at the end of cycle e.t, where the
// partitions have joined: a stall of the whole network (no flit moved for
// DeadlockCycles cycles with flits in it), or on its cycles a deadlock of part
// of it (partialDeadlock).
// It is called only where lookDue holds (the cycle's end tests lookDue,
// inlined: the run's other cycles pay no call).
func (e *engine) deadlockLook() error {
	if e.inNet > 0 && e.t-e.lastMove >= int64(e.cfg.DeadlockCycles) {
		return e.deadlock()
	}
	return e.partialDeadlock()
}

// lookDue reports whether cycle e.t ends with a stall of the whole network or
// a look for a deadlock of part of it.
func (e *engine) lookDue() bool {
	return e.inNet > 0 && e.t-e.lastMove >= int64(e.cfg.DeadlockCycles) || e.partial != nil && e.t >= e.partial.next
}

// deadlock builds the error of a stalled network: a cycle of the wait-for graph
// over input VCs, found by depth-first search.
func (e *engine) deadlock() error {
	err := &DeadlockError{At: e.t, Idle: e.t - e.lastMove, Flits: e.inNet}
	n := int32(len(e.vc))
	color := make([]uint8, n) // 0 new, 1 on stack, 2 done
	parent := make([]int32, n)
	var succ []int32
	for s := int32(0); s < n && err.Cycle == nil; s++ {
		if color[s] != 0 || e.vc[s].n == 0 {
			continue
		}
		type frame struct {
			v    int32
			next []int32
		}
		stack := []frame{{s, e.waits(s, nil)}}
		color[s] = 1
		parent[s] = -1
		for len(stack) > 0 && err.Cycle == nil {
			top := &stack[len(stack)-1]
			if len(top.next) == 0 {
				color[top.v] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			w := top.next[0]
			top.next = top.next[1:]
			switch color[w] {
			case 0:
				color[w] = 1
				parent[w] = top.v
				succ = e.waits(w, nil)
				stack = append(stack, frame{w, succ})
			case 1:
				var cyc []int32
				for u := top.v; u != w; u = parent[u] {
					cyc = append(cyc, u)
				}
				cyc = append(cyc, w)
				for i := len(cyc) - 1; i >= 0; i-- {
					err.Cycle = append(err.Cycle, e.waitVC(cyc[i]))
				}
			}
		}
	}
	return err
}

func (e *engine) waitVC(iv int32) WaitVC {
	in := e.port(iv)
	r := e.in[in].rtr
	return WaitVC{Router: int(r), Name: topology.NodeName(e.cfg.Net, int(r)), Port: int(in - e.inBase[r]), VC: int(iv & e.vm), Packet: e.packets[e.front(iv).pkt()].id}
}

// Deadlock of part of the network. The test above fires only when no flit moves
// anywhere; a cycle of packets waiting for each other while others still move
// (a routing below its VC minimum on a torus) would run to the budget. Every
// DeadlockCycles cycles (at the end of a cycle t with t+1 a multiple of it,
// where the partitions have joined: blockStep ends a block there) an open-loop
// run looks for a closed set of waiting input VCs: each holds a routed flit at
// its front and every way it could move is barred by another member:
//
//   - holding an output VC (vcActive): the VC's buffer downstream is a member
//     and full (B flits: then the output VC has no credit and none is on its
//     way, nor a flit on the link);
//   - waiting for an output VC (vcWait; its choices are fixed when it is
//     routed): each VC its choices allow is held by a member, or free with a
//     full member downstream (with AtomicVC a member holding any flit, as the
//     VC is taken only once that buffer is empty).
//
// Lemma (without Rotate, which lets a closed cycle of grants into full buffers
// move together, and turns the look off): no member of a closed set ever sends
// a flit again. A member's move needs a credit of its output VC (which only a
// flit leaving the member downstream returns), or an output VC freed (which
// only its holder's tail leaving frees), or a free VC with a credit (which only
// a flit leaving the member downstream gives): the first member to move would
// need another to have moved before it. The set found is the largest closed
// one (a greatest fixed point: drop a waiting VC with a way out, then those
// waiting on a dropped one, until none is dropped). It is reported when the
// members of the set found at the previous look, with the same flit at their
// front, hold a closed set again: so a network that stops all at once is still
// reported by the test above (it fires DeadlockCycles after the last move,
// before the second look), and a reported set has sent nothing for
// DeadlockCycles cycles at least. The lemma is checked against the trace, which
// shares nothing with this code (TestPartialDeadlockSound).

// stuckVC is a member of a closed set and the flit at its front.
type stuckVC struct {
	iv int32
	f  flit
}

// partialLook is what the look for a partial deadlock keeps between looks: the
// closed set of the last look (empty where none).
type partialLook struct {
	prev []stuckVC
	at   int64 // the last look's cycle
	next int64 // the next look's: DeadlockCycles-1, then every DeadlockCycles
}

// partialNext is the first cycle at or after t that ends with a look.
func (e *engine) partialNext(t int64) int64 {
	return max(t, e.partial.next)
}

// barred appends to out the input VCs barring every move of the front of input
// VC iv, and reports whether they bar them all (false: iv is empty, unrouted or
// has a way out).
func (e *engine) barred(iv int32, out []int32) ([]int32, bool) {
	c := &e.vc[iv]
	if c.n == 0 {
		return out, false
	}
	vs := e.vs & 31
	// full: the buffer of input VC y holds B flits
	full := func(y int32) bool { return e.vc[y].n == e.B }
	switch c.state {
	case vcActive:
		ov := c.out
		next := e.out[e.port(ov)].next
		if next < 0 {
			return out, false
		}
		y := next<<vs | ov&e.vm
		if e.ov[ov].credit != 0 || !full(y) {
			return out, false
		}
		return append(out, y), true
	case vcWait:
		r := e.in[e.port(iv)].rtr
		ob := e.outBase[r]
		eject := e.outBase[r+1] - ob - 1
		all := allVCs(e.V)
		for _, ch := range e.heads[iv].ch {
			if e.ejectAll && int32(ch.Port) == eject {
				return out, false
			}
			o := ob + int32(ch.Port)
			for m := ch.VCs & all; m != 0; m &= m - 1 {
				v := int32(bits.TrailingZeros64(m))
				ov := o<<vs | v
				if owner := e.ov[ov].owner; owner >= 0 {
					out = append(out, owner)
					continue
				}
				next := e.out[o].next
				if next < 0 {
					return out, false
				}
				y := next<<vs | v
				if e.cfg.AtomicVC && e.vc[y].n > 0 || !e.cfg.AtomicVC && e.ov[ov].credit == 0 && full(y) {
					out = append(out, y)
					continue
				}
				return out, false
			}
		}
		return out, true
	}
	return out, false
}

// closedSet is the largest closed set of input VCs among cands (increasing),
// in increasing order; by(k) are the VCs barring cands[k] (barred).
func closedSet(cands []int32, by func(k int) []int32) []int32 {
	idx := func(x int32) int {
		k, ok := slices.BinarySearch(cands, x)
		if !ok {
			return -1
		}
		return k
	}
	// rev[k]: the candidates barred by cands[k]
	rev := make([][]int32, len(cands))
	out := make([]bool, len(cands))
	var drop []int
	for k := range cands {
		for _, y := range by(k) {
			j := idx(y)
			if j < 0 {
				out[k] = true
				continue
			}
			rev[j] = append(rev[j], int32(k))
		}
		if out[k] {
			drop = append(drop, k)
		}
	}
	for len(drop) > 0 {
		k := drop[len(drop)-1]
		drop = drop[:len(drop)-1]
		for _, j := range rev[k] {
			if !out[j] {
				out[j] = true
				drop = append(drop, int(j))
			}
		}
	}
	var set []int32
	for k, x := range cands {
		if !out[k] {
			set = append(set, x)
		}
	}
	return set
}

// partialDeadlock is the look for a deadlock of part of the network, at the end
// of cycle e.t: a DeadlockError naming a wait cycle of the closed set if the
// last look's set holds one still, nil otherwise.
func (e *engine) partialDeadlock() error {
	pl := e.partial
	// the candidates, each with the VCs barring it: flat[at[k]:at[k+1]]
	var cands, flat []int32
	at := []int32{0}
	if e.inNet > 0 {
		for iv := range int32(len(e.vc)) {
			if e.vc[iv].n == 0 {
				continue
			}
			var ok bool
			if flat, ok = e.barred(iv, flat); ok {
				cands = append(cands, iv)
				at = append(at, int32(len(flat)))
			} else {
				flat = flat[:at[len(at)-1]]
			}
		}
	}
	byCand := func(k int) []int32 { return flat[at[k]:at[k+1]] }
	set := closedSet(cands, byCand)
	// the members of the last look's set with the same front flit
	var again []int32
	var againOf []int // again[k] is cands[againOf[k]]
	for _, s := range pl.prev {
		k, ok := slices.BinarySearch(set, s.iv)
		if ok && *e.front(set[k]) == s.f {
			j, _ := slices.BinarySearch(cands, s.iv)
			again = append(again, s.iv)
			againOf = append(againOf, j)
		}
	}
	stuck := closedSet(again, func(k int) []int32 { return byCand(againOf[k]) })
	prevAt := pl.at
	pl.at = e.t
	pl.next = e.t + int64(e.cfg.DeadlockCycles)
	pl.prev = pl.prev[:0]
	for _, x := range set {
		pl.prev = append(pl.prev, stuckVC{x, *e.front(x)})
	}
	if len(stuck) == 0 {
		return nil
	}
	err := &DeadlockError{At: e.t, Idle: e.t - prevAt, Flits: e.inNet, StuckVCs: len(stuck)}
	for _, x := range stuck {
		err.StuckFlits += int64(e.vc[x].n)
	}
	// a wait cycle: from the first member, follow the first VC barring each
	// (a member: the set is closed) until one comes back
	seen := map[int32]int{}
	var path []int32
	for x := stuck[0]; ; {
		if k, ok := seen[x]; ok {
			for _, y := range path[k:] {
				err.Cycle = append(err.Cycle, e.waitVC(y))
			}
			break
		}
		seen[x] = len(path)
		path = append(path, x)
		b, _ := e.barred(x, nil)
		x = b[0]
	}
	return err
}
