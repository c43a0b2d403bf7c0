package simcheck

import (
	"fmt"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Params are the simulated configuration's parameters the checker needs.
type Params struct {
	VCs, Buf int
	// EjectAll: destinations take any number of flits per cycle.
	EjectAll bool
	// Hop, when positive, is the exact number of cycles from a flit's Send on a
	// link to its Arrive at the far end.
	Hop int64
}

// Violation is the first broken invariant: the event at fault and what is wrong.
type Violation struct {
	Event sim.Event
	Rule  string
	Msg   string
}

func (v *Violation) Error() string {
	e := v.Event
	return fmt.Sprintf("simcheck: %s: cycle %d node %d port %d vc %d packet %d flit %d: %s", v.Rule, e.Cycle, e.Node, e.Port, e.VC, e.Packet, e.Flit, v.Msg)
}

// Report counts packets at the end of a trace.
type Report struct {
	Events                             int64
	Generated, Delivered, InFlight     int64
	FlitsSent, FlitsDelivered, Credits int64
}

type pkt struct {
	size, dst int32
	next      int32 // next flit to deliver
}

type vcKey struct{ node, port, vc int32 }

type vcRun struct {
	pkt  int64 // packet in passage (-1: none)
	next int32 // its next flit
}

type inflight struct {
	pkt   int64
	flit  int32
	vc    int32
	cycle int64
}

type portCycle struct {
	node, port int32
	cycle      int64
}

// Checker consumes events one by one (its Event method fits sim.Config.Trace).
type Checker struct {
	net   topology.Network
	p     Params
	err   *Violation
	r     Report
	pkts  map[int64]*pkt
	cred  map[vcKey]int   // output VC credits (port -1-k: source of injection port k)
	occ   map[vcKey]int   // input VC occupancy
	out   map[vcKey]vcRun // contiguity per output VC
	in    map[vcKey]vcRun // contiguity per input VC
	sent  map[portCycle]bool
	inj   map[portCycle]bool
	links map[[2]int32][]inflight // (node, out port) -> flits on the link
	back  map[[2]int32][2]int32   // (node, in port) -> (upstream node, out port)
}

// New returns a checker for net with p.
func New(net topology.Network, p Params) *Checker {
	c := &Checker{net: net, p: p, pkts: map[int64]*pkt{}, cred: map[vcKey]int{}, occ: map[vcKey]int{},
		out: map[vcKey]vcRun{}, in: map[vcKey]vcRun{}, sent: map[portCycle]bool{}, inj: map[portCycle]bool{},
		links: map[[2]int32][]inflight{}, back: map[[2]int32][2]int32{}}
	for v := range net.Nodes() {
		for port := range net.Ports(v) {
			if w, q := net.Link(v, port); w >= 0 {
				c.back[[2]int32{int32(w), int32(q)}] = [2]int32{int32(v), int32(port)}
			}
		}
	}
	return c
}

func (c *Checker) fail(e sim.Event, rule, format string, a ...any) {
	if c.err == nil {
		c.err = &Violation{Event: e, Rule: rule, Msg: fmt.Sprintf(format, a...)}
	}
}

func (c *Checker) credits(k vcKey) int {
	if n, ok := c.cred[k]; ok {
		return n
	}
	return c.p.Buf
}

// pass checks that flit f of packet id continues the passage on a VC.
func (c *Checker) pass(m map[vcKey]vcRun, k vcKey, e sim.Event, rule string) {
	run, ok := m[k]
	if !ok {
		run = vcRun{pkt: -1}
	}
	pk := c.pkts[e.Packet]
	if run.pkt < 0 {
		if e.Flit != 0 {
			c.fail(e, rule, "flit %d of a packet opens the VC (want its head)", e.Flit)
		}
		run = vcRun{pkt: e.Packet, next: 0}
	} else if run.pkt != e.Packet {
		c.fail(e, rule, "packet %d interleaves with packet %d (at its flit %d)", e.Packet, run.pkt, run.next)
	}
	if e.Flit != run.next {
		c.fail(e, rule, "flit %d out of order (want %d)", e.Flit, run.next)
	}
	run.next++
	if pk != nil && run.next == pk.size {
		run = vcRun{pkt: -1}
	}
	m[k] = run
}

// Event checks one event. Events must come in the order the simulator emits them.
func (c *Checker) Event(e sim.Event) {
	if c.err != nil {
		return
	}
	c.r.Events++
	if e.Kind != sim.Generate && e.Kind != sim.Credit {
		if _, ok := c.pkts[e.Packet]; !ok {
			c.fail(e, "accounting", "packet never generated")
			return
		}
	}
	switch e.Kind {
	case sim.Generate:
		if _, dup := c.pkts[e.Packet]; dup {
			c.fail(e, "accounting", "packet generated twice")
		}
		if e.Flit < 1 {
			c.fail(e, "accounting", "packet of %d flits", e.Flit)
		}
		c.pkts[e.Packet] = &pkt{size: e.Flit, dst: e.Dst}
		c.r.Generated++
	case sim.Inject:
		k := vcKey{e.Node, -1 - e.InPort, e.VC}
		n := c.credits(k) - 1
		if n < 0 {
			c.fail(e, "credits", "source injects with no credit")
		}
		c.cred[k] = n
		pc := portCycle{e.Node, e.InPort, e.Cycle}
		if c.inj[pc] {
			c.fail(e, "channel", "two flits injected into one port in one cycle")
		}
		c.inj[pc] = true
		c.pass(c.out, k, e, "order")
	case sim.Arrive:
		k := vcKey{e.Node, e.Port, e.VC}
		c.occ[k]++
		if c.occ[k] > c.p.Buf {
			c.fail(e, "buffer", "%d flits in a buffer of %d", c.occ[k], c.p.Buf)
		}
		c.pass(c.in, k, e, "order")
		if up, ok := c.back[[2]int32{e.Node, e.Port}]; ok {
			q := c.links[up]
			if len(q) == 0 {
				c.fail(e, "link", "a flit arrives that was never sent on the link")
				return
			}
			f := q[0]
			c.links[up] = q[1:]
			if f.pkt != e.Packet || f.flit != e.Flit || f.vc != e.VC {
				c.fail(e, "link", "arrives as packet %d flit %d vc %d, sent as packet %d flit %d vc %d", e.Packet, e.Flit, e.VC, f.pkt, f.flit, f.vc)
			}
			if c.p.Hop > 0 && e.Cycle-f.cycle != c.p.Hop {
				c.fail(e, "link", "crossed in %d cycles, want %d", e.Cycle-f.cycle, c.p.Hop)
			}
		}
	case sim.Send:
		ik := vcKey{e.Node, e.InPort, e.InVC}
		c.occ[ik]--
		if c.occ[ik] < 0 {
			c.fail(e, "buffer", "a flit leaves an empty buffer")
		}
		eject := int(e.Port) == c.net.Ports(int(e.Node))
		pc := portCycle{e.Node, e.Port, e.Cycle}
		if c.sent[pc] && !(eject && c.p.EjectAll) {
			c.fail(e, "channel", "two flits on one output port in one cycle")
		}
		c.sent[pc] = true
		c.r.FlitsSent++
		k := vcKey{e.Node, e.Port, e.VC}
		if eject {
			if e.Node != c.pkts[e.Packet].dst {
				c.fail(e, "delivery", "ejected at node %d, destination %d", e.Node, c.pkts[e.Packet].dst)
			}
			if !c.p.EjectAll {
				c.pass(c.out, k, e, "order")
			}
			return
		}
		n := c.credits(k) - 1
		if n < 0 {
			c.fail(e, "credits", "flit sent with no credit")
		}
		c.cred[k] = n
		c.pass(c.out, k, e, "order")
		l := [2]int32{e.Node, e.Port}
		c.links[l] = append(c.links[l], inflight{pkt: e.Packet, flit: e.Flit, vc: e.VC, cycle: e.Cycle})
	case sim.Credit:
		k := vcKey{e.Node, e.Port, e.VC}
		if e.Port < 0 {
			k = vcKey{e.Node, -1 - e.InPort, e.VC}
		}
		n := c.credits(k) + 1
		if n > c.p.Buf {
			c.fail(e, "credits", "%d credits for a buffer of %d", n, c.p.Buf)
		}
		c.cred[k] = n
		c.r.Credits++
	case sim.Deliver:
		pk := c.pkts[e.Packet]
		if e.Node != pk.dst {
			c.fail(e, "delivery", "delivered at node %d, destination %d", e.Node, pk.dst)
		}
		if e.Flit != pk.next {
			c.fail(e, "delivery", "flit %d delivered, want %d", e.Flit, pk.next)
		}
		pk.next++
		c.r.FlitsDelivered++
		if pk.next == pk.size {
			c.r.Delivered++
			delete(c.pkts, e.Packet)
		}
	case sim.Route, sim.Grant:
		// routing and VC allocation move no flit: the packet must be known (above)
	default:
		c.fail(e, "trace", "unknown event kind %d", e.Kind)
	}
	// drop per-cycle marks of past cycles now and then
	if c.r.Events%(1<<16) == 0 {
		for k := range c.sent {
			if k.cycle < e.Cycle {
				delete(c.sent, k)
			}
		}
		for k := range c.inj {
			if k.cycle < e.Cycle {
				delete(c.inj, k)
			}
		}
	}
}

// Finish returns the report and the first violation found (nil when none).
func (c *Checker) Finish() (Report, error) {
	c.r.InFlight = c.r.Generated - c.r.Delivered
	if c.err != nil {
		return c.r, c.err
	}
	return c.r, nil
}
