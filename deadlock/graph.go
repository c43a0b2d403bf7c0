package deadlock

// The packet-state graph of a routing, quotiented by bisimilarity: what the exact
// decision (exact.go) and the fixpoint (fixpoint.go) work on.
//
// A state is where a packet's head is and what the routing knows of it: (router,
// the VC it holds there, header). Every transition takes one VC (a choice Route
// offers and one of its VCs) and adds a hop, so the states form a DAG. Two states
// that hold the same VC, may request the same VCs, and whose successors through each
// VC are again such a pair, cannot be told apart by any question the decision asks
// (which VCs a worm holds, which it requests, how it may continue): the graph keeps
// one node per class of that relation (bisimilarity), computed bottom-up by a
// depth-first search that gives every state the signature (held VC, sorted (VC,
// class of the successor) pairs, an arrival marked -1) and interns it. States of
// one source-destination pair are merged exactly by a hash table over the whole
// header; the classes are shared by every pair.
//
// Cost: one Route call per state and one Advance per (state, VC) pair; memory
// O(classes + their successors), the per-pair table O(states of one pair). On a
// 16x16 torus Duato's protocol has 5.1 million states and far fewer classes (the
// figures are in docs/deadlock.md).

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Graph is the quotient state graph of a routing on a network with a VC count.
type Graph struct {
	Net  topology.Network
	VCs  int
	Name string
	// Channels is the number of VC identifiers, Routers x MaxPorts x VCs (not all
	// with a link).
	Channels int
	ports    int
	// per node: the VC it holds, its successors and its choices (CSR), and a
	// representative state (the one with the fewest hops)
	held    []int32
	succOff []int32
	succ    []int32
	chOff   []int32
	ch      []int32
	rep     []state
	// States counts the states enumerated, Pairs the source-destination pairs.
	States int64
	Pairs  int
	// byVC[vcOff[c]:vcOff[c+1]] are the nodes holding VC c.
	vcOff []int32
	byVC  []int32
	// b is kept to find real packets for nodes (Path), its table of signatures
	// frozen
	b *builder
}

// Nodes is the number of classes.
func (g *Graph) Nodes() int { return len(g.held) }

// Held is the VC node n holds.
func (g *Graph) Held(n int32) int32 { return g.held[n] }

// Succ lists node n's successors (states that are not at their destination).
func (g *Graph) Succ(n int32) []int32 { return g.succ[g.succOff[n]:g.succOff[n+1]] }

// Choices lists the VCs node n may request (sorted, without repeats).
func (g *Graph) Choices(n int32) []int32 { return g.ch[g.chOff[n]:g.chOff[n+1]] }

// Holders lists the nodes holding VC c.
func (g *Graph) Holders(c int32) []int32 { return g.byVC[g.vcOff[c]:g.vcOff[c+1]] }

// Channel decodes a VC identifier.
func (g *Graph) Channel(c int32) Channel {
	vc := int(c) % g.VCs
	p := int(c) / g.VCs
	return Channel{Router: p / g.ports, Port: p % g.ports, VC: vc}
}

// ChannelID encodes a channel.
func (g *Graph) ChannelID(c Channel) int32 { return int32((c.Router*g.ports+c.Port)*g.VCs + c.VC) }

// Rep is node n's representative state: the router its head is at and its header.
func (g *Graph) Rep(n int32) (at int, h sim.Header) { return int(g.rep[n].at), g.rep[n].h }

