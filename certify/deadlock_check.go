package certify

// The deadlock certificate checker's own enumeration of packet states, its own
// fixpoint and request graph, and its checks of a configuration and a replay
// (deadlock.go lists what each certificate kind asks of them). Nothing here
// calls package deadlock; like the decision it asks the routing for its start
// states and choices, and merges states by the routing's Canon when it declares
// one (a routing's claim about itself, which deadlock's TestCanonical checks).

import (
	"context"
	"fmt"
	"math/bits"
	"sort"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

type canoner interface{ Canon(h *sim.Header) }

// stateSpace is every packet state, grouped by destination.
type stateSpace struct {
	net   topology.Network
	vcs   int
	ports int
	dests []*destStates
}

type destStates struct {
	held []int32   // the VC held (every state here holds one)
	succ [][]int32 // successor states not at the destination
	req  [][]int32 // the VCs the state may request
	topo []int32   // states, successors before predecessors
}

type stKey struct {
	at, held int32
	h        sim.Header
}

func (sp *stateSpace) count() int {
	n := 0
	for _, d := range sp.dests {
		n += len(d.held)
	}
	return n
}

func (sp *stateSpace) chanID(router, port, vc int) int32 {
	return int32((router*sp.ports+port)*sp.vcs + vc)
}

// enumerateStates lists every state of f's packets on net with vcs VCs.
func enumerateStates(ctx context.Context, net topology.Network, f deadlock.Function, vcs int) (*stateSpace, error) {
	sp := &stateSpace{net: net, vcs: vcs}
	for v := range net.Nodes() {
		sp.ports = max(sp.ports, net.Ports(v))
	}
	cn, _ := f.(canoner)
	mask := uint64(1)<<uint(vcs) - 1
	if vcs == 64 {
		mask = ^uint64(0)
	}
	for _, dst := range topology.Sinks(net) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d := &destStates{}
		index := map[stKey]int32{}
		var queue []stKey
		var firsts []stKey
		add := func(k stKey) int32 {
			if i, ok := index[k]; ok {
				return i
			}
			i := int32(len(d.held))
			index[k] = i
			d.held = append(d.held, k.held)
			d.succ = append(d.succ, nil)
			d.req = append(d.req, nil)
			queue = append(queue, k)
			return i
		}
		var choices []sim.Choice
		expand := func(k stKey) ([]stKey, []int32, error) {
			h := k.h
			choices = f.Route(int(k.at), &h, choices[:0])
			if len(choices) == 0 {
				return nil, nil, fmt.Errorf("no choice for a packet to %s at %s", topology.NodeName(net, dst), topology.NodeName(net, int(k.at)))
			}
			var kids []stKey
			var req []int32
			for _, c := range choices {
				next, in := net.Link(int(k.at), c.Port)
				if next < 0 {
					return nil, nil, fmt.Errorf("port %d of %s has no link", c.Port, topology.NodeName(net, int(k.at)))
				}
				for m := c.VCs & mask; m != 0; m &= m - 1 {
					vc := bits.TrailingZeros64(m)
					nh := k.h
					f.Advance(int(k.at), &nh, c.Port, vc)
					nh.Hops++
					nh.Port, nh.InPort, nh.VC = int32(c.Port), int32(in), int32(vc)
					if cn != nil {
						cn.Canon(&nh)
					}
					id := sp.chanID(int(k.at), c.Port, vc)
					req = append(req, id)
					kids = append(kids, stKey{int32(next), id, nh})
				}
			}
			return kids, req, nil
		}
		for _, src := range topology.Sources(net) {
			if src == dst {
				continue
			}
			for _, h := range f.Starts(sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}, nil) {
				if cn != nil {
					cn.Canon(&h)
				}
				kids, _, err := expand(stKey{int32(src), -1, h})
				if err != nil {
					return nil, err
				}
				for _, k := range kids {
					if int(k.at) != dst {
						firsts = append(firsts, k)
					}
				}
			}
		}
		for _, k := range firsts {
			add(k)
		}
		for q := 0; q < len(queue); q++ {
			k := queue[q]
			if k.h.Hops > int32(4*net.Nodes()) {
				return nil, fmt.Errorf("a packet to %s passes %d hops", topology.NodeName(net, dst), k.h.Hops)
			}
			kids, req, err := expand(k)
			if err != nil {
				return nil, err
			}
			i := index[k]
			sort.Slice(req, func(a, b int) bool { return req[a] < req[b] })
			d.req[i] = req
			for _, c := range kids {
				if int(c.at) != dst {
					d.succ[i] = append(d.succ[i], add(c))
				}
			}
		}
		// topological order (successors first), and no cycle
		mark := make([]uint8, len(d.held))
		var visit func(s int32) error
		visit = func(s int32) error {
			switch mark[s] {
			case 1:
				return fmt.Errorf("a packet to %s can be routed in a loop", topology.NodeName(net, dst))
			case 2:
				return nil
			}
			mark[s] = 1
			for _, t := range d.succ[s] {
				if err := visit(t); err != nil {
					return err
				}
			}
			mark[s] = 2
			d.topo = append(d.topo, s)
			return nil
		}
		for s := range d.held {
			if err := visit(int32(s)); err != nil {
				return nil, err
			}
		}
		sp.dests = append(sp.dests, d)
	}
	return sp, nil
}

