package simcheck

import (
	"fmt"
	"slices"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Params are the simulated configuration's parameters the checker needs.
type Params struct {
	VCs, Buf int
	// EjectAll: destinations take any number of flits per cycle.
	EjectAll bool
	// Hop, when positive, is the exact number of cycles from a flit's Send on a
	// link to its Arrive at the far end; on a link whose latency the topology sets
	// (topology.Latency), Hop - Link + that latency (Link is the pipeline's link
	// delay).
	Hop, Link int64
	// Credit, when positive, is the exact number of cycles from a flit's Send out
	// of an input buffer fed by a link to the Credit of its slot upstream (a
	// source's credit takes one cycle; on a link of the topology's own latency,
	// Credit - Link + that latency, at least 1); a credit not back by then is
	// lost.
	// Leave it 0 for the theory model's latch, which returns credits at once.
	Credit int64
	// InjectLimit, when positive, bounds the packets of one source terminal in
	// the network: from its head's Inject to its tail's Deliver.
	InjectLimit int
	// Latencies keeps every delivered packet's latency (Report.Latencies).
	Latencies bool
}

// Latency is one delivered packet as the checker reconstructs it from the trace:
// its latency from generation to tail delivery, the links its head crossed, its
// size, and its delivery cycle.
type Latency struct {
	Packet                int64
	Src, Dst, Hops, Flits int32
	Generated, Delivered  int64
}

// Latency is Delivered - Generated.
func (l Latency) Latency() int64 { return l.Delivered - l.Generated }

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
	// Ticks is the number of cycles whose counts were compared with the
	// simulator's.
	Ticks int64
	// Latencies lists the delivered packets in delivery order (Params.Latencies).
	Latencies []Latency
}

type pkt struct {
	size, dst int32
	next      int32 // next flit to deliver
	src, hops int32
	from, to  int32 // source and destination terminals
	gen       int64
	in        bool // its head was injected and its tail not delivered
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
	tm    *topology.TerminalMap
	p     Params
	err   *Violation
	r     Report
	pkts  map[int64]*pkt
	cred  map[vcKey]int   // output VC credits (port -1-k: source of injection port k)
	occ   map[vcKey]int   // input VC occupancy
	outv  map[vcKey]vcRun // contiguity per output VC
	in    map[vcKey]vcRun // contiguity per input VC
	sent  map[portCycle]bool
	inj   map[portCycle]bool
	links map[[2]int32][]inflight // (node, out port) -> flits on the link
	back  map[[2]int32][2]int32   // (node, in port) -> (upstream node, out port)
	// due lists, per output VC (or source VC), the cycles its slots' credits are
	// due, oldest first (Params.Credit)
	due    map[vcKey][]int64
	out    map[int32]int // packets of a source terminal in the network
	early  map[vcKey]int // credits the latch returned before their flit left
	nEarly int
	flits  int64 // flits injected and not delivered
	cycle  int64 // the last Tick's cycle
	// routed holds, per input VC, the choices of the head routed at its front
	// and not yet granted; granted the output VC it was granted, until its
	// head leaves (the rule "grant")
	routed  map[vcKey]routedHead
	granted map[vcKey]grantedHead
}

type routedHead struct {
	pkt     int64
	choices []sim.Choice
}

type grantedHead struct {
	pkt      int64
	port, vc int32
}

