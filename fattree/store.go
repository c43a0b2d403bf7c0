package fattree

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/wormlab/wormlab/topology"
)

// sfPacket is one packet of the store-and-forward engine.
type sfPacket struct {
	src, dst int
	up       uint32
	rank     int32
	release  int64
	moved    int64 // last packet-step it moved in (-1: never)
	far      int32 // level of its least common ancestor
}

// checkWork is the work between looks at the context: nodes visited (issue 26: a
// look every 64 steps left fattree --n 65536 deaf to Ctrl-C for long).
const checkWork = 1 << 16

// storeForward runs the packet-level step engine shared by STORE, UNIV and SPLIT:
// every node input holds a queue of at most run.StoreQueue packets (1 when unset);
// in each packet-step every node scans the heads of its input queues (and, for a
// processor, its source queue) in the scan's order (by rank first when packets
// carry one) and sends each packet whose output link is idle in this step and
// whose queue at the far end has room. A queue emptied in a step may be refilled
// in the same step (the steps are resolved by passes until no packet moves, so a
// chain of full queues advances together). The destination consumes a packet on
// arrival. A packet-step lasts stepLen flit-steps. With g set (UNIV with ghosts), a
// packet also needs g's leave to take an output.
func storeForward(ctx context.Context, run *Run, ps []sfPacket, stepLen int, g *ghosts) (Outcome, error) {
	ft := run.FT
	nodes := ft.Nodes()
	n := ft.Processors()
	capQ := max(run.StoreQueue, 1)
	base := make([]int, nodes+1) // input queues of node v: base[v] .. base[v+1]-1
	for v := range nodes {
		base[v+1] = base[v] + ft.InPorts(v)
	}
	queue := make([][]int32, base[nodes])
	linkUsed := make([]int64, base[nodes]) // out port p of v uses index base[v]+p (Ports = InPorts here)
	linkCount := make([]int32, base[nodes])
	for i := range linkUsed {
		linkUsed[i] = -1
	}
	// source queues, by release then input order (by rank with ghosts)
	src := make([][]int32, n)
	head := make([]int, n)
	left := 0
	var last int64
	for i := range ps {
		ps[i].moved = -1
		ps[i].far = int32(ft.LCALevel(ps[i].src, ps[i].dst))
		if ps[i].src == ps[i].dst {
			continue
		}
		src[ps[i].src] = append(src[ps[i].src], int32(i))
		left++
	}
	for a := range src {
		q := src[a]
		if g != nil {
			sort.SliceStable(q, func(x, y int) bool { return key(ps, q[x]) < key(ps, q[y]) })
		} else {
			sort.SliceStable(q, func(x, y int) bool { return ps[q[x]].release < ps[q[y]].release })
		}
	}
	ranked := false
	for i := range ps {
		if ps[i].rank != 0 {
			ranked = true
			break
		}
	}
	if g != nil {
		g.init(ft, base, queue, src, head, ps)
	}
	var cands []cand
	work := checkWork // a pass over the nodes is nodes units: look by work, not by step
	inQueues := 0     // packets in node inputs
	for t := int64(0); left > 0; t++ {
		if inQueues == 0 && g == nil {
			// nothing in the network: skip to the next release (a step in which
			// nothing can move draws nothing; a delay of R steps cost R passes)
			next := int64(-1)
			for v := range n {
				if head[v] < len(src[v]) {
					if r := ps[src[v][head[v]]].release; next < 0 || r < next {
						next = r
					}
				}
			}
			t = max(t, next)
		}
		movedAny := false
		for moved := true; moved; {
			if work >= checkWork {
				if err := ctx.Err(); err != nil {
					return Outcome{}, err
				}
				work = 0
			}
			work += nodes
			moved = false
			for v := range nodes {
				// candidates in input order, then in the scan's order
				{
					cands = cands[:0]
					for in := range base[v+1] - base[v] {
						if q := queue[base[v]+in]; len(q) > 0 && ps[q[0]].moved != t {
							cands = append(cands, cand{in, q[0], ps[q[0]].far})
						}
					}
					if v < n && head[v] < len(src[v]) {
						p := src[v][head[v]]
						if ps[p].release <= t && ps[p].moved != t {
							cands = append(cands, cand{ft.InPorts(v), p, ps[p].far})
						}
					}
					if len(cands) == 0 {
						continue
					}
					run.Scan.Order(cands, run.R)
					if ranked {
						sort.SliceStable(cands, func(i, j int) bool { return ps[cands[i].pk].rank < ps[cands[j].pk].rank })
					}
				}
				for _, c := range cands {
					p := &ps[c.pk]
					port := output(ft, v, p, func(port int) bool {
						if linkUsed[base[v]+port] == t {
							return false
						}
						w, in := ft.Link(v, port)
						if w != p.dst && len(queue[base[w]+in]) >= capQ {
							return false
						}
						return g == nil || g.leave(v, port, key(ps, c.pk))
					}, run)
					if port < 0 {
						continue
					}
					w, in := ft.Link(v, port)
					if g != nil && g.onSend != nil {
						g.onSend(v, port, key(ps, c.pk))
					}
					linkUsed[base[v]+port] = t
					linkCount[base[v]+port]++
					p.moved = t
					if c.in == ft.InPorts(v) {
						head[v]++
					} else {
						q := queue[base[v]+c.in]
						copy(q, q[1:])
						queue[base[v]+c.in] = q[:len(q)-1]
						inQueues--
					}
					if w == p.dst {
						left--
						last = t + 1
					} else {
						queue[base[w]+in] = append(queue[base[w]+in], c.pk)
						inQueues++
					}
					moved, movedAny = true, true
				}
			}
		}
		rose := false
		if g != nil {
			for range max(g.hops, 1) {
				rose = g.advertise() || rose
			}
		}
		if g != nil && !rose && !movedAny {
			return Outcome{}, fmt.Errorf("fattree: UNIV with ghosts made no progress in packet-step %d (%d packets left)", t, left)
		}
	}
	c := int32(0)
	for _, k := range linkCount {
		c = max(c, k)
	}
	return Outcome{MaxLatency: last * int64(stepLen), Congestion: int(c)}, nil
}

