package sim

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/wormlab/wormlab/topology"
)

// Random streams: one PCG source per purpose, so that changing one policy does not
// shift the draws of another; selection and arbitration have one per router
// (streamSelect + (r+1)<<8 for router r), so that a router's draws do not depend on
// the order routers are visited in, nor on how they are shared among threads.
const (
	streamArrive = iota + 1
	streamDest
	streamSize
	streamRoute
	streamSelect
	streamArb
)

// flit is one flit in a buffer or on a link, in 4 bytes: its packet (index into
// packets, below maxPackets) with headBit set on the packet's first flit and
// tailBit on its last (so neither a traversal nor an arrival need read the packet
// to know them). Its position in the packet is not kept: a trace finds it by
// counting (engine.flitSeq), as a VC carries its packets' flits in order. Four
// bytes, not eight: a VC of 8 flits fills half a cache line, and a flit on its way
// over a link is an 8-byte event. A flit in a buffer has arrived: it is written in
// the cycle it arrives (receive, inject), before any allocation of that cycle.
type flit uint32

const (
	tailBit = 1 << 31
	headBit = 1 << 30
	// maxPackets bounds the packet table (a packet's index has 30 bits)
	maxPackets = headBit
)

// homeSlots is the flits in one 64-byte cache line: the first line of a VC's ring
// (write keeps a VC holding fewer flits than this in it).
const homeSlots = 64 / 4

// flitOf is flit seq of packet pkt of size flits.
func flitOf(pkt, seq, size int32) flit {
	f := flit(pkt)
	if seq == 0 {
		f |= headBit
	}
	if seq == size-1 {
		f |= tailBit
	}
	return f
}

// pkt is the flit's packet.
func (f flit) pkt() int32 { return int32(f &^ (headBit | tailBit)) }

// head reports whether the flit is its packet's first.
func (f flit) head() bool { return f&headBit != 0 }

// tail reports whether the flit is its packet's last.
func (f flit) tail() bool { return f&tailBit != 0 }

// packet is a packet's state from generation to delivery, in two 64-byte lines
// (128 bytes: the packet table, a large allocation, starts on a page, so no
// record straddles a line): what routing and every flit's injection and
// delivery read in the first, what a delivered packet's record reads in the
// second. What only batches give a packet (a fixed path, steering, recorded
// hops) is apart, in engine.extra by its batch index.
type packet struct {
	h     Header
	size  int32
	sent  int32 // flits the source has injected
	got   int32 // flits delivered
	dt    int32 // destination terminal
	st    int32 // source terminal
	class int32 // its first hop's lowest VC (a class limit is set)
	id    int64
	gen   int64
	inj   int64 // the cycle its head left the source queue (open loop)
	batch int32 // index in a batch, -1 in open loop
	_     [64 - 3*8 - 4]byte
}

// batchExtra is what a batch's packet may carry beyond a routed packet's state.
type batchExtra struct {
	path  []int32 // fixed output ports, one per hop (nil: routed)
	steer []Hop   // preferred VC per hop (batches that replay a configuration)
	hops  []int64 // head arrival cycles per link (batches that record them)
}

// Input VC states.
const (
	vcIdle   uint8 = iota // no packet routed at the front
	vcWait                // routed, waiting for an output VC
	vcActive              // holds an output VC
)

// inVC is an input virtual channel: its buffer's ring (n flits from slot head)
// and its packet's state, the fields a flit's arrival, allocation and departure
// all touch, side by side in 16 bytes (four a cache line). The first cycle it may
// ask for its next allocation is apart (vcHead.ready): only heads read it.
type inVC struct {
	n, head int32
	// out is the output VC held (vcActive), or chosen for the switch (Latch);
	// op its output port's number at the router
	out   int32
	state uint8
	op    uint8
}

// inPort holds bit v for input VC v of an input port (V <= 64) in four masks:
// busy (it holds a flit), act (it holds an output VC, vcActive), cred (its output
// VC has a credit, or is an ejection VC) and wait (its ready cycle may be ahead:
// set by VC allocation, cleared lazily by switch allocation). A VC asks for the
// switch iff busy, act and cred and not still waiting, so switch allocation
// computes a port's bids from the masks and reads no VC that cannot bid. arb is
// the state of the port's switch arbiter when the arbitration is flat.
//
// The rest is what a flit's passage reads of the port, in one 64-byte record with
// its masks (one cache line a port where the array starts on a line, instead of a
// line per array; TestRecordLayout): rtr its router; prev
// the global output port feeding it (-1: an injection port), word where its
// credits go: the column of the word of the router at that end and of its credit
// delay in the credit wheel (wheel.col; its own word for an injection port), q its
// source queue (-1: a network port), dCred the cycles from a slot freed here to its
// credit upstream. ops has in byte v the output port (its number at the router)
// of the output VC VC v holds, for v below 8 (inVC.op, copied where the port's
// masks are: switch allocation reads a bidder's output with them, not from a line
// of its own).
type inPort struct {
	busy, act, cred, wait uint64
	arb                   int32
	rtr, prev, word, q    int32
	dCred                 int32
	ops                   [8]uint8
}

// outPort is a global output port: next the global input port it feeds (-1: an
// ejection port), word the column of the word of the router it feeds and of d in
// the link wheel (wheel.col; its own word for an ejection port), arb its switch
// arbiter's state (flat arbitrations), d the cycles from a switch grant to the
// flit's arrival beyond its link, free bit v set iff its VC v has no owner, use
// the flits it has sent. Side by side: a traversal reads them together.
type outPort struct {
	next, word, arb, d int32
	free               uint64
	use                int64
}

// outVC is an output VC: the input VC holding it (with none, negative: unowned)
// and its credits (the free slots of the buffer downstream), side by side as a
// credit reads both.
type outVC struct {
	owner, credit int32
}

// vcHead is what an input VC keeps of its front packet's head between routing
// and allocation, in one cache line a VC (a head's routing, its VC allocation and
// its first switch bid each touch this line and no other of these): its choices
// (route fills them, VC allocation reads them) with room for one choice (the
// deterministic routings' one) where ch points until a routing gives more (append
// then moves it to the heap, where it stays); ready, the first cycle it may ask
// for its next allocation (an output VC after routing, the switch after VC
// allocation). Whether VC allocation passes it by is apart, per input port
// (engine.passBy).
type vcHead struct {
	ch    []Choice
	own   [1]Choice
	ready int64
	_     [64 - 24 - 24 - 8]byte
}

// flitEv is a flit due to arrive: at input VC to (a link or injection) or to be
// consumed at node to (a delivery).
type flitEv struct {
	to int32
	f  flit
}

// wheel holds the events of one kind by the cycle they are due, by the 64-router
// word of the engine's router masks that the router they act on belongs to, and by
// their delay's class: a power of two slots above the kind's longest delay, each
// with a bucket per word and class, each bucket in the order the events were
// scheduled. A partition takes a word's events just before it visits that word's
// routers, class by class from the longest delay (taken in that order, the events
// of a slot are in the order they were scheduled, as an event of a longer delay
// was scheduled in an earlier cycle).
//
// A bucket's array moves on when it is taken: to the bucket of its class ahead
// cycles later (ahead: one more than the class's delay), which no event of the
// cycle taken can reach, and which the next cycle's events of that delay start.
// Those are then written into the array just read, in cache, instead of the
// slot's own, untouched since the wheel last came round. A class is one delay (a
// dragonfly's links: its local channels' and its global channels'; the last class
// takes the shortest delays when there are more than maxClasses): in one wheel the
// events of a short delay would be written into an array taken a long delay
// before (on the 1,056-terminal dragonfly, its 12-cycle local flits into arrays
// read 90 cycles earlier).
type wheel[T any] struct {
	slots [][]T // slot at&mask, column col: slots[(at&mask)*cols+col]
	mask  int64
	// cols is a slot's buckets, classes per word: the bucket of word w and class c
	// is column w*classes+c (col), which the ports keep (inPort.word, outPort.word)
	cols, classes int32
	// per class from the longest delay, its shortest delay and one more than its
	// longest (ahead)
	shortest, ahead [maxClasses]int32
	// ds is the delays the wheel was made for, rows[d] for each the address
	// of the slot of the cycle d after the one its partition runs (setAt):
	// put adds its column to it
	ds   []int32
	rows []unsafe.Pointer
}

