package sim

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Random streams: one PCG source per purpose, so that changing one policy does not
// shift the draws of another.
const (
	streamArrive = iota + 1
	streamDest
	streamSize
	streamRoute
	streamSelect
	streamArb
)

// flit is one flit in a buffer or on a link: its packet (index into packets) and
// its position in the packet, with tailBit set on the packet's last flit (so a
// traversal need not read the packet to know a tail). A flit in a buffer has
// arrived: it is written in the cycle it arrives (receive, inject), before any
// allocation of that cycle.
type flit struct {
	pkt int32
	pos uint32
}

const tailBit = 1 << 31

// seq is the flit's position in its packet (0 the head).
func (f flit) seq() int32 { return int32(f.pos &^ tailBit) }

// tail reports whether the flit is its packet's last.
func (f flit) tail() bool { return f.pos&tailBit != 0 }

// packet is a packet's state from generation to delivery.
type packet struct {
	h     Header
	id    int64
	gen   int64
	size  int32
	path  []int32 // fixed output ports, one per hop (nil: routed)
	sent  int32   // flits the source has injected
	got   int32   // flits delivered
	hops  []int64 // head arrival cycles per link (batches that record them)
	batch int32   // index in a batch, -1 in open loop
	steer []Hop   // preferred VC per hop (batches that replay a configuration)
}

// Input VC states.
const (
	vcIdle   uint8 = iota // no packet routed at the front
	vcWait                // routed, waiting for an output VC
	vcActive              // holds an output VC
)

type evKind uint8

const (
	evFlit    evKind = iota // flit written into input VC idx
	evCredit                // credit for output VC idx
	evSrc                   // credit for source injection VC idx (node*V+v)
	evDeliver               // flit consumed at node idx
)

type event struct {
	kind evKind
	idx  int32
	f    flit
}

// engine is the state of one simulated network. Global numbering: router r's input
// ports are inBase[r] .. inBase[r+1]-1, the last its injection port; its output
// ports outBase[r] .. outBase[r+1]-1, the last its ejection port. Input VC iv =
// port*V + v over global input ports; output VC ov likewise over output ports.
type engine struct {
	cfg  *Config
	V, B int32
	// vShift is log2 V when V is a power of two, else -1: port divides by a
	// shift then (the hot paths divide VC numbers by V once per flit or bid).
	vShift int32
	p      Pipeline
	t      int64

	nodes   int
	inBase  []int32
	outBase []int32
	inRtr   []int32 // global input port -> router
	outRtr  []int32 // global output port -> router
	inPrev  []int32 // global input port -> global output port feeding it (-1: injection)
	outNext []int32 // global output port -> global input port it feeds (-1: ejection)
	terms   []int32 // terminal nodes

	// input VCs
	buf     []flit
	vcHead  []int32
	vcN     []int32
	vcState []uint8
	vcReady []int64
	vcOut   []int32
	choices [][]Choice

	// busy has bit v of input port p set iff input VC p*V+v holds a flit (V <= 64):
	// switch allocation visits only those VCs.
	busy []uint64
	// portBusy has bit i of router r set iff its input port inBase[r]+i has a busy
	// VC (at most 63 input ports): switch allocation visits only those ports.
	portBusy []uint64
	// unrouted holds the input VCs with an unrouted head at the front (vcIdle and
	// a flit), waiting those waiting for an output VC (vcWait): route and allocVCs
	// visit only these (few VCs, most cycles, only stream bodies), and no VC
	// whose test would be an unpredictable branch.
	unrouted, waiting vcSet

	// output VCs
	ovOwner  []int32
	ovCredit []int32
	chanUse  []int64 // flits sent per global output port

	inArb  []Arbiter // per input port, over its VCs
	outArb []Arbiter // per output port, over the router's input ports
	ovArb  []Arbiter // per output VC, over the router's input VCs
	// flat tells that cfg.Arbiter is a flatArbitration (arb_flat.go) of rule
	// rule: then inState and outState are the states of the input and output
	// arbiters (inArb and outArb unused) and switch allocation picks from bit
	// masks.
	flat              bool
	rule              flatRule
	inState, outState []int32

	// events: a timing wheel of a power of two cycles above the longest delay an
	// event can have (wheelLen): few slots, so the slots' events stay in cache
	wheel     [][]event
	wheelMask int64

	// routers holding flits
	load    []int32
	active  []int32
	isAct   []bool
	scratch []int32

	// sources: one queue per injection port (queue q feeds global input port
	// injIn[q]; inQ maps an input port back to its queue, -1 for network ports)
	injIn     []int32
	injNode   []int32
	inQ       []int32
	firstQ    []int32   // per node: its first queue
	srcQ      [][]int32 // packet indices waiting, FIFO from srcQHead
	srcQHead  []int32
	srcCur    []int32 // packet being injected (-1 none)
	srcVC     []int32
	srcRR     []int32
	srcCredit []int32 // per q*V+v
	srcOut    []int32 // per node: its packets in the network
	srcAct    []int32
	srcIsAct  []bool
	limit     int32 // injection limitation (0: none)

	packets []packet
	free    []int32
	nextID  int64

	inNet     int64 // flits injected and not delivered
	delivered int64 // packets delivered whole
	lastMove  int64

	rRoute, rSelect, rArb *rand.Rand

	// scratch for allocation
	reqs      [][]Request // per local output port or output VC
	pick      []int32     // per local input port: VC picked by its input arbiter
	omask     []uint64    // per local output port: the input ports whose pick asks for it
	touch     []int32
	cands     []Candidate
	ireqs     []Request
	grants    []latchGrant
	gidx      []int32 // input VC -> its grant this cycle (Latch), -1
	order     []int32
	onDeliver func(pk *packet, t int64) // tail delivered
	gen       func()                    // open-loop arrivals of this cycle
}