// New returns a checker for net with p.
func New(net topology.Network, p Params) *Checker {
	c := &Checker{net: net, tm: topology.TerminalsOf(net), p: p, pkts: map[int64]*pkt{}, cred: map[vcKey]int{}, occ: map[vcKey]int{},
		outv: map[vcKey]vcRun{}, in: map[vcKey]vcRun{}, sent: map[portCycle]bool{}, inj: map[portCycle]bool{},
		links: map[[2]int32][]inflight{}, back: map[[2]int32][2]int32{}, due: map[vcKey][]int64{}, early: map[vcKey]int{}, out: map[int32]int{}, cycle: -1,
		routed: map[vcKey]routedHead{}, granted: map[vcKey]grantedHead{}}
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
	if e.Kind == sim.Tick {
		c.tick(e)
		return
	}
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
		if e.From < 0 || int(e.From) >= c.tm.Len() || e.To < 0 || int(e.To) >= c.tm.Len() {
			c.fail(e, "accounting", "terminals %d -> %d outside 0..%d", e.From, e.To, c.tm.Len()-1)
			return
		}
		if e.Node != c.tm.In[e.From] || e.Dst != c.tm.Out[e.To] {
			c.fail(e, "accounting", "generated at node %d for %d: terminal %d injects at %d, terminal %d ejects at %d", e.Node, e.Dst, e.From, c.tm.In[e.From], e.To, c.tm.Out[e.To])
		}
		c.pkts[e.Packet] = &pkt{size: e.Flit, dst: e.Dst, src: e.Node, gen: e.Cycle, from: e.From, to: e.To}
		c.r.Generated++
	case sim.Inject:
		// where several terminals inject at a router, each by its own port (a
		// router with one terminal may have one port per output port for a
		// batch's fixed paths, sim.Config.InjectPerPort)
		if pk := c.pkts[e.Packet]; c.tm.Injectors[e.Node] > 1 && int(e.InPort) != c.net.InPorts(int(e.Node))+int(c.tm.InPort[pk.from]) {
			c.fail(e, "delivery", "injected by input port %d, terminal %d's is %d", e.InPort, pk.from, c.net.InPorts(int(e.Node))+int(c.tm.InPort[pk.from]))
		}
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
		c.pass(c.outv, k, e, "order")
		c.flits++
		if e.Flit == 0 {
			pk := c.pkts[e.Packet]
			pk.in = true
			c.out[pk.from]++
			if c.p.InjectLimit > 0 && c.out[pk.from] > c.p.InjectLimit {
				c.fail(e, "inject-limit", "source terminal %d has %d packets in the network, limit %d", pk.from, c.out[pk.from], c.p.InjectLimit)
			}
		}
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
			want := c.p.Hop + c.slower(up)
			if c.p.Hop > 0 && e.Cycle-f.cycle != want {
				c.fail(e, "link", "crossed in %d cycles, want %d", e.Cycle-f.cycle, want)
			}
		}
	case sim.Send:
		ik := vcKey{e.Node, e.InPort, e.InVC}
		c.occ[ik]--
		if c.occ[ik] < 0 {
			c.fail(e, "buffer", "a flit leaves an empty buffer")
		}
		// the slot's credit is due upstream (or at the source)
		if up, ok := c.back[[2]int32{e.Node, e.InPort}]; ok {
			c.owe(vcKey{up[0], up[1], e.InVC}, e.Cycle+max(min(c.p.Credit, 1), c.p.Credit+c.slower(up)))
		} else if int(e.InPort) >= c.net.InPorts(int(e.Node)) {
			c.owe(vcKey{e.Node, -1 - e.InPort, e.InVC}, e.Cycle+1)
		}
		if e.Flit == 0 && int(e.Port) < c.net.Ports(int(e.Node)) {
			c.pkts[e.Packet].hops++
		}
		eject := int(e.Port) >= c.net.Ports(int(e.Node))
		pc := portCycle{e.Node, e.Port, e.Cycle}
		if c.sent[pc] && !(eject && c.p.EjectAll) {
			c.fail(e, "channel", "two flits on one output port in one cycle")
		}
		c.sent[pc] = true
		c.r.FlitsSent++
		k := vcKey{e.Node, e.Port, e.VC}
		if eject {
			pk := c.pkts[e.Packet]
			if e.Node != pk.dst {
				c.fail(e, "delivery", "ejected at node %d, destination %d", e.Node, pk.dst)
			}
			if want := c.net.Ports(int(e.Node)) + int(c.tm.OutPort[pk.to]); int(e.Port) != want {
				c.fail(e, "delivery", "ejected by port %d, terminal %d's is %d", e.Port, pk.to, want)
			}
			if !c.p.EjectAll {
				c.pass(c.outv, k, e, "order")
			}
			if e.Flit == 0 {
				c.leaves(ik, e)
			}
			return
		}
		if e.Flit == 0 {
			c.leaves(ik, e)
		}
		n := c.credits(k) - 1
		if n < 0 {
			c.fail(e, "credits", "flit sent with no credit")
		}
		c.cred[k] = n
		c.pass(c.outv, k, e, "order")
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
		if q := c.due[k]; len(q) == 0 {
			if c.p.Credit > 0 {
				c.fail(e, "credits", "a credit for a slot that no flit left")
			}
			// the latch returns a credit in the cycle before the flit's Send
			c.early[k]++
			c.nEarly++
		} else {
			if c.p.Credit > 0 && q[0] != e.Cycle {
				c.fail(e, "credits", "a credit due in cycle %d arrives in cycle %d", q[0], e.Cycle)
			}
			c.due[k] = q[1:]
		}
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
		c.flits--
		if pk.next == pk.size {
			c.r.Delivered++
			if pk.in {
				c.out[pk.from]--
			}
			if c.p.Latencies {
				c.r.Latencies = append(c.r.Latencies, Latency{Packet: e.Packet, Src: pk.src, Dst: pk.dst, Hops: pk.hops, Flits: pk.size, Generated: pk.gen, Delivered: e.Cycle})
			}
			delete(c.pkts, e.Packet)
		}
	case sim.Route:
		// a head at the front of an input VC gets its choices
		c.routed[vcKey{e.Node, e.InPort, e.InVC}] = routedHead{pkt: e.Packet, choices: slices.Clone(e.Choices)}
	case sim.Grant:
		c.grant(e)
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