// maxClasses bounds the delay classes of a wheel.
const maxClasses = 4

// newWheel is a wheel of n slots (a power of two) for the routers of words words,
// for events of the delays of delays (each below n; at least one).
func newWheel[T any](n, words int, delays []int) wheel[T] {
	ds := slices.Clone(delays)
	slices.Sort(ds)
	ds = slices.Compact(ds)
	slices.Reverse(ds) // longest first
	k := min(len(ds), maxClasses)
	w := wheel[T]{mask: int64(n - 1), cols: int32(words * k), classes: int32(k)}
	for i, d := range ds {
		c := min(i, k-1)
		w.shortest[c] = int32(d)
		w.ahead[c] = max(w.ahead[c], int32(d+1))
	}
	w.slots = make([][]T, n*int(w.cols))
	for _, d := range ds {
		w.ds = append(w.ds, int32(d))
	}
	w.rows = make([]unsafe.Pointer, slices.Max(ds)+1)
	w.setAt(0)
	return w
}

// setAt readies put for cycle t: rows[d] the address of the slot of cycle t+d,
// for each delay d of the wheel's.
func (w *wheel[T]) setAt(t int64) {
	for _, d := range w.ds {
		*elem(w.rows, int(d)) = unsafe.Pointer(elem(w.slots, int((t+int64(d))&w.mask)*int(w.cols)))
	}
}

// put schedules ev d cycles after the cycle of setAt in column col (col: its
// word's and its delay's; d one of the wheel's delays). From the slot's address
// setAt keeps, not from the cycle: no multiplication a put (torus:8x8 at 0.4,
// 559.9 instructions a flit-hop with it, 552.0 without).
func (w *wheel[T]) put(d int32, col int32, ev T) {
	s := (*[]T)(unsafe.Add(*elem(w.rows, int(d)), uintptr(col)*unsafe.Sizeof([]T(nil))))
	*s = append(*s, ev)
}

// col is the column of the bucket of word w for events of delay d (one the wheel
// was made for).
func (w *wheel[T]) col(word int32, d int32) int32 {
	c := int32(0)
	for d < w.shortest[c] {
		c++
	}
	return word*w.classes + c
}

// empty reports that no event is scheduled.
func (w *wheel[T]) empty() bool {
	for _, s := range w.slots {
		if len(s) > 0 {
			return false
		}
	}
	return true
}

// take returns the events of class c due in cycle at on the routers of word w and
// empties their bucket. The bucket of c ahead cycles later gets its array if it
// has none, else the bucket keeps it; either way no event is written into it
// before the cycle after at (a delay of c is below ahead; a block's words run at +
// 1 after at, and a word that ran it before, its events already there, leaves the
// array in place), so the slice stays valid for the cycle.
func (w *wheel[T]) take(at int64, word, c int) []T {
	cols, col := int(w.cols), word*int(w.classes)+c
	s := &w.slots[int(at&w.mask)*cols+col]
	evs := *s
	if next := &w.slots[int((at+int64(w.ahead[c&(maxClasses-1)]))&w.mask)*cols+col]; cap(*next) == 0 {
		*s, *next = nil, evs[:0]
	} else {
		*s = evs[:0]
	}
	return evs
}

// peek is the events of class c due in cycle at on the routers of word w, left
// in their bucket.
func (w *wheel[T]) peek(at int64, word, c int) []T {
	return w.slots[int(at&w.mask)*int(w.cols)+word*int(w.classes)+c]
}

// takeFar is take (of class c) on another partition's wheel, which its own thread may be
// filling at the same time (a block on several threads: block.go): the bucket
// keeps its array and the bucket ahead is left alone (it may be one that thread
// puts events in now), and an empty bucket is not written.
func (w *wheel[T]) takeFar(at int64, word, c int) []T {
	s := &w.slots[int(at&w.mask)*int(w.cols)+word*int(w.classes)+c]
	evs := *s
	if len(evs) > 0 {
		*s = evs[:0]
	}
	return evs
}

// takeBy is take on the wheel of the partition taking (own), else takeFar.
func (w *wheel[T]) takeBy(own bool, at int64, word, c int) []T {
	if own {
		return w.take(at, word, c)
	}
	return w.takeFar(at, word, c)
}

// source is one injection queue: the packets waiting at a node for an injection
// port, FIFO from head, and the one being injected.
type source struct {
	q        []int32 // packet indices
	head     int32
	cur      int32 // packet being injected (-1 none)
	vc, rr   int32 // its VC; where the next packet's search for a VC starts
	node, in int32 // the node and the global input port it feeds
}