// output is the port packet p takes at node v in this step, or -1: the processor's
// only link, the down port towards p's destination, or an up link chosen by the
// path selection among the free ones (free(port): link idle and far queue with
// room).
func output(ft *topology.FatTree, v int, p *sfPacket, free func(int) bool, run *Run) int {
	l := ft.Level(v)
	if l == 0 {
		if free(0) {
			return 0
		}
		return -1
	}
	if ft.Ancestor(v, p.dst) {
		port := ft.DownPort(v, p.dst)
		if free(port) {
			return port
		}
		return -1
	}
	fr := [2]bool{free(topology.FatUp0), free(topology.FatUp1)}
	k := run.Path.Up(int(p.up>>(l-1)&1), fr, run.R)
	if k < 0 {
		return -1
	}
	return topology.FatUp0 + k
}

// key orders UNIV's packets: by priority, ties by packet number (a total order, as
// Leighton, Maggs and Rao's ranks with ties broken by identifiers).
func key(ps []sfPacket, p int32) uint64 { return uint64(ps[p].rank)<<32 | uint64(p) }

// eos is the end-of-stream token's key: after every packet.
const eos = math.MaxUint64

// ghosts is Leighton, Maggs and Rao's ordering machinery for UNIV: every link
// carries its packets in increasing key order, and a node sends a packet on a link
// only when no packet of a smaller key can still reach it for that link. Each input
// of a node knows a floor, the smallest key that may still arrive on it: the key of
// the packet at the head of its queue, or else the ghost (or end-of-stream token)
// its upstream node last advertised. At the end of every packet-step each node
// advertises on each output link the least head key over the inputs that feed it
// (an up link is fed by the node's children, a down link by all its inputs, a
// processor's link by its source queue: the key of its next packet, or
// end-of-stream when it has sent them all); the ghost reaches the far end for the
// next packet-step, one link a step, as a packet does. Up and down links form an
// acyclic network (no shortest path goes down and then up), as the levelled
// networks of the algorithm do.
type ghosts struct {
	ft    *topology.FatTree
	base  []int
	queue [][]int32
	src   [][]int32
	head  []int
	ps    []sfPacket
	floor []uint64 // per input queue: the last ghost received
	next  []uint64
	// hops is the links a ghost crosses in a packet-step: 1 when a ghost takes a
	// packet-step as a packet does, L when it is one flit
	hops int
	// onSend, when set, sees every packet sent: node, port and key; noGate lets
	// every packet leave (UNIV's rank rule alone): both for tests
	onSend func(v, port int, k uint64)
	noGate bool
}

func (g *ghosts) init(ft *topology.FatTree, base []int, queue [][]int32, src [][]int32, head []int, ps []sfPacket) {
	*g = ghosts{ft: ft, base: base, queue: queue, src: src, head: head, ps: ps,
		floor: make([]uint64, len(queue)), next: make([]uint64, len(queue)), hops: g.hops, onSend: g.onSend, noGate: g.noGate}
	g.advertise()
}

// headKey is the least key that may still leave input in of node v (in =
// InPorts(v): a processor's source queue).
func (g *ghosts) headKey(v, in int) uint64 {
	if in == g.ft.InPorts(v) {
		if g.head[v] < len(g.src[v]) {
			return key(g.ps, g.src[v][g.head[v]])
		}
		return eos
	}
	if q := g.queue[g.base[v]+in]; len(q) > 0 {
		return key(g.ps, q[0])
	}
	return g.floor[g.base[v]+in]
}

// bound is the least key that may still leave node v by port: the least head key
// over the inputs that feed the port.
func (g *ghosts) bound(v, port int) uint64 {
	b := uint64(eos)
	switch l := g.ft.Level(v); {
	case l == 0:
		return g.headKey(v, g.ft.InPorts(v))
	case port == topology.FatUp0 || port == topology.FatUp1:
		for in := range 4 {
			b = min(b, g.headKey(v, in))
		}
	default:
		for in := range g.ft.InPorts(v) {
			b = min(b, g.headKey(v, in))
		}
	}
	return b
}

// leave reports whether the packet of key k may leave node v by port: no smaller
// key can still come to the port.
func (g *ghosts) leave(v, port int, k uint64) bool { return g.noGate || g.bound(v, port) >= k }

// advertise sends every node's ghosts for the next packet-step and reports whether
// any floor rose.
func (g *ghosts) advertise() bool {
	for v := range g.ft.Nodes() {
		for port := range g.ft.Ports(v) {
			w, in := g.ft.Link(v, port)
			if w < 0 {
				continue
			}
			g.next[g.base[w]+in] = g.bound(v, port)
		}
	}
	rose := false
	for i, f := range g.next {
		if f > g.floor[i] {
			g.floor[i] = f
			rose = true
		}
	}
	clear(g.next)
	return rose
}
