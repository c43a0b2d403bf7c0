package deadlock

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Function is what the checker needs of a routing: the simulator's interface and
// the list of every initial state Start can produce for a packet (Src and Dst set,
// Hops 0, Port, InPort and VC -1 in h).
type Function interface {
	sim.Routing
	Starts(h sim.Header, out []sim.Header) []sim.Header
}

// Escaper is implemented by adaptive routings that rely on Duato's condition:
// Escape reports whether the choice of output port port, VC vc for the packet h at
// router at is one the escape subfunction R1 makes. R1 may supply a channel to some
// packets and not to others (seed 001's two-class Duato routing supplies the A
// channels to packets whose route still crosses the wrap link); the escape channel
// set C1 is every channel R1 supplies to some packet.
type Escaper interface {
	Escape(at int, h *sim.Header, port, vc int) bool
}

// Channel is one virtual channel: VC VC of the link leaving Router by Port
// (in JSON, as --sufficient --json writes a cycle: router, port, vc).
type Channel struct {
	Router int `json:"router"`
	Port   int `json:"port"`
	VC     int `json:"vc"`
}

// Report is what Check proved or found.
type Report struct {
	Topology string `json:"topology"`
	Routing  string `json:"routing"`
	VCs      int    `json:"vcs"`
	// Theorem is "dally-seitz" (the whole dependency graph) or "duato" (the
	// extended graph of the escape channels).
	Theorem string `json:"theorem"`
	// States is the number of distinct packet states enumerated, Pairs the
	// source-destination pairs.
	States int `json:"states"`
	Pairs  int `json:"pairs"`
	// Channels counts the virtual channels of the network, Used those some packet
	// can hold, Escape the escape channels (Duato only).
	Channels int `json:"channels"`
	Used     int `json:"used"`
	Escape   int `json:"escape,omitempty"`
	// Dependencies is the number of edges of the checked graph (direct
	// dependencies for Dally-Seitz, direct plus indirect for Duato).
	Dependencies int  `json:"dependencies"`
	Acyclic      bool `json:"acyclic"`
	// Levels is the length of the longest dependency chain plus one (the number of
	// levels of a topological order) when the graph is acyclic.
	Levels int `json:"levels,omitempty"`
	// Cycle is a shortest dependency cycle when there is one, as channels; the last
	// depends on the first.
	Cycle []Channel `json:"cycle,omitempty"`
	// Disconnected names a state where the escape channels do not lead on (Duato).
	Disconnected string `json:"disconnected,omitempty"`
	name         func(int) string
	port         func(int) string
}

// OK reports whether deadlock freedom was proved.
func (r *Report) OK() bool { return r.Acyclic && r.Disconnected == "" }

// CycleString writes the cycle channel by channel: "0,0 +x vc0 -> 1,0 +x vc0 -> ...".
func (r *Report) CycleString() string {
	parts := make([]string, len(r.Cycle))
	for i, c := range r.Cycle {
		parts[i] = r.channelName(c)
	}
	return strings.Join(parts, " -> ")
}

func (r *Report) channelName(c Channel) string {
	node := fmt.Sprint(c.Router)
	if r.name != nil {
		node = r.name(c.Router)
	}
	port := fmt.Sprintf("port %d", c.Port)
	if r.port != nil {
		port = r.port(c.Port)
	}
	return fmt.Sprintf("%s %s vc %d", node, port, c.VC)
}

// state is one packet state: the router its head is at, the channel it holds
// there (-1 at its source) and its header.
type state struct {
	at   int32
	held int32
	h    sim.Header
}