// engine is the state of one simulated network. Global numbering: router r's input
// ports are inBase[r] .. inBase[r+1]-1, the last its injection port; its output
// ports outBase[r] .. outBase[r+1]-1, the last its ejection port. Input VC iv =
// port<<vs | v over global input ports; output VC ov likewise over output ports.
type engine struct {
	cfg  *Config
	V, B int32
	// VC numbers leave room for a power of two of VCs per port, 1 << vs >= V
	// (vm = 1<<vs - 1): the port of VC x is x >> vs and its number x & vm, no
	// division in the hot paths.
	vs uint8
	vm int32
	p  Pipeline
	t  int64
	// tracing: cfg.Trace is set; ejectAll: cfg.EjectAll; fixed: a packet has
	// had a fixed path or steering (batches), which routing then looks for in
	// extra (an open-loop run never does)
	tracing, ejectAll, fixed bool
	// extra is the fixed path, steering and recorded hops of a batch's packets,
	// by batch index
	extra []batchExtra
	// arrived and sent count per input VC (tracing only) the flits of its
	// current packet that arrived there and that left it (flitSeq)
	arrived, sent []int32

	nodes   int
	inBase  []int32
	outBase []int32
	outRtr  []int32 // global output port -> router
	nports  []int32 // router -> its network output ports (its ejection ports follow)

	// terminals (topology.TerminalsOf): per terminal the router it injects at, its
	// source queue, the router it ejects at and its ejection port there (counted
	// after the network ports); a batch's packets name routers, and take their
	// first terminals
	tIn, tQ, tOut, tEj []int32
	firstT, firstEj    []int32 // per router: its first terminal injecting, ejecting there (-1: none)

	// input VCs and ports
	buf []flit // a ring of B slots per input VC number, ring iv at iv*ring
	// ring is B rounded up to whole cache lines, plus one line where that would
	// be an even number of lines from four on: the rings' first lines (where
	// write keeps a VC's few flits) then fall in every cache set; at a power of
	// two (a dragonfly's 256 flits: 1 kB) they would all share 1/16 of the sets.
	ring int
	vc   []inVC
	// heads is per input VC what routing and allocation keep of its front
	// packet's head (vcHead)
	heads []vcHead
	in    []inPort
	// passBy has per input port bit v set iff its VC v holds a waiting head
	// that found none of the output VCs its choices allow free since the last
	// release of one of them. Only a release frees an output VC (with AtomicVC a
	// credit may too, and passBy is not used), so such a head would find none
	// again: VC allocation parks it, out of the waiting set (a router whose
	// waiting heads are all parked is not visited), and a release puts back
	// the parked heads of its router whose choices allow the VC released. A
	// parked head is never granted: VC allocation grants waiting heads, and
	// Latch, whose switch allocation grants VCs, has no VC allocation phase to
	// park one. parked has per router bit i set iff its input port
	// inBase[r]+i has parked heads (a release reads none of the masks of a
	// router without)
	passBy, parked []uint64

	// portBusy has bit i of router r set iff its input port inBase[r]+i has a busy
	// VC (at most 63 input ports): switch allocation visits only those ports, and a
	// router holds a flit iff its word is not 0.
	portBusy []uint64
	// unrouted holds the input VCs with an unrouted head at the front (vcIdle and
	// a flit), waiting those waiting for an output VC (vcWait): route and allocVCs
	// visit only these (few VCs, most cycles, only stream bodies), and no VC
	// whose test would be an unpredictable branch.
	unrouted, waiting vcSet

	// output ports and VCs (own and release keep an output VC's owner and its
	// port's free mask)
	out []outPort
	ov  []outVC

	inArb  []Arbiter // per input port, over its VCs
	outArb []Arbiter // per output port, over the router's input ports
	ovArb  []Arbiter // per output VC, over the router's input VCs
	// flat tells that cfg.Arbiter is a flatArbitration (arb_flat.go) of rule
	// rule: then in[].arb and out[].arb are the states of the input and output
	// arbiters (inArb and outArb unused) and switch allocation picks from bit
	// masks.
	flat    bool
	rule    flatRule
	ovState []int32 // per output VC, its VC allocation arbiter's (flat)
	// swin is cfg.SwitchInput unless wormlab's inline default (nil), inOut
	// then per input port its pointer over the router's output ports
	swin  SwitchInput
	inOut []int32
	// the delay of a flit into its sink (the delays to the next buffer and of
	// credits upstream are the ports' own, out[].d and in[].dCred: the
	// pipeline's or a link latency the topology sets)
	dEject int64
	// ejecting is cfg.Routing when it restricts the ejection VCs (Ejecting)
	ejecting Ejecting

	// the partitions (part.go): their routers, events, sources and scratch;
	// wordPart the partition of each 64-router word; multi: more than one.
	// bar runs a section on the partitions' goroutines (barrier.go; a
	// pointer: a block copies the engine for each partition, part.view).
	parts    []*part
	wordPart []int32
	multi    bool
	bar      *barrier
	// injectFirst: of the writes due in one cycle the injected ones go first
	// (they were scheduled earlier, or in the same cycle's earlier phase)
	injectFirst bool
	// recordHops: some packet records its head's arrivals (batches)
	recordHops bool
	// sensing: the routing reads the network's state (Sensing), so each cycle
	// runs phase by phase over all routers (part.go's cycle)
	sensing bool
	// sections: one cycle's sections, nil for a join (chooseCycle, once a run)
	sections []func(*part)
	// words: blockWords, a block's section (chooseCycle); claims shares a
	// block's words among the partitions' threads (block.go)
	words  func(*part)
	claims *claims

	// busyRtr has bit r%64 of word r/64 set iff router r holds a flit (portBusy[r]
	// is not 0): each phase visits its routers in increasing order; srcRtr iff a
	// source queue of router r holds a packet
	busyRtr, srcRtr []uint64

	// sources: one queue per injection port (src[q] feeds global input port
	// src[q].in; in[].q maps an input port back to its queue, -1 for network ports)
	src []source
	// srcOn[q] tells that source q holds a packet (its router's bit in srcRtr
	// is set): apart from the sources, one byte each, so that injection visits
	// a router's sources reading one line, not one line a source (a
	// dragonfly's router feeds p = 4 of them)
	srcOn     []bool
	firstQ    []int32 // per node: its first queue
	srcCredit []int32 // per q<<vs | v
	srcOut    []int32 // per terminal: its packets in the network
	limit     int32   // injection limitation (0: none)
	// classLimit: a source starts a packet only while fewer than classLimit input
	// VCs of its router with the packet's class number hold a flit (0: none)
	classLimit int32
	classCh    []Choice // scratch for the first hop's choices

	packets []packet
	free    []int32
	nextID  int64

	inNet     int64 // flits injected and not delivered
	delivered int64 // packets delivered whole
	lastMove  int64

	rRoute        *rand.Rand
	rSelect, rArb []*rand.Rand // per router
	// rotate is a RotatingSelector's pointer per input VC, rsel that selector
	// (both nil for other selectors)
	rotate []int32
	rsel   RotatingSelector

	// latch's grants of the cycle
	grants    []latchGrant
	gidx      []int32 // input VC -> its grant this cycle (Latch), -1
	order     []int32
	onDeliver func(pk *packet, t int64) // tail delivered
	gen       func()                    // open-loop arrivals of this cycle
	ahead     *lookahead                // lets the run take blocks of cycles (block.go)
	partial   *partialLook              // looks for a deadlock of part of the network (deadlock.go; nil: none)
	// warmOn: a word's state is loaded ahead of its cycle (warm)
	warmOn bool
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
	e := &engine{cfg: cfg, V: int32(cfg.VCs), B: int32(cfg.Buf), p: cfg.Pipeline, nodes: n,
		tracing: cfg.Trace != nil, ejectAll: cfg.EjectAll}
	e.inBase = make([]int32, n+1)
	e.outBase = make([]int32, n+1)
	maxPorts := 0
	tm := topology.TerminalsOf(net)
	nInj := func(r int) int {
		_, _, inj := nodePorts(net, tm, r, cfg.InjectPerPort)
		return inj
	}
	e.nports = make([]int32, n)
	for r := range n {
		in, out, _ := nodePorts(net, tm, r, cfg.InjectPerPort)
		e.nports[r] = int32(net.Ports(r))
		e.inBase[r+1] = e.inBase[r] + int32(in)
		e.outBase[r+1] = e.outBase[r] + int32(out)
		maxPorts = max(maxPorts, in, out)
	}
	nin, nout := int(e.inBase[n]), int(e.outBase[n])
	inRtr := make([]int32, nin)
	e.outRtr = make([]int32, nout)
	inPrev := make([]int32, nin)
	outNext := make([]int32, nout)
	for i := range inPrev {
		inPrev[i] = -1
	}
	for r := range n {
		for i := e.inBase[r]; i < e.inBase[r+1]; i++ {
			inRtr[i] = int32(r)
		}
		for o := e.outBase[r]; o < e.outBase[r+1]; o++ {
			e.outRtr[o] = int32(r)
			outNext[o] = -1
		}
		for p := range net.Ports(r) {
			next, in := net.Link(r, p)
			if next < 0 {
				continue
			}
			o := e.outBase[r] + int32(p)
			i := e.inBase[next] + int32(in)
			outNext[o] = i
			inPrev[i] = o
		}
	}
	V, B := int(e.V), int(e.B)
	e.vs = uint8(bits.Len(uint(V - 1)))
	e.vm = 1<<e.vs - 1
	S := 1 << e.vs
	e.ring = ringLen(B)
	e.buf = makeHuge[flit](nin * S * e.ring)
	e.vc = makeHuge[inVC](nin * S)
	e.heads = makeHuge[vcHead](nin * S)
	for i := range e.heads {
		h := &e.heads[i]
		h.ch = h.own[:0:len(h.own)]
	}
	if e.tracing {
		e.arrived, e.sent = make([]int32, nin*S), make([]int32, nin*S)
	}
	p := cfg.Pipeline
	e.in = makeHuge[inPort](nin)
	e.passBy, e.parked = make([]uint64, nin), make([]uint64, n)
	inWord := farWords(inPrev, e.outRtr, inRtr)
	for i := range e.in {
		e.in[i] = inPort{rtr: inRtr[i], prev: inPrev[i], word: inWord[i], q: -1, dCred: int32(p.Credit)}
	}
	e.out = makeHuge[outPort](nout)
	outWord := farWords(outNext, inRtr, e.outRtr)
	for o := range e.out {
		e.out[o] = outPort{next: outNext[o], word: outWord[o], d: int32(p.SwAlloc + p.Traverse + p.Link), free: allVCs(e.V)}
	}
	e.portBusy = make([]uint64, n)
	e.busyRtr = make([]uint64, (n+63)/64)
	e.srcRtr = make([]uint64, (n+63)/64)
	e.unrouted = newVCSet(nin, n)
	e.waiting = newVCSet(nin, n)
	e.ov = makeHuge[outVC](nout * S)
	for i := range e.ov {
		e.ov[i] = outVC{owner: e.unowned(int32(i)), credit: int32(B)}
	}
	// each router's selection and arbitration draw from streams of their own,
	// so that routers may run on several threads in any order
	e.rSelect = make([]*rand.Rand, n)
	e.rArb = make([]*rand.Rand, n)
	for r := range n {
		e.rSelect[r] = rand.New(rand.NewPCG(cfg.Seed, streamSelect+uint64(r+1)<<8))
		e.rArb[r] = rand.New(rand.NewPCG(cfg.Seed, streamArb+uint64(r+1)<<8))
	}
	if rs, ok := cfg.Select.(RotatingSelector); ok {
		e.rotate, e.rsel = make([]int32, nin*S), rs
	}
	f, flat := cfg.Arbiter.(flatArbitration)
	if !flat {
		// switch arbiters (a flat arbitration keeps numbers instead)
		e.inArb = make([]Arbiter, nin)
		for i := range e.inArb {
			e.inArb[i] = cfg.Arbiter.NewArbiter(V, e.rArb[inRtr[i]])
		}
		e.outArb = make([]Arbiter, nout)
		for o := range e.outArb {
			r := e.outRtr[o]
			e.outArb[o] = cfg.Arbiter.NewArbiter(int(e.inBase[r+1]-e.inBase[r]), e.rArb[r])
		}
	}
	if !flat {
		e.ovArb = make([]Arbiter, nout*S)
		for o := range nout {
			r := e.outRtr[o]
			ports := int(e.inBase[r+1] - e.inBase[r])
			for v := range V {
				e.ovArb[o*S+v] = cfg.Arbiter.NewArbiter(ports*V, e.rArb[r])
			}
		}
	}
	if flat {
		e.flat, e.rule = true, f.flatRule()
		e.ovState = make([]int32, nout*S)
	}
	if sw := customInput(cfg.SwitchInput); sw != nil {
		e.swin, e.inOut = sw, make([]int32, nin)
	}
	longest := 0
	for r := range n {
		for q := range net.Ports(r) {
			lat := topology.Latency(net, r, q)
			next, in := net.Link(r, q)
			if lat <= 0 || next < 0 {
				continue
			}
			e.out[e.outBase[r]+int32(q)].d = int32(p.SwAlloc + p.Traverse + lat)
			e.in[e.inBase[next]+int32(in)].dCred = int32(max(1, p.Credit-p.Link+lat))
			longest = max(longest, lat, p.Credit-p.Link+lat)
		}
	}
	e.partition(threads(cfg, n), wheelLen(cfg.Pipeline, longest), maxPorts)
	e.multi = len(e.parts) > 1
	e.warmOn = e.cycleBytes() >= blockFrom || cfg.forceWarm
	e.injectFirst = p.Inject >= p.SwAlloc+p.Traverse+p.Link
	e.dEject = int64(p.SwAlloc + p.Traverse + p.Eject)
	e.firstQ = make([]int32, n+1)
	nq := 0
	for r := range n {
		nq += nInj(r)
	}
	e.src = make([]source, 0, nq) // no spare and no garbage from growing (EngineBytes counts nq)
	for r := range n {
		e.firstQ[r] = int32(len(e.src))
		for k := range nInj(r) {
			in := e.inBase[r] + int32(net.InPorts(r)+k)
			e.in[in].q = int32(len(e.src))
			e.in[in].dCred = 1 // its credits go back to the source the next cycle
			e.src = append(e.src, source{cur: -1, node: int32(r), in: in})
		}
	}
	e.firstQ[n] = int32(len(e.src))
	e.srcOn = make([]bool, len(e.src))
	e.srcCredit = make([]int32, len(e.src)*S)
	e.srcOut = make([]int32, tm.Len())
	e.tIn, e.tQ, e.tOut, e.tEj = tm.In, make([]int32, tm.Len()), tm.Out, tm.OutPort
	e.firstT, e.firstEj = make([]int32, n), make([]int32, n)
	for r := range e.firstT {
		e.firstT[r], e.firstEj[r] = -1, -1
	}
	for t := tm.Len() - 1; t >= 0; t-- {
		e.tQ[t] = e.firstQ[tm.In[t]] + tm.InPort[t]
		e.firstT[tm.In[t]], e.firstEj[tm.Out[t]] = int32(t), int32(t)
	}
	for i := range e.srcCredit {
		e.srcCredit[i] = int32(B)
	}
	e.rRoute = rand.New(rand.NewPCG(cfg.Seed, streamRoute))
	e.gidx = make([]int32, nin*S)
	for i := range e.gidx {
		e.gidx[i] = -1
	}
	e.bindRouting()
	return e, nil
}