func newEngine(cfg *Config) (*engine, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.Select == nil {
		cfg.Select = FirstFree{}
	}
	if cfg.Arbiter == nil {
		cfg.Arbiter = RoundRobin{}
	}
	if cfg.DeadlockCycles == 0 {
		cfg.DeadlockCycles = 1000
	}
	net := cfg.Net
	n := net.Nodes()
	e := &engine{cfg: cfg, V: int32(cfg.VCs), B: int32(cfg.Buf), p: cfg.Pipeline, nodes: n}
	e.inBase = make([]int32, n+1)
	e.outBase = make([]int32, n+1)
	maxPorts := 0
	nInj := func(r int) int {
		if cfg.InjectPerPort {
			return max(1, net.Ports(r))
		}
		return 1
	}
	for r := range n {
		e.inBase[r+1] = e.inBase[r] + int32(net.InPorts(r)+nInj(r))
		e.outBase[r+1] = e.outBase[r] + int32(net.Ports(r)) + 1
		maxPorts = max(maxPorts, net.InPorts(r)+nInj(r), net.Ports(r)+1)
		if net.Terminal(r) {
			e.terms = append(e.terms, int32(r))
		}
	}
	nin, nout := int(e.inBase[n]), int(e.outBase[n])
	e.inRtr = make([]int32, nin)
	e.outRtr = make([]int32, nout)
	e.inPrev = make([]int32, nin)
	e.outNext = make([]int32, nout)
	for i := range e.inPrev {
		e.inPrev[i] = -1
	}
	for r := range n {
		for i := e.inBase[r]; i < e.inBase[r+1]; i++ {
			e.inRtr[i] = int32(r)
		}
		for o := e.outBase[r]; o < e.outBase[r+1]; o++ {
			e.outRtr[o] = int32(r)
			e.outNext[o] = -1
		}
		for p := range net.Ports(r) {
			next, in := net.Link(r, p)
			if next < 0 {
				continue
			}
			o := e.outBase[r] + int32(p)
			i := e.inBase[next] + int32(in)
			e.outNext[o] = i
			e.inPrev[i] = o
		}
	}
	V, B := int(e.V), int(e.B)
	e.vShift = -1
	if V&(V-1) == 0 {
		e.vShift = int32(bits.TrailingZeros(uint(V)))
	}
	e.buf = make([]flit, nin*V*B)
	e.vcHead = make([]int32, nin*V)
	e.vcN = make([]int32, nin*V)
	e.busy = make([]uint64, nin)
	e.portBusy = make([]uint64, n)
	e.unrouted = vcSet{vcs: make([]uint64, nin), ports: make([]uint64, n)}
	e.waiting = vcSet{vcs: make([]uint64, nin), ports: make([]uint64, n)}
	e.vcState = make([]uint8, nin*V)
	e.vcReady = make([]int64, nin*V)
	e.vcOut = make([]int32, nin*V)
	e.choices = make([][]Choice, nin*V)
	e.ovOwner = make([]int32, nout*V)
	e.ovCredit = make([]int32, nout*V)
	e.chanUse = make([]int64, nout)
	for i := range e.ovOwner {
		e.ovOwner[i] = -1
		e.ovCredit[i] = int32(B)
	}
	arb := rand.New(rand.NewPCG(cfg.Seed, streamArb))
	e.rArb = arb
	e.inArb = make([]Arbiter, nin)
	for i := range e.inArb {
		e.inArb[i] = cfg.Arbiter.NewArbiter(V, arb)
	}
	e.outArb = make([]Arbiter, nout)
	e.ovArb = make([]Arbiter, nout*V)
	for o := range e.outArb {
		r := e.outRtr[o]
		ports := int(e.inBase[r+1] - e.inBase[r])
		e.outArb[o] = cfg.Arbiter.NewArbiter(ports, arb)
		for v := range V {
			e.ovArb[o*V+v] = cfg.Arbiter.NewArbiter(ports*V, arb)
		}
	}
	if f, ok := cfg.Arbiter.(flatArbitration); ok {
		e.flat, e.rule = true, f.flatRule()
		e.inState = make([]int32, nin)
		e.outState = make([]int32, nout)
	}
	e.wheel = make([][]event, wheelLen(cfg.Pipeline))
	e.wheelMask = int64(len(e.wheel) - 1)
	e.load = make([]int32, n)
	e.isAct = make([]bool, n)
	e.inQ = make([]int32, nin)
	e.firstQ = make([]int32, n)
	for i := range e.inQ {
		e.inQ[i] = -1
	}
	for r := range n {
		e.firstQ[r] = int32(len(e.injIn))
		for k := range nInj(r) {
			in := e.inBase[r] + int32(net.InPorts(r)+k)
			e.inQ[in] = int32(len(e.injIn))
			e.injIn = append(e.injIn, in)
			e.injNode = append(e.injNode, int32(r))
		}
	}
	nq := len(e.injIn)
	e.srcQ = make([][]int32, nq)
	e.srcQHead = make([]int32, nq)
	e.srcCur = make([]int32, nq)
	e.srcVC = make([]int32, nq)
	e.srcRR = make([]int32, nq)
	e.srcCredit = make([]int32, nq*V)
	e.srcOut = make([]int32, n)
	e.srcIsAct = make([]bool, nq)
	for i := range e.srcCur {
		e.srcCur[i] = -1
	}
	for i := range e.srcCredit {
		e.srcCredit[i] = int32(B)
	}
	e.rRoute = rand.New(rand.NewPCG(cfg.Seed, streamRoute))
	e.rSelect = rand.New(rand.NewPCG(cfg.Seed, streamSelect))
	e.reqs = make([][]Request, maxPorts*V)
	e.pick = make([]int32, maxPorts)
	e.omask = make([]uint64, maxPorts)
	e.gidx = make([]int32, nin*V)
	for i := range e.gidx {
		e.gidx[i] = -1
	}
	e.bindRouting()
	return e, nil
}