// grant checks a Grant against the choices its head was routed with: the
// output port and VC must be one of them, and the VC below Params.VCs.
func (c *Checker) grant(e sim.Event) {
	k := vcKey{e.Node, e.InPort, e.InVC}
	r, ok := c.routed[k]
	if !ok || r.pkt != e.Packet {
		c.fail(e, "grant", "a head granted output port %d VC %d without being routed at its input VC", e.Port, e.VC)
		return
	}
	delete(c.routed, k)
	offered := false
	for _, ch := range r.choices {
		if ch.Port == int(e.Port) && e.VC >= 0 && e.VC < 64 && ch.VCs>>uint(e.VC)&1 == 1 {
			offered = true
		}
	}
	if !offered || e.VC < 0 || int(e.VC) >= c.p.VCs {
		c.fail(e, "grant", "granted output port %d VC %d, not among its choices %v (of %d VCs)", e.Port, e.VC, r.choices, c.p.VCs)
	}
	c.granted[k] = grantedHead{pkt: e.Packet, port: e.Port, vc: e.VC}
}

// leaves checks that a head sent from input VC k leaves by the output VC it
// was granted there.
func (c *Checker) leaves(k vcKey, e sim.Event) {
	g, ok := c.granted[k]
	if !ok || g.pkt != e.Packet {
		c.fail(e, "grant", "a head leaves by output port %d VC %d without a grant", e.Port, e.VC)
		return
	}
	delete(c.granted, k)
	if g.port != e.Port || g.vc != e.VC {
		c.fail(e, "grant", "a head leaves by output port %d VC %d, granted port %d VC %d", e.Port, e.VC, g.port, g.vc)
	}
}