// ringLen is the slots between the rings of consecutive VCs for buffers of B
// flits (engine.ring).
func ringLen(B int) int {
	if B <= homeSlots {
		return B
	}
	lines := (B + homeSlots - 1) / homeSlots
	if lines >= 4 && lines%2 == 0 {
		lines++
	}
	return lines * homeSlots
}

// wheelLen is the length of the event wheel for pipeline p and the longest link
// latency or credit delay a topology sets: the least power of two above every
// delay schedule is given (Inject, Credit, the source's credit 1, SwAlloc +
// Traverse + Link and + Eject), so that the events of one slot are due in the same
// cycle and kept in the order they were scheduled.
func wheelLen(p Pipeline, longest int) int {
	d := max(1, p.Inject, p.Credit, p.SwAlloc+p.Traverse+max(p.Link, p.Eject, longest))
	n := 1
	for n <= d {
		n *= 2
	}
	return n
}

func (e *engine) trace(ev Event) {
	ev.Cycle = e.t
	e.cfg.Trace(ev)
}

// newPacket creates a packet from terminal src to terminal dst and queues it at
// the source.
func (e *engine) newPacket(src, dst int32, size int32, path []int32, batch int32) int32 {
	var i int32
	if k := len(e.free); k > 0 {
		i = e.free[k-1]
		e.free = e.free[:k-1]
	} else {
		e.packets = append(e.packets, packet{})
		i = int32(len(e.packets) - 1)
	}
	if path != nil {
		if batch < 0 {
			panic("sim: a fixed path outside a batch")
		}
		for int(batch) >= len(e.extra) {
			e.extra = append(e.extra, batchExtra{})
		}
		e.extra[batch].path = path
		e.fixed = true
	}
	pk := &e.packets[i]
	*pk = packet{id: e.nextID, gen: e.t, size: size, batch: batch, st: src, dt: dst,
		h: Header{Src: e.tIn[src], Dst: e.tOut[dst], Port: -1, InPort: -1, VC: -1}}
	e.nextID++
	if path == nil && e.cfg.Routing != nil {
		e.cfg.Routing.Start(&pk.h, e.rRoute)
		if e.classLimit > 0 {
			pk.class = e.firstClass(pk.h.Src, &pk.h)
		}
	}
	q := e.tQ[src]
	if e.cfg.InjectPerPort && len(path) > 0 {
		q = e.firstQ[pk.h.Src] + path[0]
	}
	sq := &e.src[q]
	sq.q = append(sq.q, i)
	if !e.srcOn[q] {
		e.srcOn[q] = true
		if r := pk.h.Src; e.srcRtr[r>>6]&(1<<uint(r&63)) == 0 {
			e.srcRtr[r>>6] |= 1 << uint(r&63)
			e.parts[e.wordPart[r>>6]].nSrc++
		}
	}
	if e.tracing {
		e.trace(Event{Kind: Generate, Node: pk.h.Src, Dst: pk.h.Dst, From: src, To: dst, Packet: pk.id, Flit: size, Port: -1, VC: -1, InPort: -1, InVC: -1})
	}
	return i
}