// wheelLen is the length of the event wheel for pipeline p: the least power of
// two above every delay schedule is given (Inject, Credit, the source's credit
// 1, SwAlloc + Traverse + Link and + Eject), so that the events of one slot are
// due in the same cycle and kept in the order they were scheduled.
func wheelLen(p Pipeline) int {
	d := max(1, p.Inject, p.Credit, p.SwAlloc+p.Traverse+max(p.Link, p.Eject))
	n := 1
	for n <= d {
		n *= 2
	}
	return n
}

// schedule puts an event d >= 1 cycles ahead (d < len(wheel)).
func (e *engine) schedule(d int64, ev event) {
	w := &e.wheel[(e.t+d)&e.wheelMask]
	*w = append(*w, ev)
}

func (e *engine) trace(ev Event) {
	ev.Cycle = e.t
	e.cfg.Trace(ev)
}

// newPacket creates a packet at src for dst and queues it at the source.
func (e *engine) newPacket(src, dst int32, size int32, path []int32, batch int32) int32 {
	var i int32
	if k := len(e.free); k > 0 {
		i = e.free[k-1]
		e.free = e.free[:k-1]
	} else {
		e.packets = append(e.packets, packet{})
		i = int32(len(e.packets) - 1)
	}
	pk := &e.packets[i]
	*pk = packet{id: e.nextID, gen: e.t, size: size, path: path, batch: batch,
		h: Header{Src: src, Dst: dst, Port: -1, InPort: -1, VC: -1}}
	e.nextID++
	if path == nil && e.cfg.Routing != nil {
		e.cfg.Routing.Start(&pk.h, e.rRoute)
	}
	q := e.firstQ[src]
	if e.cfg.InjectPerPort && len(path) > 0 {
		q += path[0]
	}
	e.srcQ[q] = append(e.srcQ[q], i)
	if !e.srcIsAct[q] {
		e.srcIsAct[q] = true
		e.srcAct = append(e.srcAct, q)
	}
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Generate, Node: src, Dst: dst, Packet: pk.id, Flit: size, Port: -1, VC: -1, InPort: -1, InVC: -1})
	}
	return i
}