// Check enumerates every packet of f on net with vcs VCs and checks the theorem
// that applies: Duato's condition when f is an Escaper, else Dally and Seitz's.
// name labels the report. It fails on a routing that offers no choice at a
// reachable state short of the destination, or leads off the network.
func Check(ctx context.Context, net topology.Network, f Function, vcs int, name string) (*Report, error) {
	if vcs < 1 || vcs > 64 {
		return nil, fmt.Errorf("vcs %d outside 1..64", vcs)
	}
	ports := 0
	for v := range net.Nodes() {
		ports = max(ports, net.Ports(v))
	}
	chanID := func(at, port, vc int) int32 { return int32((at*ports+port)*vcs + vc) }
	nch := net.Nodes() * ports * vcs
	esc, duato := f.(Escaper)
	rep := &Report{Topology: net.String(), Routing: name, VCs: vcs, Theorem: "dally-seitz", name: func(v int) string { return topology.NodeName(net, v) }}
	if duato {
		rep.Theorem = "duato"
	}
	if _, grid := net.(*topology.Grid); grid {
		rep.port = func(p int) string {
			dim, dir := topology.PortDim(p)
			sign := "+"
			if dir < 0 {
				sign = "-"
			}
			if dim < 3 {
				return sign + string("xyz"[dim])
			}
			return fmt.Sprintf("%sd%d", sign, dim)
		}
	}
	// succ[s] lists the successor states of state s with the channel taken.
	type edge struct {
		to  int32
		ch  int32
		esc bool // an escape (R1) choice
	}
	index := map[state]int32{}
	var states []state
	var succ [][]edge
	var queue []int32
	add := func(s state) int32 {
		if id, ok := index[s]; ok {
			return id
		}
		id := int32(len(states))
		index[s] = id
		states = append(states, s)
		succ = append(succ, nil)
		queue = append(queue, id)
		return id
	}
	// routers where terminals inject and eject (the same but on a butterfly)
	srcs, dsts := topology.Sources(net), topology.Sinks(net)
	var starts []sim.Header
	var choices []sim.Choice
	for _, src := range srcs {
		for _, dst := range dsts {
			if src == dst {
				continue
			}
			rep.Pairs++
			h0 := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
			starts = f.Starts(h0, starts[:0])
			if len(starts) == 0 {
				return nil, fmt.Errorf("%s: no start state for %s -> %s", name, topology.NodeName(net, src), topology.NodeName(net, dst))
			}
			for _, h := range starts {
				add(state{at: int32(src), held: -1, h: h})
			}
		}
		// Expand this source's states now, so the queue stays small.
		for len(queue) > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			id := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			s := states[id]
			if int(s.at) == int(s.h.Dst) && sim.Arrives(f, &s.h) {
				continue
			}
			if s.h.Hops > int32(4*net.Nodes()) {
				return nil, fmt.Errorf("%s: a packet %s -> %s passes %d hops without arriving", name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), s.h.Hops)
			}
			h := s.h
			choices = f.Route(int(s.at), &h, choices[:0])
			if len(choices) == 0 {
				return nil, fmt.Errorf("%s: no choice for a packet %s -> %s at %s", name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)))
			}
			var es []edge
			for _, c := range choices {
				if c.VCs&(uint64(1)<<uint(vcs)-1) == 0 {
					return nil, fmt.Errorf("%s: a packet %s -> %s at %s is offered port %d with no VC below %d", name, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)), c.Port, vcs)
				}
				next, in := net.Link(int(s.at), c.Port)
				if next < 0 {
					return nil, fmt.Errorf("%s: port %d of %s has no link", name, c.Port, topology.NodeName(net, int(s.at)))
				}
				for m := c.VCs & (uint64(1)<<uint(vcs) - 1); m != 0; m &= m - 1 {
					vc := bits.TrailingZeros64(m)
					nh := s.h
					f.Advance(int(s.at), &nh, c.Port, vc)
					nh.Hops++
					nh.Port, nh.InPort, nh.VC = int32(c.Port), int32(in), int32(vc)
					ch := chanID(int(s.at), c.Port, vc)
					r1 := duato && esc.Escape(int(s.at), &h, c.Port, vc)
					es = append(es, edge{add(state{at: int32(next), held: ch, h: nh}), ch, r1})
				}
			}
			if len(es) == 0 {
				return nil, fmt.Errorf("%s: no VC below %d offered to a packet %s -> %s at %s", name, vcs, topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)))
			}
			succ[id] = es
		}
	}
	rep.States = len(states)
	rep.Channels = Channels(net) * vcs
	used := make([]bool, nch)
	for _, s := range states {
		if s.held >= 0 {
			used[s.held] = true
		}
	}
	for _, u := range used {
		if u {
			rep.Used++
		}
	}
	// The graph: for Dally-Seitz every held channel to every channel requested; for
	// Duato every held escape channel to every escape channel reachable through
	// non-escape channels only.
	adj := make([]map[int32]bool, nch)
	link := func(a, b int32) {
		if adj[a] == nil {
			adj[a] = map[int32]bool{}
		}
		if !adj[a][b] {
			adj[a][b] = true
			rep.Dependencies++
		}
	}
	if !duato {
		for id, s := range states {
			if s.held < 0 {
				continue
			}
			for _, e := range succ[id] {
				link(s.held, e.ch)
			}
		}
	} else {
		inC1 := make([]bool, nch)
		for id := range states {
			for _, e := range succ[id] {
				inC1[e.ch] = inC1[e.ch] || e.esc
			}
		}
		for _, in := range inC1 {
			if in {
				rep.Escape++
			}
		}
		// Connectedness: every state short of its destination has an escape
		// choice, and escape moves alone reach the destination: with finitely many
		// states, that is no cycle of escape moves among states.
		for id, s := range states {
			if int(s.at) == int(s.h.Dst) && sim.Arrives(f, &s.h) {
				continue
			}
			has := false
			for _, e := range succ[id] {
				has = has || e.esc
			}
			if !has {
				rep.Disconnected = fmt.Sprintf("a packet %s -> %s at %s (hops %d) is offered no escape channel", topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, int(s.h.Dst)), topology.NodeName(net, int(s.at)), s.h.Hops)
				break
			}
		}
		// reach[id]: the escape requests state id can make, at once or after hops
		// on channels outside C1 (Duato's direct and indirect dependencies; the
		// held channel may have been taken adaptively, which gives the cross
		// dependencies). A hop that uses a C1 channel outside R1 ends the run: the
		// packet then holds that channel, whose own dependencies are counted from
		// its state.
		reach := make([][]int32, len(states))
		done := make([]uint8, len(states)) // 0 new, 1 on stack, 2 done
		var visit func(id int32) []int32
		visit = func(id int32) []int32 {
			if done[id] == 2 {
				return reach[id]
			}
			done[id] = 1
			set := map[int32]bool{}
			for _, e := range succ[id] {
				switch {
				case e.esc:
					set[e.ch] = true
				case !inC1[e.ch] && done[e.to] != 1:
					for _, c := range visit(e.to) {
						set[c] = true
					}
				}
			}
			r := make([]int32, 0, len(set))
			for c := range set {
				r = append(r, c)
			}
			reach[id], done[id] = r, 2
			return r
		}
		for id, s := range states {
			if s.held >= 0 && inC1[s.held] {
				for _, c := range visit(int32(id)) {
					link(s.held, c)
				}
			}
		}
	}
	rep.Acyclic, rep.Levels, rep.Cycle = analyse(adj, nch, func(c int32) Channel {
		vc := int(c) % vcs
		p := int(c) / vcs
		return Channel{Router: p / ports, Port: p % ports, VC: vc}
	})
	return rep, nil
}

// Channels counts the links of net (output ports with a link).
func Channels(net topology.Network) int { return topology.Channels(net) }