// writes puts the flits of evs into their input VCs, at routers of partition p
// (the flits have arrived): first into the rings (writeRings), then into the
// ports' masks, each loop with few values live (one loop doing both kept them
// on the stack: 79 instructions a flit on torus:8x8 at 0.4, 71 in two). A VC
// takes at most one flit a cycle (the one link or source feeding it sends one),
// so a VC now holding one flit was empty.
func (e *engine) writes(p *part, evs []flitEv) {
	e.writeRings(evs)
	in, vcs, vs, vm := e.in, e.vc, e.vs&31, e.vm
	for _, ev := range evs {
		iv := ev.to
		port := iv >> vs
		ip := elem(in, int(port))
		if ip.busy == 0 {
			e.portBusied(p, port)
		}
		v := iv & vm
		ip.busy |= 1 << uint(v&63) // already set unless the VC was empty
		if c := elem(vcs, int(iv)); c.n == 1 && c.state == vcIdle {
			// a head into an empty idle VC: to route
			r := ip.rtr
			e.unrouted.add(r, port-e.inBase[r], port, v)
		}
	}
	if e.recordHops || e.tracing {
		for _, ev := range evs {
			e.wrote(ev.to, ev.f)
		}
	}
}

// portBusied marks input port port, empty until now, busy at its router (and
// the router busy, if that was its first).
func (e *engine) portBusied(p *part, port int32) {
	r := e.in[port].rtr
	if e.portBusy[r] == 0 {
		e.busyRtr[r>>6] |= 1 << uint(r&63)
		p.nBusy++
	}
	e.portBusy[r] |= 1 << uint((port-e.inBase[r])&63)
}

// writeRings writes the flits of evs into their VCs' rings: with rings of one
// cache line or less, in a loop without the moves to a ring's first line (the
// general loop's), which Go compiles with fewer values on the stack.
func (e *engine) writeRings(evs []flitEv) {
	vcs, buf := e.vc, e.buf
	B, ring := e.B, e.ring
	if B <= homeSlots {
		for _, ev := range evs {
			c := elem(vcs, int(ev.to))
			n := c.n
			if n >= B {
				panic(fmt.Sprintf("sim: buffer overflow at input VC %d (a credit bug)", ev.to))
			}
			slot := c.head + n // the ring's free slot: head < B and n < B
			if slot >= B {
				slot -= B // a conditional move: where the ring wraps follows no pattern
			}
			*elem(buf, int(ev.to)*ring+int(slot)) = ev.f
			c.n = n + 1
		}
		return
	}
	for _, ev := range evs {
		iv, f := ev.to, ev.f
		c := &vcs[iv]
		n := c.n
		if n >= B {
			panic(fmt.Sprintf("sim: buffer overflow at input VC %d (a credit bug)", iv))
		}
		base := int(iv) * ring
		slot := c.head + n // the ring's free slot: head < B and n < B
		if slot >= B {
			slot -= B // a conditional move: where the ring wraps follows no pattern
		}
		if B > homeSlots && slot >= homeSlots && n < homeSlots {
			// A ring longer than a cache line whose flits would spill past its first
			// line moves them back to its first slots (at most 15; forward, as head >
			// 0): a VC holding a few flits at a time then keeps them in one line
			// instead of walking its whole ring (a dragonfly's 256-flit buffers are
			// 8 MB in all, their first lines 500 kB).
			h := int(c.head)
			for k := range int(n) { // (a loop, not copy: no call in this loop)
				buf[base+k] = buf[base+h+k]
			}
			c.head, slot = 0, n
		}
		buf[base+int(slot)] = f
		c.n = n + 1
	}
}

// extraOf is packet pk's batch extras (nil outside a batch).
func (e *engine) extraOf(pk *packet) *batchExtra {
	if pk.batch < 0 || int(pk.batch) >= len(e.extra) {
		return nil
	}
	return &e.extra[pk.batch]
}

// pathOf is packet pk's fixed path (nil: routed); it reads extra only once a
// packet has had a path or steering (fixed).
func (e *engine) pathOf(pk *packet) []int32 {
	if !e.fixed {
		return nil
	}
	if x := e.extraOf(pk); x != nil {
		return x.path
	}
	return nil
}

// steerOf is packet pk's steering (nil: none); like pathOf, it reads extra
// only once a packet has had a path or steering.
func (e *engine) steerOf(pk *packet) []Hop {
	if !e.fixed {
		return nil
	}
	if x := e.extraOf(pk); x != nil {
		return x.steer
	}
	return nil
}

// write puts f into input VC iv of partition p (the flit has arrived).
func (e *engine) write(p *part, iv int32, f flit) {
	e.writes(p, []flitEv{{to: iv, f: f}})
}

// wrote records flit f written into input VC iv: its head's arrival in its
// packet (batches that record them), its trace.
func (e *engine) wrote(iv int32, f flit) {
	port := e.port(iv)
	r := e.in[port].rtr
	if e.recordHops && f.head() && e.in[port].prev >= 0 {
		if x := e.extraOf(&e.packets[f.pkt()]); x != nil && x.hops != nil {
			x.hops = append(x.hops, e.t)
		}
	}
	if e.tracing {
		pk := &e.packets[f.pkt()]
		e.trace(Event{Kind: Arrive, Node: r, Port: port - e.inBase[r], VC: iv & e.vm, Packet: pk.id, Flit: e.flitSeq(e.arrived, iv, f), Dst: pk.h.Dst, InPort: -1, InVC: -1})
	}
}

// flitSeq is the position in its packet of flit f, arriving at or leaving input
// VC iv, from count, the flits of its packet that did so before it (arrived or
// sent): a VC carries a packet's flits in order, from its head, one packet after
// the other, so the head is 0 and each next flit one more.
func (e *engine) flitSeq(count []int32, iv int32, f flit) int32 {
	if f.head() {
		count[iv] = 0
	}
	s := count[iv]
	count[iv] = s + 1
	return s
}

// vcSet is a set of input VCs as bit masks on three levels: vcs[p] has bit v
// set iff VC p<<vs | v is in the set, ports[r] bit i iff vcs[inBase[r]+i] is not
// 0, and rtrs[r/64] bit r%64 iff ports[r] is not 0. Visiting rtrs' bits, then
// ports' of each router, then vcs' of each port, gives the set's VCs in
// increasing order.
type vcSet struct{ vcs, ports, rtrs []uint64 }

func newVCSet(inPorts, routers int) vcSet {
	return vcSet{vcs: make([]uint64, inPorts), ports: make([]uint64, routers), rtrs: make([]uint64, (routers+63)/64)}
}

// add puts VC v of input port in (number i at router r) into the set.
func (s *vcSet) add(r, i, in, v int32) { s.addAll(r, i, in, 1<<uint(v&63)) }