// tick compares the simulator's counts at the end of a cycle with the checker's
// own (accounting: generated = delivered + in flight, in packets, and the flits
// injected and not delivered), and, with Params.Credit, looks for credits past
// their due cycle.
func (c *Checker) tick(e sim.Event) {
	if e.Cycle <= c.cycle {
		c.fail(e, "trace", "cycle %d ends after cycle %d", e.Cycle, c.cycle)
	}
	c.cycle = e.Cycle
	c.r.Ticks++
	if c.nEarly > 0 {
		c.fail(e, "credits", "a credit for a slot that no flit left in this cycle")
	}
	switch {
	case e.Generated != c.r.Generated:
		c.fail(e, "accounting", "the simulator counts %d packets generated, the trace %d", e.Generated, c.r.Generated)
	case e.Delivered != c.r.Delivered:
		c.fail(e, "accounting", "the simulator counts %d packets delivered, the trace %d", e.Delivered, c.r.Delivered)
	case e.InNet != c.flits:
		c.fail(e, "accounting", "the simulator counts %d flits in the network, the trace %d", e.InNet, c.flits)
	}
	if c.p.Credit > 0 && c.r.Ticks%64 == 0 {
		c.lateCredits(e)
	}
}

// owe records the credit of a slot just freed, due at cycle at upstream output
// VC k, unless the latch returned it already in this cycle.
func (c *Checker) owe(k vcKey, at int64) {
	if c.early[k] > 0 {
		c.early[k]--
		c.nEarly--
		return
	}
	c.due[k] = append(c.due[k], at)
}

// lateCredits fails on a credit whose due cycle has passed.
func (c *Checker) lateCredits(e sim.Event) {
	for k, q := range c.due {
		if len(q) > 0 && q[0] < e.Cycle {
			e.Node, e.Port, e.VC = k.node, k.port, k.vc
			c.fail(e, "credits", "a credit due in cycle %d never arrived", q[0])
			return
		}
	}
}

// Finish returns the report and the first violation found (nil when none).
func (c *Checker) Finish() (Report, error) {
	c.r.InFlight = c.r.Generated - c.r.Delivered
	if c.err == nil && c.p.Credit > 0 && c.cycle >= 0 {
		c.lateCredits(sim.Event{Kind: sim.Tick, Cycle: c.cycle, Packet: -1})
	}
	if c.err != nil {
		return c.r, c.err
	}
	return c.r, nil
}

// FinishDrained is Finish for a trace that ends with the network drained (the
// trace of a batch that RunBatch delivered whole): every packet must be
// delivered, every credit count back to Buf and every buffer and link empty.
func (c *Checker) FinishDrained() (Report, error) {
	r, err := c.Finish()
	if err != nil {
		return r, err
	}
	c.drained()
	if c.err != nil {
		return c.r, c.err
	}
	return c.r, nil
}

// drained checks the state of an empty network: nothing in flight, every credit
// back.
func (c *Checker) drained() {
	at := sim.Event{Kind: sim.Tick, Cycle: c.cycle, Packet: -1}
	if c.r.InFlight != 0 {
		c.fail(at, "drained", "%d packets not delivered", c.r.InFlight)
		return
	}
	for k, n := range c.cred {
		if n != c.p.Buf {
			at.Node, at.Port, at.VC = k.node, k.port, k.vc
			c.fail(at, "drained", "%d credits of %d after the network emptied", n, c.p.Buf)
			return
		}
	}
	for k, n := range c.occ {
		if n != 0 {
			at.Node, at.Port, at.VC = k.node, k.port, k.vc
			c.fail(at, "drained", "%d flits left in a buffer after the network emptied", n)
			return
		}
	}
	for l, q := range c.links {
		if len(q) > 0 {
			at.Node, at.Port = l[0], l[1]
			c.fail(at, "drained", "%d flits left on a link after the network emptied", len(q))
			return
		}
	}
}

// slower is how many cycles longer than the pipeline's a link (node, output port)
// takes, flits and credits alike: its latency less Params.Link where the topology
// sets one, else 0.
func (c *Checker) slower(link [2]int32) int64 {
	if lat := topology.Latency(c.net, int(link[0]), int(link[1])); lat > 0 {
		return int64(lat) - c.p.Link
	}
	return 0
}