// checkOrder checks the fixpoint's order (see deadlock.go); "" when it holds.
func (sp *stateSpace) checkOrder(channels [][3]int, atomic bool) string {
	rank := map[int32]int{}
	for i, c := range channels {
		if c[0] < 0 || c[0] >= sp.net.Nodes() || c[1] < 0 || c[1] >= sp.net.Ports(c[0]) || c[2] < 0 || c[2] >= sp.vcs {
			return fmt.Sprintf("channel %d, %v, does not exist", i, c)
		}
		id := sp.chanID(c[0], c[1], c[2])
		if _, dup := rank[id]; dup {
			return fmt.Sprintf("channel %v listed twice", c)
		}
		rank[id] = i
	}
	r := func(c int32) int {
		if x, ok := rank[c]; ok {
			return x
		}
		return -1
	}
	for _, d := range sp.dests {
		best := make([]int, len(d.held))
		for _, s := range d.topo {
			self := -1
			if len(d.req[s]) > 0 {
				if atomic {
					self = 1 << 30
					for _, c := range d.req[s] {
						self = min(self, r(c))
					}
				} else {
					for _, c := range d.req[s] {
						self = max(self, r(c))
					}
				}
			}
			m := self
			for _, t := range d.succ[s] {
				m = max(m, best[t])
			}
			h := r(d.held[s])
			if h < 0 {
				return fmt.Sprintf("a state holds %s, which the order does not rank", sp.name(d.held[s]))
			}
			if m >= h {
				return fmt.Sprintf("a state holding %s (rank %d) reaches, through VCs ranked at least %d, a state they block", sp.name(d.held[s]), h, h)
			}
			best[s] = min(h, m)
		}
	}
	return ""
}

func (sp *stateSpace) name(c int32) string {
	vc := int(c) % sp.vcs
	p := int(c) / sp.vcs
	return fmt.Sprintf("%s port %d vc %d", topology.NodeName(sp.net, p/sp.ports), p%sp.ports, vc)
}

// good reports whether state s of d may be a blocked head given the VCs alive
// (atomic: all its requests alive; non-atomic: one).
func (sp *stateSpace) good(d *destStates, s int32, alive []bool, atomic bool) bool {
	all, some := true, false
	for _, c := range d.req[s] {
		all = all && alive[c]
		some = some || alive[c]
	}
	if atomic {
		return all && len(d.req[s]) > 0
	}
	return some
}

// fixpoint computes the checker's own fixpoint: alive[c], the VCs left, and
// live[i][s], the states of destination i that hold an alive VC and are good or
// lead, through live states, to a good one. Every deadlock configuration's
// states are live: a worm's states lead to its head, which is blocked.
func (sp *stateSpace) fixpoint(atomic bool) (alive []bool, live [][]bool) {
	nc := sp.net.Nodes() * sp.ports * sp.vcs
	alive = make([]bool, nc)
	for _, d := range sp.dests {
		for _, c := range d.held {
			alive[c] = true
		}
	}
	live = make([][]bool, len(sp.dests))
	for changed := true; changed; {
		next := make([]bool, nc)
		for i, d := range sp.dests {
			live[i] = make([]bool, len(d.held))
			for _, s := range d.topo {
				l := sp.good(d, s, alive, atomic)
				for _, t := range d.succ[s] {
					l = l || live[i][t]
				}
				live[i][s] = l && alive[d.held[s]]
				if live[i][s] {
					next[d.held[s]] = true
				}
			}
		}
		changed = false
		for c := range nc {
			if alive[c] != next[c] {
				changed = true
			}
		}
		alive = next
	}
	return alive, live
}