// Build enumerates every packet of f on net with vcs VCs and returns the quotient
// graph. It fails, naming the packet, on a routing that offers no choice at a
// reachable state short of the destination, offers a port without a link or a
// choice with no VC below vcs, or routes a packet more than 4 x routers hops.
// budget, when positive, bounds the bytes the graph and the enumeration may use
// (an estimate); past it Build fails with a *MemoryError.
func Build(ctx context.Context, net topology.Network, f Function, vcs int, name string, budget int64) (*Graph, error) {
	if vcs < 1 || vcs > 64 {
		return nil, fmt.Errorf("vcs %d outside 1..64", vcs)
	}
	ports := 0
	for v := range net.Nodes() {
		ports = max(ports, net.Ports(v))
	}
	g := &Graph{Net: net, VCs: vcs, Name: name, ports: ports, Channels: net.Nodes() * ports * vcs}
	b := builder{g: g, f: f, vcs: vcs, budget: budget}
	b.sigs.init(1 << 12)
	b.memo.init(1 << 10)
	mask := uint64(1)<<uint(vcs) - 1
	if vcs == 64 {
		mask = ^uint64(0)
	}
	b.mask = mask
	if c, ok := f.(Canonical); ok {
		b.canon = c.Canon
	}
	srcs, dsts := topology.Sources(net), topology.Sinks(net)
	var starts []sim.Header
	for _, dst := range dsts {
		// one table per destination: states of different destinations never meet
		b.memo.reset()
		for _, src := range srcs {
			if src == dst {
				continue
			}
			g.Pairs++
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			h0 := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
			starts = f.Starts(h0, starts[:0])
			if len(starts) == 0 {
				return nil, fmt.Errorf("%s: no start state for %s -> %s", name, topology.NodeName(net, src), topology.NodeName(net, dst))
			}
			for _, h := range starts {
				if b.canon != nil {
					b.canon(&h)
				}
				if _, err := b.visit(state{at: int32(src), held: -1, h: h}); err != nil {
					return nil, err
				}
			}
		}
		if budget > 0 && b.bytes() > budget {
			return nil, &MemoryError{Need: b.bytes(), Budget: budget, What: "the state graph"}
		}
	}
	g.succOff = append(g.succOff, int32(len(g.succ)))
	g.chOff = append(g.chOff, int32(len(g.ch)))
	// nodes by held VC
	g.vcOff = make([]int32, g.Channels+1)
	for _, c := range g.held {
		g.vcOff[c+1]++
	}
	for c := range g.Channels {
		g.vcOff[c+1] += g.vcOff[c]
	}
	g.byVC = make([]int32, len(g.held))
	fill := slices.Clone(g.vcOff[:g.Channels])
	for n, c := range g.held {
		g.byVC[fill[c]] = int32(n)
		fill[c]++
	}
	b.frozen = true
	b.memo.init(1 << 10)
	g.b = &b
	return g, nil
}

// Path returns a real packet whose state after its last hop is in node n's class,
// with the fewest hops: its source, its start header (its routing state at the
// source; with Canonical routings the fields Canon clears are zero) and the VCs it
// takes, the last being n's. It enumerates the states of n's destination again.
func (g *Graph) Path(ctx context.Context, n int32) (src int, start sim.Header, vcs []int32, err error) {
	_, rh := g.Rep(n)
	b := g.b
	return g.pathWhere(ctx, int(rh.Dst), func(s *state) bool {
		c, ok := b.memo.get(s)
		return ok && c == n
	}, nil, nil)
}