func (e *engine) activate(r int32) {
	if !e.isAct[r] {
		e.isAct[r] = true
		e.active = append(e.active, r)
	}
}

// write puts f into input VC iv (the flit has arrived).
func (e *engine) write(iv int32, f flit) {
	n := e.vcN[iv]
	if n >= e.B {
		panic(fmt.Sprintf("sim: buffer overflow at input VC %d (a credit bug)", iv))
	}
	slot := e.vcHead[iv] + n // the ring's free slot: head < B and n < B
	if slot >= e.B {
		slot -= e.B
	}
	e.buf[int(iv)*int(e.B)+int(slot)] = f
	e.vcN[iv] = n + 1
	port := e.port(iv)
	r := e.inRtr[port]
	if n == 0 {
		if e.busy[port] == 0 {
			e.portBusy[r] |= 1 << uint(port-e.inBase[r])
		}
		e.busy[port] |= 1 << uint(iv-port*e.V)
	}
	e.load[r]++
	if n == 0 && e.vcState[iv] == vcIdle {
		e.unrouted.add(r, port-e.inBase[r], port, iv-port*e.V)
	}
	e.activate(r)
	pk := &e.packets[f.pkt]
	if f.seq() == 0 && pk.hops != nil && e.inPrev[port] >= 0 {
		pk.hops = append(pk.hops, e.t)
	}
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Arrive, Node: r, Port: port - e.inBase[r], VC: iv % e.V, Packet: pk.id, Flit: f.seq(), Dst: pk.h.Dst, InPort: -1, InVC: -1})
	}
}

// vcSet is a set of input VCs as bit masks on two levels: vcs[p] has bit v set
// iff VC p*V+v is in the set, ports[r] bit i iff vcs[inBase[r]+i] is not 0.
// Visiting ports[r]'s bits, then vcs' of each port, gives the set's VCs of router
// r in increasing order.
type vcSet struct{ vcs, ports []uint64 }

// add puts VC v of input port in (number i at router r) into the set.
func (s *vcSet) add(r, i, in, v int32) {
	s.vcs[in] |= 1 << uint(v)
	s.ports[r] |= 1 << uint(i)
}

// remove takes VC v of input port in (number i at router r) out of the set.
func (s *vcSet) remove(r, i, in, v int32) {
	if s.vcs[in] &^= 1 << uint(v); s.vcs[in] == 0 {
		s.ports[r] &^= 1 << uint(i)
	}
}

// port is the port of VC x (input or output), x / V.
func (e *engine) port(x int32) int32 {
	if e.vShift >= 0 {
		return x >> (uint(e.vShift) & 31) // masked: one shift instruction
	}
	return x / e.V
}

func (e *engine) front(iv int32) *flit {
	return &e.buf[int(iv)*int(e.B)+int(e.vcHead[iv])]
}

// deliver consumes a flit at its destination.
func (e *engine) deliver(node int32, f flit) {
	pk := &e.packets[f.pkt]
	pk.got++
	e.inNet--
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Deliver, Node: node, Packet: pk.id, Flit: f.seq(), Dst: pk.h.Dst, Port: -1, VC: -1, InPort: -1, InVC: -1})
	}
	if pk.got == pk.size {
		e.delivered++
		e.srcOut[pk.h.Src]--
		if e.onDeliver != nil {
			e.onDeliver(pk, e.t)
		}
		if pk.batch < 0 {
			e.free = append(e.free, f.pkt)
		}
	}
}

// receive applies the events due this cycle: flits written into buffers, credits
// returned, flits consumed by sinks.
func (e *engine) receive() {
	slot := &e.wheel[e.t&e.wheelMask]
	for _, ev := range *slot {
		switch ev.kind {
		case evFlit:
			e.write(ev.idx, ev.f)
		case evCredit:
			e.ovCredit[ev.idx]++
			if e.cfg.Trace != nil {
				o := ev.idx / e.V
				r := e.outRtr[o]
				e.trace(Event{Kind: Credit, Node: r, Port: o - e.outBase[r], VC: ev.idx % e.V, Packet: -1, InPort: -1, InVC: -1})
			}
		case evSrc:
			e.srcCredit[ev.idx]++
			if e.cfg.Trace != nil {
				in := e.injIn[ev.idx/e.V]
				r := e.inRtr[in]
				e.trace(Event{Kind: Credit, Node: r, Port: -1, VC: ev.idx % e.V, Packet: -1, InPort: in - e.inBase[r], InVC: -1})
			}
		case evDeliver:
			e.deliver(ev.idx, ev.f)
		}
	}
	*slot = (*slot)[:0]
}