// girth computes the checker's own fixpoint (the VCs that states blocked by the
// VCs left, or leading into them, hold) and the length of the request graph's
// shortest cycle over what is left (0 when it is empty).
func (sp *stateSpace) girth(atomic bool) int {
	nc := sp.net.Nodes() * sp.ports * sp.vcs
	alive, live := sp.fixpoint(atomic)
	good := func(d *destStates, s int32) bool { return sp.good(d, s, alive, atomic) }
	// request graph: row[c] = VCs requested by good live states reachable from a
	// live state holding c
	row := make([]map[int32]bool, nc)
	for i, d := range sp.dests {
		reach := make([]map[int32]bool, len(d.held))
		for _, s := range d.topo {
			if !live[i][s] {
				continue
			}
			m := map[int32]bool{}
			if good(d, s) {
				for _, c := range d.req[s] {
					if alive[c] {
						m[c] = true
					}
				}
			}
			for _, t := range d.succ[s] {
				for c := range reach[t] {
					m[c] = true
				}
			}
			reach[s] = m
			h := d.held[s]
			if row[h] == nil {
				row[h] = map[int32]bool{}
			}
			for c := range m {
				row[h][c] = true
			}
		}
	}
	best := 0
	for s := range nc {
		if !alive[s] {
			continue
		}
		dist := map[int32]int{int32(s): 0}
		q := []int32{int32(s)}
		for h := 0; h < len(q); h++ {
			u := q[h]
			if best > 0 && dist[u]+1 >= best {
				break
			}
			if row[u][int32(s)] {
				best = dist[u] + 1
				break
			}
			for v := range row[u] {
				if _, ok := dist[v]; !ok {
					dist[v] = dist[u] + 1
					q = append(q, v)
				}
			}
		}
	}
	return best
}

// checkConfiguration replays each packet through the routing and checks that the
// chains are disjoint and every head blocked; "" when it holds.
func checkConfiguration(net topology.Network, f deadlock.Function, vcs int, atomic bool, ps []dlPacket) string {
	ports := 0
	for v := range net.Nodes() {
		ports = max(ports, net.Ports(v))
	}
	id := func(c [3]int) int32 { return int32((c[0]*ports+c[1])*vcs + c[2]) }
	type head struct {
		at  int
		h   sim.Header
		req []int32
	}
	heads := make([]head, len(ps))
	owner := map[int32]int{}
	owned := map[int32]bool{}
	tails := map[int32]bool{}
	for i, p := range ps {
		if p.Src < 0 || p.Src >= net.Nodes() || p.Dst < 0 || p.Dst >= net.Nodes() {
			return fmt.Sprintf("packet %d: router out of range", i+1)
		}
		if p.Holds < 1 || p.Holds > len(p.Hops) {
			return fmt.Sprintf("packet %d holds %d of its %d hops", i+1, p.Holds, len(p.Hops))
		}
		h := sim.Header{Src: int32(p.Src), Dst: int32(p.Dst), Port: -1, InPort: -1, VC: -1, Class: p.Class, Aux: p.Aux}
		at := p.Src
		for k, c := range p.Hops {
			if at == p.Dst {
				return fmt.Sprintf("packet %d reaches its destination before hop %d", i+1, k+1)
			}
			if c[0] != at || c[1] < 0 || c[1] >= net.Ports(at) || c[2] < 0 || c[2] >= vcs {
				return fmt.Sprintf("packet %d: hop %d, %v, does not leave %s", i+1, k+1, c, topology.NodeName(net, at))
			}
			hh := h
			offered := false
			for _, o := range f.Route(at, &hh, nil) {
				offered = offered || (o.Port == c[1] && o.VCs>>uint(c[2])&1 == 1)
			}
			if !offered {
				return fmt.Sprintf("packet %d: hop %d, %s, is not a choice the routing offers", i+1, k+1, fmt.Sprint(c))
			}
			next, in := net.Link(at, c[1])
			f.Advance(at, &h, c[1], c[2])
			h.Hops++
			h.Port, h.InPort, h.VC = int32(c[1]), int32(in), int32(c[2])
			at = next
			if k >= len(p.Hops)-p.Holds {
				x := id(c)
				if j, dup := owner[x]; dup {
					return fmt.Sprintf("packets %d and %d both hold %v", j+1, i+1, c)
				}
				owner[x] = i
				if k == len(p.Hops)-p.Holds {
					tails[x] = true
				} else {
					owned[x] = true
				}
			}
		}
		if at == p.Dst {
			return fmt.Sprintf("packet %d's head is at its destination", i+1)
		}
		hh := h
		var req []int32
		for _, o := range f.Route(at, &hh, nil) {
			for m := o.VCs; m != 0; m &= m - 1 {
				if v := bits.TrailingZeros64(m); v < vcs {
					req = append(req, id([3]int{at, o.Port, v}))
				}
			}
		}
		heads[i] = head{at, h, req}
	}
	committed := map[int32]bool{}
	for i, p := range ps {
		if p.Commit == nil {
			continue
		}
		if atomic {
			return fmt.Sprintf("packet %d was granted a VC under atomic reallocation", i+1)
		}
		x := id(*p.Commit)
		if committed[x] {
			return fmt.Sprintf("two heads were granted %v", *p.Commit)
		}
		committed[x], owned[x] = true, true
		ok := false
		for _, r := range heads[i].req {
			ok = ok || r == x
		}
		if !ok || !tails[x] {
			return fmt.Sprintf("packet %d was granted %v, which is not a VC it may request that holds another chain's tail", i+1, *p.Commit)
		}
	}
	for i, p := range ps {
		if p.Commit != nil {
			continue
		}
		for _, r := range heads[i].req {
			_, held := owner[r]
			if (atomic && !held) || (!atomic && !owned[r]) {
				return fmt.Sprintf("packet %d's head may request a VC no packet holds (or owns)", i+1)
			}
		}
	}
	return ""
}

