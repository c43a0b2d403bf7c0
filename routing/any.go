package routing

// Table routing on any network (a network from a file, or any other): next-hop
// tables computed once from the router graph, by breadth-first search backwards
// from every router at which terminals eject. What the table routings share.

import (
	"fmt"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// maxTable bounds the entries of a routing table (routers x sink routers x states).
const maxTable = 1 << 26

// anyTables are hop distances to every sink router over a state graph: a packet
// state is (router, phase), phase in 0 .. phases-1, and move(r, p, port) is the
// phase after leaving r by port in phase p, or -1 where the move is not allowed.
type anyTables struct {
	net    topology.Network
	phases int
	move   func(r, phase, port int) int
	// dist[sink index][phase*n + r]: the fewest allowed hops from (r, phase) to the
	// sink, -1 when it cannot be reached.
	dist  [][]int32
	index []int32 // router -> sink index, -1 for routers without terminals ejecting
}

// newAnyTables computes the tables and checks that every source router reaches
// every sink router (from phase 0).
func newAnyTables(name string, net topology.Network, phases int, move func(r, phase, port int) int) (*anyTables, error) {
	n := net.Nodes()
	sinks := topology.Sinks(net)
	if len(sinks)*n*phases > maxTable {
		return nil, fmt.Errorf("%s: routing tables of %d routers x %d destinations are too large", name, n, len(sinks))
	}
	t := &anyTables{net: net, phases: phases, move: move, index: make([]int32, n)}
	for i := range t.index {
		t.index[i] = -1
	}
	// reverse moves: into[s] lists the states with an allowed move to state s
	into := make([][]int32, phases*n)
	for r := range n {
		for ph := range phases {
			for port := range net.Ports(r) {
				w, _ := net.Link(r, port)
				if w < 0 {
					continue
				}
				if np := move(r, ph, port); np >= 0 {
					into[np*n+w] = append(into[np*n+w], int32(ph*n+r))
				}
			}
		}
	}
	for i, d := range sinks {
		t.index[d] = int32(i)
		dist := make([]int32, phases*n)
		for j := range dist {
			dist[j] = -1
		}
		var queue []int32
		for ph := range phases {
			dist[ph*n+d] = 0
			queue = append(queue, int32(ph*n+d))
		}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			for _, u := range into[s] {
				if dist[u] < 0 {
					dist[u] = dist[s] + 1
					queue = append(queue, u)
				}
			}
		}
		t.dist = append(t.dist, dist)
	}
	for _, s := range topology.Sources(net) {
		for _, d := range sinks {
			if s != d && t.dist[t.index[d]][s] < 0 {
				return nil, fmt.Errorf("%s: no route from router %s to router %s", name, topology.NodeName(net, s), topology.NodeName(net, d))
			}
		}
	}
	return t, nil
}

// hops is the fewest allowed hops from router r in phase ph to sink router dst.
func (t *anyTables) hops(r, ph, dst int) int {
	return int(t.dist[t.index[dst]][ph*t.net.Nodes()+r])
}

// next appends a choice on VCs vcs of every port of router r (in phase ph) that
// begins a fewest-hop allowed route to dst.
func (t *anyTables) next(r, ph, dst int, vcs uint64, out []sim.Choice) []sim.Choice {
	h := t.hops(r, ph, dst)
	for port := range t.net.Ports(r) {
		w, _ := t.net.Link(r, port)
		if w < 0 {
			continue
		}
		if np := t.move(r, ph, port); np >= 0 && t.hops(w, np, dst) == h-1 {
			out = append(out, sim.Choice{Port: port, VCs: vcs})
		}
	}
	return out
}

// diameter is the largest fewest-hop distance from a source router to a sink
// router, from phase 0.
func (t *anyTables) diameter() int {
	d := 0
	for _, s := range topology.Sources(t.net) {
		for _, dst := range topology.Sinks(t.net) {
			if s != dst {
				d = max(d, t.hops(s, 0, dst))
			}
		}
	}
	return d
}