// inject moves one flit per source per cycle from its queue into its router's
// injection buffer: the head takes a VC with a credit, round-robin from the last
// one used; the packet's other flits follow on that VC as credits allow.
func (e *engine) inject() {
	keep := e.srcAct[:0]
	for _, s := range e.srcAct {
		e.injectFrom(s)
		if e.srcCur[s] >= 0 || int(e.srcQHead[s]) < len(e.srcQ[s]) {
			keep = append(keep, s)
		} else {
			e.srcIsAct[s] = false
			e.srcQ[s] = e.srcQ[s][:0]
			e.srcQHead[s] = 0
		}
	}
	e.srcAct = keep
}

func (e *engine) injectFrom(s int32) {
	V := e.V
	node := e.injNode[s]
	if e.srcCur[s] < 0 {
		if int(e.srcQHead[s]) >= len(e.srcQ[s]) {
			return
		}
		if e.limit > 0 && e.srcOut[node] >= e.limit {
			return
		}
		i := e.srcQ[s][e.srcQHead[s]]
		vc := int32(-1)
		for k := range V {
			v := (e.srcRR[s] + k) % V
			if e.srcCredit[s*V+v] > 0 {
				vc = v
				break
			}
		}
		if vc < 0 {
			return
		}
		e.srcQHead[s]++
		if int(e.srcQHead[s]) > 64 && int(e.srcQHead[s])*2 > len(e.srcQ[s]) {
			q := e.srcQ[s]
			m := copy(q, q[e.srcQHead[s]:])
			e.srcQ[s] = q[:m]
			e.srcQHead[s] = 0
		}
		e.srcCur[s] = i
		e.srcVC[s] = vc
		e.srcRR[s] = (vc + 1) % V
		e.srcOut[node]++
	}
	i := e.srcCur[s]
	pk := &e.packets[i]
	v := e.srcVC[s]
	if e.srcCredit[s*V+v] == 0 {
		return
	}
	// flit j of a packet generated in cycle g enters the buffer in cycle g+Inject+j
	// at the earliest: it leaves the source in cycle g+j (Inject = 0 puts it in the
	// buffer the same cycle).
	e.srcCredit[s*V+v]--
	f := flit{pkt: i, pos: uint32(pk.sent)}
	if pk.sent == pk.size-1 {
		f.pos |= tailBit
	}
	pk.sent++
	e.inNet++
	e.lastMove = e.t
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Inject, Node: node, VC: v, Packet: pk.id, Flit: f.seq(), Dst: pk.h.Dst, Port: -1, InPort: e.injIn[s] - e.inBase[node], InVC: -1})
	}
	iv := e.injIn[s]*V + v
	if d := int64(e.p.Inject); d == 0 {
		e.write(iv, f)
	} else {
		e.schedule(d, event{kind: evFlit, idx: iv, f: f})
	}
	if pk.sent == pk.size {
		e.srcCur[s] = -1
	}
}

// checkWork is the work between looks at the context: a cycle counts one plus
// the routers holding flits and the sources with packets it visits, so that a
// cancellation acts after at most checkWork units (a cycle of a large busy
// network is one look, an idle cycle of a small one a thousandth).
const checkWork = 1024

// run steps cycles until done reports true, the context ends or a deadlock is
// found. ctx is looked at before the first cycle and then by work (checkWork).
func (e *engine) run(ctx context.Context, done func() bool) error {
	work := checkWork
	for !done() {
		if work >= checkWork {
			if err := ctx.Err(); err != nil {
				return err
			}
			work = 0
		}
		work += 1 + len(e.active) + len(e.srcAct)
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

// step simulates one cycle: its phases in order.
func (e *engine) step() error {
	e.receive()
	if e.gen != nil {
		e.gen()
	}
	e.inject()
	if err := e.route(); err != nil {
		return err
	}
	if !e.cfg.Latch {
		e.allocVCs()
	}
	e.allocSwitch()
	e.retire()
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Tick, Node: -1, Port: -1, VC: -1, InPort: -1, InVC: -1, Packet: -1,
			Generated: e.nextID, Delivered: e.delivered, InNet: e.inNet})
	}
	if e.inNet > 0 && e.t-e.lastMove >= int64(e.cfg.DeadlockCycles) {
		return e.deadlock()
	}
	e.t++
	return nil
}

// retire drops routers that hold no flit from the active list.
func (e *engine) retire() {
	keep := e.active[:0]
	for _, r := range e.active {
		if e.load[r] > 0 {
			keep = append(keep, r)
		} else {
			e.isAct[r] = false
		}
	}
	e.active = keep
}