// pathWhere finds, by breadth-first search over the real states of packets to
// dst from the sources src allows (nil: all), through VCs avoid does not refuse
// (nil: none), the fewest-hop packet reaching a state accept takes (states at dst
// included); the classes of all states of dst are in the builder's table during
// accept.
func (g *Graph) pathWhere(ctx context.Context, dst int, accept func(*state) bool, src func(int) bool, avoid func(int32) bool) (int, sim.Header, []int32, error) {
	b := g.b
	b.memo.reset()
	par := map[state]state{}
	var queue []state
	var starts []sim.Header
	var none state
	none.held = -2
	for _, s := range topology.Sources(g.Net) {
		if s == dst {
			continue
		}
		h0 := sim.Header{Src: int32(s), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
		starts = b.f.Starts(h0, starts[:0])
		for _, h := range starts {
			if b.canon != nil {
				b.canon(&h)
			}
			st := state{at: int32(s), held: -1, h: h}
			if _, err := b.visit(st); err != nil {
				return 0, sim.Header{}, nil, err
			}
			if _, seen := par[st]; !seen && (src == nil || src(s)) {
				par[st] = none
				queue = append(queue, st)
			}
		}
	}
	found := func(s state) (int, sim.Header, []int32) {
		var vcs []int32
		var at int
		var start sim.Header
		for x := s; x.held != -2; x = par[x] {
			if x.held >= 0 {
				vcs = append(vcs, x.held)
			} else {
				at, start = int(x.at), x.h
			}
		}
		slices.Reverse(vcs)
		return at, start, vcs
	}
	for i := 0; i < len(queue); i++ {
		if i&1023 == 0 && ctx.Err() != nil {
			return 0, sim.Header{}, nil, ctx.Err()
		}
		s := queue[i]
		b.stack = b.stack[:0]
		b.kids = b.kids[:0]
		if err := b.push(s); err != nil {
			return 0, sim.Header{}, nil, err
		}
		kids := slices.Clone(b.kids)
		for _, k := range kids {
			if _, seen := par[k.s]; seen || (avoid != nil && avoid(k.vc)) {
				continue
			}
			par[k.s] = s
			if accept(&k.s) {
				a, st, v := found(k.s)
				return a, st, v, nil
			}
			if int(k.s.at) != dst {
				queue = append(queue, k.s)
			}
		}
	}
	return 0, sim.Header{}, nil, errNoPath
}

var errNoPath = errors.New("no packet")

// Canonical is implemented by routings whose Route and Advance read only some of
// the header's fields: Canon clears the others (the source, the hops taken, ...),
// so that Build merges states the routing cannot tell apart before enumerating
// below them, instead of after. The result is the same graph (the classes of
// bisimilar states) reached with far fewer Route calls; a Canon that clears a
// field the routing reads gives a wrong graph, which TestCanonical looks for on
// small networks for every routing that implements it. Canon must not clear Dst,
// Port, InPort or VC, which the simulator and the checker keep.
type Canonical interface {
	Canon(h *sim.Header)
}

// MemoryError says the decision would need more memory than allowed.
type MemoryError struct {
	Need, Budget int64
	What         string
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%s needs about %d MB, above the budget of %d MB", e.What, e.Need>>20, e.Budget>>20)
}

type builder struct {
	g      *Graph
	f      Function
	vcs    int
	mask   uint64
	budget int64
	sigs   sigTable
	memo   stateTable
	// the depth-first search's stacks: frames, the children still to visit, the
	// (VC, class) pairs of the frame being finished
	stack   []frame
	kids    []kid
	pairs   []int32
	choices []sim.Choice
	sig     []int32
	h, nh   sim.Header
	canon   func(*sim.Header)
	frozen  bool // after Build: no new class
}

type frame struct {
	s          state
	kid0, kidN int32 // kids[kid0:kidN] are this frame's children
	next       int32 // the next child to look at
	pair0      int32 // pairs[pair0:] are this frame's (VC, class) pairs
}

type kid struct {
	vc int32 // the VC identifier taken
	s  state // the state reached (s.at == destination: arrived)
}

func (b *builder) bytes() int64 {
	g := b.g
	return int64(len(g.held))*(4+4+4+int64(stateSize)) + int64(len(g.succ)+len(g.ch))*4 + b.sigs.bytes() + b.memo.bytes()
}

// visit returns the class of state s (not at its destination), enumerating what
// lies below it first.
func (b *builder) visit(root state) (int32, error) {
	if c, ok := b.memo.get(&root); ok {
		return c, nil
	}
	b.stack = b.stack[:0]
	b.kids = b.kids[:0]
	b.pairs = b.pairs[:0]
	if err := b.push(root); err != nil {
		return 0, err
	}
	var result int32
	for len(b.stack) > 0 {
		fr := &b.stack[len(b.stack)-1]
		if fr.next < fr.kidN {
			k := b.kids[fr.next]
			fr.next++
			if k.s.at == k.s.h.Dst {
				b.pairs = append(b.pairs, k.vc, -1)
				continue
			}
			if c, ok := b.memo.get(&k.s); ok {
				if c == onStack {
					return 0, fmt.Errorf("%s: a packet for %s can be routed in a loop (it comes back to a state at %s)", b.g.Name, topology.NodeName(b.g.Net, int(k.s.h.Dst)), topology.NodeName(b.g.Net, int(k.s.at)))
				}
				b.pairs = append(b.pairs, k.vc, c)
				continue
			}
			if err := b.push(k.s); err != nil {
				return 0, err
			}
			continue
		}
		// all children done: intern the signature
		c := b.finish(fr)
		b.kids = b.kids[:fr.kid0]
		b.pairs = b.pairs[:fr.pair0]
		s := fr.s
		b.stack = b.stack[:len(b.stack)-1]
		b.memo.put(&s, c)
		if len(b.stack) == 0 {
			result = c
			break
		}
		b.pairs = append(b.pairs, s.held, c)
	}
	return result, nil
}

// push enumerates the successors of s and opens its frame.
func (b *builder) push(s state) error {
	g := b.g
	net := g.Net
	b.g.States++
	if int(s.h.Hops) > 4*net.Nodes() {
		return fmt.Errorf("%s: a packet %s -> %s passes %d hops without arriving", g.Name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), s.h.Hops)
	}
	// Route and Advance take a pointer through an interface: scratch headers in
	// the builder, so that no call allocates
	b.h = s.h
	b.choices = b.f.Route(int(s.at), &b.h, b.choices[:0])
	if len(b.choices) == 0 {
		return fmt.Errorf("%s: no choice for a packet %s -> %s at %s", g.Name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)))
	}
	kid0 := int32(len(b.kids))
	for _, c := range b.choices {
		m := c.VCs & b.mask
		if m == 0 {
			return fmt.Errorf("%s: a packet %s -> %s at %s is offered port %d with no VC below %d", g.Name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)), c.Port, b.vcs)
		}
		if c.Port < 0 || c.Port >= net.Ports(int(s.at)) {
			return fmt.Errorf("%s: a packet %s -> %s at %s is offered port %d, which %s does not have", g.Name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)), c.Port, topology.NodeName(net, int(s.at)))
		}
		next, in := net.Link(int(s.at), c.Port)
		if next < 0 {
			return fmt.Errorf("%s: port %d of %s has no link", g.Name, c.Port, topology.NodeName(net, int(s.at)))
		}
		for ; m != 0; m &= m - 1 {
			vc := bits.TrailingZeros64(m)
			b.nh = s.h
			b.f.Advance(int(s.at), &b.nh, c.Port, vc)
			b.nh.Hops++
			b.nh.Port, b.nh.InPort, b.nh.VC = int32(c.Port), int32(in), int32(vc)
			if b.canon != nil {
				b.canon(&b.nh)
			}
			id := int32((int(s.at)*g.ports+c.Port)*b.vcs + vc)
			b.kids = append(b.kids, kid{vc: id, s: state{at: int32(next), held: id, h: b.nh}})
		}
	}
	b.stack = append(b.stack, frame{s: s, kid0: kid0, kidN: int32(len(b.kids)), next: kid0, pair0: int32(len(b.pairs))})
	if !b.frozen {
		b.memo.put(&s, onStack)
	}
	return nil
}