// checkReplay re-runs the batch in the simulator and reads what happens from its
// trace alone, not from the simulator's deadlock detector (package deadlock finds
// the batch with that detector, so trusting it would check the producer with its
// own code): "" when, once no flit has moved for a window of cycles, the first
// worms packets (in order of release) are undelivered and their flits lie exactly
// in the input buffers of the VCs their chains in conf hold, the configuration
// checkConfiguration shows to be a deadlock. The simulator's detector is set past
// the window, so the check's own watch ends the run.
func checkReplay(ctx context.Context, net topology.Network, f deadlock.Function, man DeadlockManifest, pipe sim.Pipeline, ps []sim.Packet, worms int, conf []dlPacket) string {
	if worms < 1 || worms > len(ps) || worms != len(conf) {
		return fmt.Sprintf("%d worms in a batch of %d for a configuration of %d", worms, len(ps), len(conf))
	}
	longest, last := 0, int64(0)
	for _, p := range ps {
		longest = max(longest, p.Flits)
		last = max(last, p.Release)
	}
	lat := 0
	for v := range net.Nodes() {
		for p := range net.Ports(v) {
			lat = max(lat, topology.Latency(net, v, p))
		}
	}
	window := int64(2*longest + 256 + 4*lat)
	type buffer struct{ node, port, vc int32 }
	held := map[int64]map[buffer]int{} // packet -> input buffer -> its flits there
	delivered := map[int64]bool{}      // packets with a flit consumed at their destination
	moved := int64(0)
	still := false
	run, stop := context.WithCancel(ctx)
	defer stop()
	trace := func(ev sim.Event) {
		switch ev.Kind {
		case sim.Arrive:
			if held[ev.Packet] == nil {
				held[ev.Packet] = map[buffer]int{}
			}
			held[ev.Packet][buffer{ev.Node, ev.Port, ev.VC}]++
		case sim.Send:
			b := buffer{ev.Node, ev.InPort, ev.InVC}
			if held[ev.Packet][b]--; held[ev.Packet][b] == 0 {
				delete(held[ev.Packet], b)
			}
		case sim.Deliver:
			delivered[ev.Packet] = true
		case sim.Tick:
			if ev.Cycle > last && ev.Cycle-moved > window && !still {
				still = true
				stop()
			}
			return
		default:
			if ev.Kind != sim.Inject {
				return
			}
		}
		moved = ev.Cycle
	}
	cfg := sim.Config{Net: net, Routing: f, VCs: man.VCs, Buf: man.Buf, Pipeline: pipe, AtomicVC: man.AtomicVC,
		DeadlockCycles: int(4*window) + 1024, Trace: trace}
	_, err := sim.RunBatch(run, cfg, ps, sim.BatchOptions{})
	if !still {
		return fmt.Sprintf("the run did not come to rest (%v)", err)
	}
	// the simulator numbers packets in the order of release (RunBatch generates
	// them so); the configuration's packets are the batch's first worms
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ps[order[a]].Release < ps[order[b]].Release })
	idOf := make([]int64, len(ps))
	for id, k := range order {
		idOf[k] = int64(id)
	}
	for k := range worms {
		id := idOf[k]
		if delivered[id] || len(held[id]) == 0 {
			return fmt.Sprintf("packet %d is not in the network when it comes to rest", k+1)
		}
		want := map[buffer]bool{}
		p := conf[k]
		for _, c := range p.Hops[len(p.Hops)-p.Holds:] {
			next, in := net.Link(c[0], c[1])
			want[buffer{int32(next), int32(in), int32(c[2])}] = true
		}
		if len(want) != len(held[id]) {
			return fmt.Sprintf("packet %d rests in %d buffers, its chain holds %d", k+1, len(held[id]), len(want))
		}
		for b := range held[id] {
			if !want[b] {
				return fmt.Sprintf("packet %d rests in %s's input %d VC %d, not a VC its chain holds", k+1, topology.NodeName(net, int(b.node)), b.port, b.vc)
			}
		}
	}
	return ""
}