// addAll puts the VCs of mask m (not 0) of input port in (number i at router
// r) into the set.
func (s *vcSet) addAll(r, i, in int32, m uint64) {
	*elem(s.vcs, int(in)) |= m
	pr := elem(s.ports, int(r))
	if *pr == 0 {
		*elem(s.rtrs, int(r>>6)) |= 1 << uint(r&63)
	}
	*pr |= 1 << uint(i&63)
}

// remove takes VC v of input port in (number i at router r) out of the set.
func (s *vcSet) remove(r, i, in, v int32) {
	pv := elem(s.vcs, int(in))
	if *pv &^= 1 << uint(v&63); *pv == 0 {
		pr := elem(s.ports, int(r))
		if *pr &^= 1 << uint(i&63); *pr == 0 {
			*elem(s.rtrs, int(r>>6)) &^= 1 << uint(r&63)
		}
	}
}

// farWords gives each port p the word (router / 64) of the router at the far end
// of its channel, farRtr[link[p]], or of its own router, ownRtr[p], where it has
// none (link[p] < 0: an injection or ejection port): in[].word and out[].word
// before partition makes the network ports' columns of them.
func farWords(link, farRtr, ownRtr []int32) []int32 {
	w := make([]int32, len(link))
	for p, q := range link {
		if q >= 0 {
			w[p] = farRtr[q] >> 6
		} else {
			w[p] = ownRtr[p] >> 6
		}
	}
	return w
}

// allVCs is the mask of VCs 0..V-1.
func allVCs(V int32) uint64 {
	if V == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(V) - 1
}

// release frees output VC ov, and puts back into the waiting set the parked
// heads of its router that may take it (allocVCsAt, passBy): those with a
// choice of ov's port that allows ov's VC. The others would find none again:
// what they may take has not changed (wakes). r is ov's router (its caller's:
// read from outRtr it was a load from an array no other phase reads, missed
// on every release of a large network).
func (e *engine) release(r, ov int32) {
	vs := e.vs & 31
	o := ov >> vs
	v := ov & e.vm
	elem(e.out, int(o)).free |= 1 << uint(v&63)
	ib := *elem(e.inBase, int(r))
	elem(e.ov, int(ov)).owner = ^(ib << vs) // unowned(ov)
	pk := elem(e.parked, int(r))
	if *pk == 0 {
		return
	}
	port := int(o - *elem(e.outBase, int(r)))
	for pm := *pk; pm != 0; pm &= pm - 1 {
		i := int32(bits.TrailingZeros64(pm))
		in := ib + i
		pb := *elem(e.passBy, int(in))
		if wake := e.wakes(in, pb, port, v); wake != 0 {
			e.waiting.addAll(r, i, in, wake)
			*elem(e.passBy, int(in)) = pb &^ wake
			if pb == wake {
				*pk &^= 1 << uint(i&63)
			}
		}
	}
}

// wakes is the VCs of pb (parked heads of input port in) with a choice of
// output port port (of their router) that allows VC v.
func (e *engine) wakes(in int32, pb uint64, port int, v int32) uint64 {
	var wake uint64
	for m := pb; m != 0; m &= m - 1 {
		k := bits.TrailingZeros64(m)
		if offers(e.heads[in<<e.vs|int32(k)].ch, Hop{Port: port, VC: int(v)}) {
			wake |= 1 << uint(k)
		}
	}
	return wake
}

// port is the port of VC x (input or output).
func (e *engine) port(x int32) int32 { return x >> (e.vs & 31) } // masked: one shift instruction

func (e *engine) front(iv int32) *flit {
	return &e.buf[int(iv)*e.ring+int(e.vc[iv].head)]
}

// deliver consumes a flit at its destination, in partition p: a packet delivered
// whole is told to the run when the partitions join.
func (e *engine) deliver(p *part, node int32, f flit) {
	pk := elem(e.packets, int(f.pkt()))
	pk.got++
	p.inNet--
	if e.tracing {
		// a packet's flits reach its sink in order
		e.trace(Event{Kind: Deliver, Node: node, Packet: pk.id, Flit: pk.got - 1, Dst: pk.h.Dst, Port: -1, VC: -1, InPort: -1, InVC: -1})
	}
	if pk.got == pk.size {
		p.done = append(p.done, f.pkt())
	}
}

// receive applies the events due this cycle at partition p's routers: flits
// written into buffers (those from every partition's links), credits returned,
// flits consumed by sinks.
func (e *engine) receive(p *part) {
	for w := p.w0; w < p.w1; w++ {
		e.receiveWord(p, w)
	}
}

// receiveWord is receive on the routers of word w (of partition p).
func (e *engine) receiveWord(p *part, w int) {
	if e.warmOn && w != p.warmed {
		p.warmed = w
		p.sink += e.warm(p, w)
	}
	// a word's events are in the wheels of the partitions whose threads ran
	// the routers that made them (claims, block.go): taken from every one
	if e.injectFirst {
		e.receiveInjects(p, w)
	}
	for _, q := range e.parts {
		for c := range int(q.links.classes) {
			e.writes(p, q.links.takeBy(q == p, e.t, w, c))
		}
	}
	if !e.injectFirst {
		e.receiveInjects(p, w)
	}
	for _, q := range e.parts {
		for c := range int(q.credits.classes) {
			e.credits(q.credits.takeBy(q == p, e.t, w, c))
		}
	}
	for _, q := range e.parts {
		for _, x := range q.srcCreds.takeBy(q == p, e.t, w, 0) {
			e.srcCredit[x]++
			if e.tracing {
				in := e.src[e.port(x)].in
				r := e.in[in].rtr
				e.trace(Event{Kind: Credit, Node: r, Port: -1, VC: x & e.vm, Packet: -1, InPort: in - e.inBase[r], InVC: -1})
			}
		}
	}
	for _, q := range e.parts {
		for _, ev := range q.delivers.takeBy(q == p, e.t, w, 0) {
			e.deliver(p, ev.to, ev.f)
		}
	}
}

// receiveInjects writes the flits injected into word w's routers due now.
func (e *engine) receiveInjects(p *part, w int) {
	for _, q := range e.parts {
		e.writes(p, q.injects.takeBy(q == p, e.t, w, 0))
	}
}

// warm loads the state a cycle of the busy routers of word w touches (per input
// port holding flits its record and its busy VCs' states and rings' first lines,
// per output port its record and its VCs' credits), and returns a
// sum of what it read (kept in part.sink, so that the loads stay). Taken where a
// cycle touches more than the caches hold (warmOn: cycleBytes from blockFrom, the
// 48x48 torus and up), once for each word a partition visits in a row (a block's
// cycles run on one word): there each line comes from memory, or from the
// last-level cache, when a phase first needs it, and the phases need them one
// after another (a flit's VC, then its ring, then its port), each waiting for the
// one before, where these loads depend on nothing and run many at once.
//
// A run of consecutive busy routers has its output ports and output VCs one after
// another in each array, so warm walks each array's range for the run in one
// loop, one load a line. The input side it loads port by port, only the ports
// holding flits (warmPorts): below saturation most ports of a busy router are
// idle, and their records, VC states and rings were most of what warm loaded
// (cachegrind with a 1 MB last-level cache, the 128x128 torus at 0.02, 1,200
// cycles: 9.63 misses past it and 631.6 instructions a flit-hop with every line
// of the run's input ports, VCs and rings, 5.01 and 600.8 with warmPorts).
// The busy ports' records come first, for the whole word (warmRecords, which
// leaves what it read in p.sink), and their VCs after (warmPorts): which VC
// lines to load is read from a record's busy mask, so loaded port by port each
// port's VC lines waited for its record, two misses in a row.
func (e *engine) warm(p *part, w int) uint32 {
	var s uint32
	vs := e.vs & 31
	// one load a cache line of each array: its records a line
	const (
		outsLine = int32(64 / unsafe.Sizeof(outPort{}))
		ovsLine  = int32(64 / unsafe.Sizeof(outVC{}))
	)
	p.sink += e.warmRecords(w) + e.warmSets(w) + e.warmHeads(p, w)
	for word := e.busyRtr[w]; word != 0; {
		// a run of busy routers lo .. hi-1, whose ports and VCs follow one
		// another in each array: one loop over each array's range
		lo := bits.TrailingZeros64(word)
		hi := lo + bits.TrailingZeros64(^(word >> uint(lo))) // (64 where the run ends the word)
		word &^= 1<<uint(hi) - 1                             // (all ones where hi is 64: 1<<64 is 0)
		// each range sliced first, and walked up to its length: no bounds
		// check a load
		ob, oe := e.outBase[w<<6+lo], e.outBase[w<<6+hi]
		outs := e.out[ob:oe]
		for x := 0; x < len(outs); x += int(outsLine) {
			s += uint32(outs[x].free)
		}
		ovs := e.ov[ob<<vs : oe<<vs]
		for x := 0; x < len(ovs); x += int(ovsLine) {
			s += uint32(ovs[x].credit)
		}
		// the last line, where the range does not start at a line's start: a
		// step of a line from the range's start may end a line short of its end
		if len(outs) > 0 { // (a router may have no output port)
			s += uint32(outs[len(outs)-1].free) + uint32(ovs[len(ovs)-1].credit)
		}
	}
	return s + e.warmPorts(w)
}

