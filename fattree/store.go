package fattree

import (
	"context"
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

// storeForward runs the packet-level step engine shared by STORE, UNIV and SPLIT:
// every node input holds at most one packet; in each packet-step every node scans
// its inputs (and, for a processor, its source queue) in the scan's order (by rank
// first when packets carry one) and sends each packet whose output link is idle in
// this step and whose queue at the far end is empty. A queue emptied in a step may
// be refilled in the same step (the steps are resolved by passes until no packet
// moves, so a chain of full queues advances together). The destination consumes a
// packet on arrival. A packet-step lasts stepLen flit-steps.
func storeForward(ctx context.Context, run *Run, ps []sfPacket, stepLen int) (Outcome, error) {
	ft := run.FT
	nodes := ft.Nodes()
	n := ft.Processors()
	base := make([]int, nodes+1) // input slots of node v: base[v] .. base[v+1]-1
	for v := range nodes {
		base[v+1] = base[v] + ft.InPorts(v)
	}
	slot := make([]int32, base[nodes])
	for i := range slot {
		slot[i] = -1
	}
	linkUsed := make([]int64, base[nodes]) // out port p of v uses index base[v]+p (Ports = InPorts here)
	linkCount := make([]int32, base[nodes])
	for i := range linkUsed {
		linkUsed[i] = -1
	}
	// source queues, by release then input order
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
		sort.SliceStable(q, func(x, y int) bool { return ps[q[x]].release < ps[q[y]].release })
	}
	ranked := false
	for i := range ps {
		if ps[i].rank != 0 {
			ranked = true
			break
		}
	}
	var cands []cand
	for t := int64(0); left > 0; t++ {
		if t&63 == 0 && ctx.Err() != nil {
			return Outcome{}, ctx.Err()
		}
		for moved := true; moved; {
			moved = false
			for v := range nodes {
				// candidates in input order, then in the scan's order
				{
					cands = cands[:0]
					for in := range base[v+1] - base[v] {
						if p := slot[base[v]+in]; p >= 0 && ps[p].moved != t {
							cands = append(cands, cand{in, p, ps[p].far})
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
						return w == p.dst || slot[base[w]+in] < 0
					}, run)
					if port < 0 {
						continue
					}
					w, in := ft.Link(v, port)
					linkUsed[base[v]+port] = t
					linkCount[base[v]+port]++
					p.moved = t
					if c.in == ft.InPorts(v) {
						head[v]++
					} else {
						slot[base[v]+c.in] = -1
					}
					if w == p.dst {
						left--
						last = t + 1
					} else {
						slot[base[w]+in] = c.pk
					}
					moved = true
				}
			}
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
// path selection among the free ones (free(port): link idle and far queue empty).
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