// onStack marks a state whose class is being computed: meeting it again below
// itself is a loop (possible only when Canon has cleared the hop count).
const onStack = -2

// finish interns the signature of a frame whose children are all classified and
// returns its class (a start state, holding no VC, gets class -1: it is no node).
func (b *builder) finish(fr *frame) int32 {
	g := b.g
	ps := b.pairs[fr.pair0:]
	// sort the (VC, class) pairs and drop repeats
	n := len(ps) / 2
	sortPairs(ps)
	w := 0
	for i := range n {
		if w > 0 && ps[2*w-2] == ps[2*i] && ps[2*w-1] == ps[2*i+1] {
			continue
		}
		ps[2*w], ps[2*w+1] = ps[2*i], ps[2*i+1]
		w++
	}
	ps = ps[:2*w]
	if fr.s.held < 0 {
		return -1
	}
	b.sig = append(b.sig[:0], fr.s.held)
	b.sig = append(b.sig, ps...)
	c, fresh := b.sigs.intern(b.sig, int32(len(g.held)))
	if fresh && b.frozen {
		panic("deadlock: a state outside the graph (the routing is not deterministic)")
	}
	if fresh {
		g.held = append(g.held, fr.s.held)
		g.rep = append(g.rep, fr.s)
		g.succOff = append(g.succOff, int32(len(g.succ)))
		g.chOff = append(g.chOff, int32(len(g.ch)))
		for i := 0; i < len(ps); i += 2 {
			if len(g.ch) == int(g.chOff[c]) || g.ch[len(g.ch)-1] != ps[i] {
				g.ch = append(g.ch, ps[i])
			}
			if ps[i+1] >= 0 {
				g.succ = append(g.succ, ps[i+1])
			}
		}
	} else if fr.s.h.Hops < g.rep[c].h.Hops {
		g.rep[c] = fr.s
	}
	return c
}

// sortPairs sorts a flat list of (VC, class) pairs by VC, then class (insertion
// sort: a state has few choices).
func sortPairs(ps []int32) {
	for i := 2; i < len(ps); i += 2 {
		a, c := ps[i], ps[i+1]
		j := i
		for j > 0 && (ps[j-2] > a || (ps[j-2] == a && ps[j-1] > c)) {
			ps[j], ps[j+1] = ps[j-2], ps[j-1]
			j -= 2
		}
		ps[j], ps[j+1] = a, c
	}
}