// warmHeads loads what taking the events due at word w's routers reads, from
// e.t to the end of the block (the cycle alone outside a block): per flit over
// a link its VC's state, its ring's first line and its input port's record
// (warmPorts loads those of ports that held flits: a flit into an idle port or
// VC was a miss in writeRings), and per head flit its packet's first line and
// its VC's head line (vcHead), which routing then reads and writes, each a miss
// on a large network: the packet was last touched a hop before, and the head
// line by the packet before it; per head flit due at the word's sinks its
// packet's first line, which the delivery writes. Read from the wheels without
// taking them: the events due in a block were put before it, so no thread puts
// into these buckets now. cachegrind (--D1=32768,8,64 --LL=1048576,16,64) of
// the 128x128 torus at 0.02, 800 cycles: misses past the LL 5.791 a flit-hop
// before, 5.833 with it, at 611.3 and 652.9 instructions, but routeHead's
// misses 1.96M -> 0.53M and writeRings' and writes' 4.25M -> 0.31M,
// moved into warm, whose loads wait for nothing.
func (e *engine) warmHeads(p *part, w int) uint32 {
	var s uint32
	n := int64(1)
	if e.t >= p.t0 && e.t < p.t0+int64(p.n) {
		n = p.t0 + int64(p.n) - e.t
	}
	pks, heads := e.packets, e.heads
	vcs, buf, in, ring, vs := e.vc, e.buf, e.in, e.ring, e.vs&31
	for at := e.t; at < e.t+n; at++ {
		for _, q := range e.parts {
			for c := range int(q.links.classes) {
				for _, ev := range q.links.peek(at, w, c) {
					s += uint32(elem(vcs, int(ev.to)).n) + uint32(*elem(buf, int(ev.to)*ring)) + uint32(elem(in, int(ev.to>>vs)).busy)
					if ev.f.head() {
						s += uint32(elem(pks, int(ev.f.pkt())).h.Dst) + uint32(elem(heads, int(ev.to)).ready)
					}
				}
			}
			for _, ev := range q.delivers.peek(at, w, 0) {
				if ev.f.head() {
					s += uint32(elem(pks, int(ev.f.pkt())).size)
				}
			}
		}
	}
	return s
}

// warmSets loads the lines of the masks a head's routing, its VC allocation and
// a release read and write, per input port (unrouted, waiting, passBy: at the
// first input port holding flits of each of word w's busy routers, whose ports'
// masks are side by side) and per router (unrouted, waiting, parked: the word's
// 64, eight a line). These small arrays (under 2 MB on the 128x128 torus) are
// touched a few times a packet, each time a miss on a large network, where
// a cycle's state passes through the caches every block.
func (e *engine) warmSets(w int) uint32 {
	var s uint64
	uv, wv, pb := e.unrouted.vcs, e.waiting.vcs, e.passBy
	for word := e.busyRtr[w]; word != 0; word &= word - 1 {
		r := w<<6 | bits.TrailingZeros64(word)
		ib := int(*elem(e.inBase, r))
		if pm := *elem(e.portBusy, r); pm != 0 {
			i := ib + bits.TrailingZeros64(pm)
			s |= *elem(uv, i) | *elem(wv, i) | *elem(pb, i)
		}
	}
	lo, hi := w<<6, min(w<<6+64, e.nodes)
	up, wp, pk := e.unrouted.ports[lo:hi], e.waiting.ports[lo:hi], e.parked[lo:hi]
	for x := 0; x < len(up); x += 8 {
		s |= up[x] | wp[x] | pk[x]
	}
	return uint32(s)
}

// warmRecords loads the record of each input port holding flits (its bit in
// portBusy) of word w's busy routers, one load a port, none waiting for another,
// and returns what it read.
func (e *engine) warmRecords(w int) uint32 {
	var s uint64
	in := e.in
	for word := e.busyRtr[w]; word != 0; word &= word - 1 {
		r := w<<6 | bits.TrailingZeros64(word)
		ib := int(*elem(e.inBase, r))
		for pb := *elem(e.portBusy, r); pb != 0; pb &= pb - 1 {
			s |= elem(in, ib+bits.TrailingZeros64(pb)).busy
		}
	}
	return uint32(s)
}

// warmPorts is warm's part for the input ports of word w's busy routers that
// hold flits, whose records warmRecords loaded: from each one's busy mask the
// states and the rings' first lines of its lowest and highest busy VCs (with 4
// VCs a port, its VCs' states are one line; its VCs holding flits are mostly
// one or two).
func (e *engine) warmPorts(w int) uint32 {
	var s uint32
	const vcsLine = uint(64 / unsafe.Sizeof(inVC{})) // VC states a line
	vs, vm, ring := e.vs&31, int(e.vm), e.ring
	in, vcs, buf := e.in, e.vc, e.buf
	for word := e.busyRtr[w]; word != 0; word &= word - 1 {
		r := w<<6 | bits.TrailingZeros64(word)
		ib := int(*elem(e.inBase, r))
		for pb := *elem(e.portBusy, r); pb != 0; pb &= pb - 1 {
			port := ib + bits.TrailingZeros64(pb)
			b := elem(in, port).busy // not 0: the port holds flits
			iv := port << vs
			lo, hi := iv|bits.TrailingZeros64(b)&vm, iv|(bits.Len64(b)-1)&vm
			s += uint32(b) + uint32(elem(vcs, lo).n) + uint32(*elem(buf, lo*ring)) + uint32(*elem(buf, hi*ring))
			if uint(hi)/vcsLine != uint(lo)/vcsLine { // (more VCs a port than a line's states)
				s += uint32(elem(vcs, hi).n)
			}
		}
	}
	return s
}

// credits returns a credit to each output VC of ovs: a VC holding one that had
// none may ask for the switch again.
func (e *engine) credits(ovs []int32) {
	addCredits(ovs, e.ov, e.in, e.vs&31, e.vm)
	if e.tracing {
		for _, ov := range ovs {
			e.traceCredit(ov)
		}
	}
}

