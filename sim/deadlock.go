package sim

import (
	"fmt"
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
// waits form no cycle (a stall without a cyclic wait).
type DeadlockError struct {
	At, Idle, Flits int64
	Cycle           []WaitVC
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sim: deadlock: no flit moved for %d cycles up to cycle %d with %d flits in the network", e.Idle, e.At, e.Flits)
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
