package routing

// Writing a routing as a table (docs/routing-table.md): every state a packet can
// reach is enumerated, and the choices recorded under the table's key (router,
// destination, input, input VC). A routing whose choices depend on more than
// that key (a dateline class, a tie drawn at the source, Valiant's intermediate
// node) has no table, and WriteTable says where it found two states of one key
// with different choices.

import (
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Starter lists every state a routing's Start can give a packet (package deadlock
// enumerates from them).
type Starter interface {
	Starts(h sim.Header, out []sim.Header) []sim.Header
}

// escaper is package deadlock's Escaper, declared here for the table's escape VCs.
type escaper interface {
	Escape(at int, h *sim.Header, port, vc int) bool
}

// WriteTable writes r, a routing on net with vcs VCs, as a routing table whose
// "topology" is spec (net's own spec when empty). It fails on a routing that lists
// no start states, on one whose choices depend on more than the table's key, and on
// a network with a packet routed more than 4 x routers hops.
func WriteTable(w io.Writer, net topology.Network, spec string, r sim.Routing, vcs int) error {
	st, ok := r.(Starter)
	if !ok {
		return fmt.Errorf("the routing lists no start states, so it cannot be enumerated")
	}
	if spec == "" {
		spec = net.String()
	}
	esc, _ := r.(escaper)
	n := net.Nodes()
	in := 0
	for v := range n {
		in = max(in, net.InPorts(v)+1)
	}
	type choice struct {
		port int
		vcs  uint64
		pri  int
		esc  uint64
	}
	key := func(at, slot, vc int) int { return (at*in+slot)*vcs + vc }
	var entries []tableRoute
	type group struct {
		at, slot, vc int
		choices      []choice
		dsts         []int
	}
	var groups []*group
	byKey := map[string]*group{}
	seen := map[string]bool{}
	var chs []sim.Choice
	var starts []sim.Header
	for _, dst := range topology.Sinks(net) {
		got := make([][]choice, n*in*vcs) // per key, the choices recorded
		has := make([]bool, n*in*vcs)
		clear(seen)
		type state struct {
			at int
			h  sim.Header
		}
		var queue []state
		push := func(s state) {
			k := fmt.Sprint(s.at, s.h)
			if !seen[k] {
				seen[k] = true
				queue = append(queue, s)
			}
		}
		for _, src := range topology.Sources(net) {
			if src == dst {
				continue
			}
			starts = st.Starts(sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}, starts[:0])
			for _, h := range starts {
				push(state{src, h})
			}
		}
		for len(queue) > 0 {
			s := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			if s.at == dst {
				continue
			}
			if int(s.h.Hops) > 4*n {
				return fmt.Errorf("a packet %s -> %s passes %d hops without arriving", topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, dst), s.h.Hops)
			}
			h := s.h
			chs = r.Route(s.at, &h, chs[:0])
			var cs []choice
			for _, c := range chs {
				m := c.VCs & (uint64(1)<<uint(vcs) - 1)
				if vcs == 64 {
					m = c.VCs
				}
				var e uint64
				for b := m; b != 0; b &= b - 1 {
					v := bits.TrailingZeros64(b)
					if esc != nil && esc.Escape(s.at, &h, c.Port, v) {
						e |= 1 << uint(v)
					}
					nh := s.h
					r.Advance(s.at, &nh, c.Port, v)
					next, ip := net.Link(s.at, c.Port)
					if next < 0 {
						return fmt.Errorf("a packet %s -> %s at %s is offered port %s, which has no link", topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, dst), topology.NodeName(net, s.at), PortName(net, c.Port))
					}
					nh.Hops++
					nh.Port, nh.InPort, nh.VC = int32(c.Port), int32(ip), int32(v)
					push(state{next, nh})
				}
				if m != 0 {
					cs = append(cs, choice{c.Port, m, c.Pri, e})
				}
			}
			if len(cs) == 0 {
				return fmt.Errorf("no choice for a packet %s -> %s at %s", topology.NodeName(net, int(s.h.Src)), topology.NodeName(net, dst), topology.NodeName(net, s.at))
			}
			slices.SortFunc(cs, func(a, b choice) int {
				if a.port != b.port {
					return a.port - b.port
				}
				return bits.TrailingZeros64(a.vcs) - bits.TrailingZeros64(b.vcs)
			})
			slot, vc := int(s.h.InPort)+1, int(s.h.VC)
			if slot == 0 {
				vc = 0
			}
			k := key(s.at, slot, vc)
			if has[k] && !slices.Equal(got[k], cs) {
				return fmt.Errorf("no table: the choices for a packet to %s at %s %s depend on more than the router, destination, input and VC (two states of that key differ)", topology.NodeName(net, dst), topology.NodeName(net, s.at), inputName(net, slot, vc))
			}
			has[k], got[k] = true, cs
		}
		// One entry per router when its choices for dst do not depend on the
		// input, else one per input, else one per input VC.
		for at := range n {
			var first []choice
			uniform, any := true, false
			perSlot := make([][]choice, in)
			slotUniform := make([]bool, in)
			for slot := range in {
				slotUniform[slot] = true
				seenSlot := false
				for vc := range vcs {
					k := key(at, slot, vc)
					if !has[k] {
						continue
					}
					if !any {
						first, any = got[k], true
					} else if !slices.Equal(first, got[k]) {
						uniform = false
					}
					if !seenSlot {
						perSlot[slot], seenSlot = got[k], true
					} else if !slices.Equal(perSlot[slot], got[k]) {
						slotUniform[slot] = false
					}
				}
			}
			add := func(slot, vc int, cs []choice) {
				id := fmt.Sprint(at, slot, vc, cs)
				g := byKey[id]
				if g == nil {
					g = &group{at: at, slot: slot, vc: vc, choices: cs}
					byKey[id] = g
					groups = append(groups, g)
				}
				g.dsts = append(g.dsts, dst)
			}
			switch {
			case !any:
			case uniform:
				add(-1, -1, first)
			default:
				for slot := range in {
					if perSlot[slot] == nil && !has[key(at, slot, 0)] {
						continue
					}
					if slotUniform[slot] {
						add(slot, -1, perSlot[slot])
						continue
					}
					for vc := range vcs {
						if k := key(at, slot, vc); has[k] {
							add(slot, vc, got[k])
						}
					}
				}
			}
		}
	}
	name := func(v int) json.RawMessage {
		b, _ := json.Marshal(topology.NodeName(net, v))
		return b
	}
	for _, g := range groups {
		e := tableRoute{At: name(g.at)}
		if len(g.dsts) == 1 {
			e.Dst = name(g.dsts[0])
		} else {
			parts := make([]string, len(g.dsts))
			for i, d := range g.dsts {
				parts[i] = string(name(d))
			}
			e.Dst = json.RawMessage("[" + strings.Join(parts, ",") + "]")
		}
		switch {
		case g.slot == 0:
			e.In = json.RawMessage(`"inject"`)
		case g.slot > 0:
			e.In = portJSON(net, g.slot-1)
			if g.vc >= 0 {
				v := g.vc
				e.VC = &v
			}
		}
		for _, c := range g.choices {
			tc := tableChoice{Port: portJSON(net, c.port), Pri: c.pri}
			if full := uint64(1)<<uint(vcs) - 1; c.vcs != full || vcs == 64 {
				tc.VCs = maskList(c.vcs)
			}
			tc.Escape = maskList(c.esc)
			e.Choices = append(e.Choices, tc)
		}
		entries = append(entries, e)
	}
	// One entry a line.
	var b strings.Builder
	fmt.Fprintf(&b, "{\n \"format\": %q,\n", TableFormat)
	if n2, err := topology.Parse(spec); err == nil && SameNetwork(n2, net) {
		fmt.Fprintf(&b, " \"topology\": %q,\n", spec)
	} else {
		// a network no spec builds: written out, nodes and edges, the edges in
		// the order that gives its routers the same input ports
		nodes := make([]string, net.Nodes())
		for v := range nodes {
			nodes[v] = topology.NodeName(net, v)
		}
		type link struct{ from, to, order int }
		var links []link
		g, general := net.(*topology.General)
		for v := range net.Nodes() {
			for p := range net.Ports(v) {
				if w, in := net.Link(v, p); w >= 0 {
					order := len(links)
					if general {
						order = g.Edge(v, p)
					} else {
						order = w*1024 + in // incoming links in input-port order
					}
					links = append(links, link{v, w, order})
				}
			}
		}
		slices.SortStableFunc(links, func(a, b link) int { return a.order - b.order })
		nb, _ := json.Marshal(nodes)
		b.WriteString(" \"network\": {\"nodes\": " + string(nb) + ", \"edges\": [")
		for i, l := range links {
			if i > 0 {
				b.WriteByte(',')
			}
			pair, _ := json.Marshal([2]string{nodes[l.from], nodes[l.to]})
			b.Write(pair)
		}
		b.WriteString("]},\n")
	}
	fmt.Fprintf(&b, " \"vcs\": %d,\n \"routes\": [", vcs)
	for i, e := range entries {
		line, err := json.Marshal(e)
		if err != nil {
			return err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		b.Write(line)
	}
	b.WriteString("\n ]\n}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func portJSON(net topology.Network, p int) json.RawMessage {
	if _, ok := net.(*topology.Grid); ok {
		return json.RawMessage(strconv.Quote(PortName(net, p)))
	}
	return json.RawMessage(strconv.Itoa(p))
}

func maskList(m uint64) []int {
	var l []int
	for ; m != 0; m &= m - 1 {
		l = append(l, bits.TrailingZeros64(m))
	}
	return l
}

func inputName(net topology.Network, slot, vc int) string {
	if slot == 0 {
		return "at its source"
	}
	return fmt.Sprintf("arriving by input %s on VC %d", PortName(net, slot-1), vc)
}