// addCredits is credits' loop, a function of its tables: it calls nothing, and
// Go keeps every value it needs in a register (as a method with the tracing
// loop after it, it kept four on the stack: 35 instructions a credit on
// torus:8x8 at 0.4, 33 now).
func addCredits(ovs []int32, outVCs []outVC, in []inPort, vs uint8, vm int32) {
	for _, ov := range ovs {
		x := elem(outVCs, int(ov))
		c := x.credit
		x.credit = c + 1
		// the owner's bit set if c was 0, without a branch: which credit ends a
		// wait follows no pattern (no owner: 0 is or'ed, into credited's mask)
		owner := x.owner
		iv := creditedBy(owner)
		z := uint64(c | owner>>31&1) // 0 iff c was 0 and ov has an owner
		ends := (z|-z)>>63 - 1       // all ones iff z is 0
		elem(in, int(iv>>(vs&31))).cred |= 1 << uint(iv&vm&63) & ends
	}
}

// traceCredit traces a credit returned to output VC ov.
func (e *engine) traceCredit(ov int32) {
	o := e.port(ov)
	r := e.outRtr[o]
	e.trace(Event{Kind: Credit, Node: r, Port: o - e.outBase[r], VC: ov & e.vm, Packet: -1, InPort: -1, InVC: -1})
}

// credited is the input VC whose mask a credit to output VC ov ors into: ov's
// owner, or with none the first input VC of ov's own router (0 is or'ed then).
// Never another router's: on several threads that mask may be another
// partition's, and the or, a read and a write, would undo a change its thread
// makes at the same time.
func (e *engine) credited(ov int32) int32 {
	return creditedBy(e.ov[ov].owner)
}

// creditedBy is credited for an output VC whose owner field is owner.
func creditedBy(owner int32) int32 {
	return owner ^ owner>>31 // unowned's complement undone
}

// unowned is the owner field of output VC ov without an owner: the complement
// of its router's first input VC (negative), so that credited finds an input VC
// of ov's own router without a load. A router without input ports never owns an
// output VC, so none of its credits comes to read it.
func (e *engine) unowned(ov int32) int32 {
	return ^(e.inBase[e.outRtr[e.port(ov)]] << e.vs)
}

// inject moves one flit per source of partition p per cycle from its queue into
// its router's injection buffer: the head takes a VC with a credit, round-robin
// from the last one used; the packet's other flits follow on that VC as credits
// allow.
func (e *engine) inject(p *part) {
	p.setAt(e.t)
	for w := p.w0; w < p.w1; w++ {
		e.injectWord(p, w)
	}
}

// injectWord is inject at the routers of word w (the sources of one router are
// independent: each feeds its own injection port).
func (e *engine) injectWord(p *part, w int) {
	for word := e.srcRtr[w]; word != 0; word &= word - 1 {
		r := int32(w<<6 | bits.TrailingZeros64(word))
		left := false
		for q, qe := *elem(e.firstQ, int(r)), *elem(e.firstQ, int(r)+1); q < qe; q++ {
			on := elem(e.srcOn, int(q))
			if !*on {
				continue
			}
			s := elem(e.src, int(q))
			// its next flit towards its injection buffer, if its VC has a
			// credit, starting a packet (start) when none is under way
			// (written out here, not a call a source: torus:8x8 at 0.4,
			// 562.6 instructions a flit-hop with the call, 559.9 without)
			vs := e.vs & 31
			if s.cur >= 0 || e.start(q, s) {
				if credit := elem(e.srcCredit, int(q<<vs|s.vc)); *credit > 0 {
					// flit j of a packet generated in cycle g enters the buffer
					// in cycle g+Inject+j at the earliest: it leaves the source
					// in cycle g+j (Inject = 0 puts it in the buffer the same
					// cycle).
					*credit--
					v, i := s.vc, s.cur
					pk := elem(e.packets, int(i))
					f := flitOf(i, pk.sent, pk.size)
					seq := pk.sent
					if pk.sent++; pk.sent == pk.size {
						s.cur = -1
					}
					p.inNet++
					p.lastMove = e.t
					if e.tracing {
						e.trace(Event{Kind: Inject, Node: s.node, VC: v, Packet: pk.id, Flit: seq, Dst: pk.h.Dst, Port: -1, InPort: s.in - e.inBase[s.node], InVC: -1})
					}
					iv := s.in<<vs | v
					if d := int64(e.p.Inject); d == 0 {
						e.write(p, iv, f)
					} else {
						p.injects.put(int32(d), s.node>>6, flitEv{to: iv, f: f})
					}
				}
			}
			if s.cur >= 0 || int(s.head) < len(s.q) {
				left = true
			} else {
				*on = false
				s.q = s.q[:0]
				s.head = 0
			}
		}
		if !left {
			e.srcRtr[w] &^= 1 << uint(r&63)
			p.nSrc--
		}
	}
}

// start takes the packet at the head of source queue q (s) for injection, if
// it may start: generated by now, within the injection and class limits, with a
// VC that has a credit (round-robin from the last one used).
func (e *engine) start(q int32, s *source) bool {
	V, vs := e.V, e.vs&31
	credit := e.srcCredit[q<<vs : q<<vs+V]
	if int(s.head) >= len(s.q) || e.packets[s.q[s.head]].gen > e.t {
		return false // none, or generated for a later cycle of a block (block.go)
	}
	if e.limit > 0 && e.srcOut[e.packets[s.q[s.head]].st] >= e.limit {
		return false
	}
	if e.classLimit > 0 && e.classBusy(s.node, e.packets[s.q[s.head]].class) >= e.classLimit {
		return false
	}
	vc := int32(-1)
	for k := range V {
		v := s.rr + k
		if v >= V {
			v -= V
		}
		if credit[v] > 0 {
			vc = v
			break
		}
	}
	if vc < 0 {
		return false
	}
	s.cur = s.q[s.head]
	e.packets[s.cur].inj = e.t
	if s.head++; s.head > 64 && int(s.head)*2 > len(s.q) {
		m := copy(s.q, s.q[s.head:])
		s.q = s.q[:m]
		s.head = 0
	}
	s.vc = vc
	if s.rr = vc + 1; s.rr == V {
		s.rr = 0
	}
	e.srcOut[e.packets[s.cur].st]++
	return true
}

// checkWork is the work between looks at the context: a cycle counts one plus
// the routers holding flits and the sources with packets it visits, so that a
// cancellation acts after at most checkWork units (a cycle of a large busy
// network is one look, an idle cycle of a small one a thousandth).
const checkWork = 1024

// run steps cycles until done reports true, the context ends or a deadlock is
// found. ctx is looked at before the first cycle and then by work (checkWork).
func (e *engine) run(ctx context.Context, done func() bool) error {
	e.chooseCycle()
	e.startWorkers()
	defer e.stopWorkers()
	work := checkWork
	for !done() {
		if work >= checkWork {
			if err := ctx.Err(); err != nil {
				return err
			}
			work = 0
		}
		work += 1 + e.busyRouters() + e.srcActive()
		if err := e.step(); err != nil {
			return err
		}
	}
	return nil
}

// firstClass is the class of a new packet for the class limit: the lowest VC its
// routing offers at its source (the VC class it enters the network on; seed 003:
// "the virtual channel it intends to use"), 0 at its destination.
func (e *engine) firstClass(src int32, h *Header) int32 {
	if h.Dst == src {
		return 0
	}
	e.classCh = e.cfg.Routing.Route(int(src), h, e.classCh[:0])
	c := int32(63)
	for _, ch := range e.classCh {
		if ch.VCs != 0 {
			c = min(c, int32(bits.TrailingZeros64(ch.VCs)))
		}
	}
	return c
}

// classBusy is the number of input VCs numbered class at router r (its injection
// ports included) that hold a flit: the messages of that class at the node.
func (e *engine) classBusy(r, class int32) int32 {
	n := int32(0)
	for p := e.inBase[r]; p < e.inBase[r+1]; p++ {
		n += int32(e.in[p].busy >> uint(class) & 1)
	}
	return n
}
