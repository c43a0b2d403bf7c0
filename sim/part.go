package sim

// Partitions: a run on several threads. The routers are cut into contiguous
// ranges of whole 64-router words of the engine's bit masks, one partition per
// thread. A cycle's phases (receive, inject, route, allocVCs, allocSwitch) touch
// only the state of the routers they visit; what crosses to another router is an
// event at least one cycle ahead (a flit on a link, a credit upstream), which a
// partition leaves on a wheel of its own for the receiving partition to read in a
// later cycle. So the partitions of one cycle run at once, joined at its end,
// where one thread does what is shared: deliveries reach the statistics and free
// their packets, the counts are summed, the deadlock test runs, and the next
// cycle's packets are generated. Nothing a partition does depends on another's
// order or speed, and each router draws from its own random streams, so a run is
// the same, bit for bit, whatever the number of threads (TestThreadsSameRun).
// A run that takes blocks of cycles (block.go) joins its partitions once a
// block, not once a cycle: each runs the block's cycles over its words at once,
// and a thread done with its words runs those another has not reached yet
// (claims), so that none waits at the barrier for a thread slowed or kept from
// running.

import (
	"math/bits"
	"runtime"
	"slices"
)

// part is one partition: routers lo..hi-1 (words w0..w1-1 of the router masks),
// the events it has scheduled (links and credits by the partition that receives
// them), its sources with packets, the packets whose tail it delivered this
// cycle, its counts and its scratch for allocation.
type part struct {
	id       int
	lo, hi   int32
	w0, w1   int
	links    wheel[flitEv] // to any partition's routers, by their word
	credits  wheel[int32]  // likewise
	injects  wheel[flitEv]
	delivers wheel[flitEv]
	srcCreds wheel[int32]
	nSrc     int     // routers with a source holding a packet
	done     []int32 // packets whose tail was delivered this cycle

	inNet    int64 // flits injected less flits delivered, since the last join
	lastMove int64
	nBusy    int // routers holding a flit
	err      error

	// span is the cycles a block may take (blockSpan), dones the packets
	// delivered whole in each cycle of a block by the words p's thread ran
	// (claims), rev: this block visits p's words from the last
	span  int
	dones [][]int32
	rev   bool
	// view is the engine as p's thread sees it during a block: a copy of the
	// engine's fields, sharing its arrays, whose cycle e.t is p's own (the
	// partitions of a block run different cycles at once). So a cycle's code
	// writes no field of the engine itself, only its arrays' elements and the
	// part: a write to the copy is lost with it after the block (and on
	// several threads cycle by cycle it would be a race). t0 and n the
	// block's cycles, errJ and errW the block's cycle and word of the first
	// error of p's thread (errJ n: none), cpu its thread's CPU time in it
	// (blockStats.clock), stolen the words it ran of other partitions (not
	// on the ring: claims)
	view   *engine
	t0     int64
	n      int
	errJ   int
	errW   int
	cpu    int64
	stolen int
	claim  wordRange // p's words not yet claimed in a block (claims)

	pick  *[64]int32  // per local input port: VC picked by its input arbiter
	omask *[64]uint64 // per local output port: the input ports whose pick asks for it
	touch []int32
	cands []Candidate
	ireqs []Request
	reqs  [][]Request // per local output port or output VC
	vreqs []uint64    // per local output VC: the IDs asking for it (allocVCsAt)

	// warmed is the word last warmed (engine.warm), sink what warm read
	warmed int
	sink   uint32

	_ [64]byte // no false sharing with the next partition's counts
}

// setAt readies p's wheels for the events of cycle t (wheel.setAt): the
// phases that schedule events (inject, allocSwitch) and the sections that run
// them word by word (cycle, advance) call it first, and a block before each
// cycle of each word.
func (p *part) setAt(t int64) {
	p.links.setAt(t)
	p.credits.setAt(t)
	p.injects.setAt(t)
	p.delivers.setAt(t)
	p.srcCreds.setAt(t)
}

// partition cuts the engine's routers into k partitions of whole words, as even
// as the words allow (k at most the number of words), with their wheels.
func (e *engine) partition(k int, wl, maxPorts int) {
	words := (e.nodes + 63) / 64
	k = max(1, min(k, words))
	span := e.blockSpan()
	wl = blockWheelLen(wl, e.longestDelay(), span)
	// each kind's delays (newWheel): a flit's over a link, a credit's upstream,
	// an injection's, a delivery's, a source's credit's (one cycle)
	pl := e.cfg.Pipeline
	var dLink, dCred []int
	for _, op := range e.out {
		if op.next >= 0 && !slices.Contains(dLink, int(op.d)) {
			dLink = append(dLink, int(op.d))
		}
	}
	for _, ip := range e.in {
		if ip.prev >= 0 && !slices.Contains(dCred, int(ip.dCred)) {
			dCred = append(dCred, int(ip.dCred))
		}
	}
	if len(dLink) == 0 { // no link: an empty wheel
		dLink, dCred = []int{0}, []int{0}
	}
	e.parts = make([]*part, k)
	e.wordPart = make([]int32, words) // int32: more than 256 partitions (TestBatchManyPartitions)
	for i := range k {
		p := &part{id: i, w0: words * i / k, w1: words * (i + 1) / k, warmed: -1}
		p.lo, p.hi = int32(p.w0*64), int32(min(p.w1*64, e.nodes))
		p.links, p.credits = newWheel[flitEv](wl, words, dLink), newWheel[int32](wl, words, dCred)
		p.injects = newWheel[flitEv](wl, words, []int{pl.Inject})
		p.delivers = newWheel[flitEv](wl, words, []int{pl.SwAlloc + pl.Traverse + pl.Eject})
		p.srcCreds = newWheel[int32](wl, words, []int{1})
		p.pick, p.omask = new([64]int32), new([64]uint64)
		p.view = new(engine)
		p.span, p.dones = span, make([][]int32, span)
		p.reqs = make([][]Request, maxPorts<<e.vs)
		p.vreqs = make([]uint64, maxPorts<<e.vs)
		for w := p.w0; w < p.w1; w++ {
			e.wordPart[w] = int32(i)
		}
		e.parts[i] = p
	}
	e.claims = newClaims(words, span, e.cfg.stealFirst)
	// a network port's events go to its word's bucket of their delay's class
	// (every partition's wheels have the same classes)
	links, credits := &e.parts[0].links, &e.parts[0].credits
	for o := range e.out {
		if op := &e.out[o]; op.next >= 0 {
			op.word = links.col(op.word, op.d)
		}
	}
	for i := range e.in {
		if ip := &e.in[i]; ip.prev >= 0 {
			ip.word = credits.col(ip.word, ip.dCred)
		}
	}
}

// threads is the number of partitions a run of cfg takes: Config.Threads, or with
// 0 one per core (GOMAXPROCS) on networks of at least ParallelRouters routers, at
// most one per 64 routers; 1 whenever the run must be sequential (a trace, Latch).
func threads(cfg *Config, routers int) int {
	if cfg.Trace != nil || cfg.Latch {
		return 1
	}
	k := cfg.Threads
	if k == 0 {
		if routers < ParallelRouters {
			return 1
		}
		k = runtime.GOMAXPROCS(0)
	}
	return max(1, min(k, (routers+63)/64))
}

// ParallelRouters is the size from which a run takes every core by default
// (Config.Threads 0): below it one thread is faster. BenchmarkThreads at an idle
// moment (load about 1, two cores, load 0.1, three runs each): two threads lost on
// 32x32 (1,024 routers: 0.95x) and paid from 40x40 (1,600 routers: 1.19-1.25x;
// 48x48 1.44-1.69x, 64x64 1.57-1.82x), so the default takes two from 1,600.
// Since two threads take blocks (block.go), BenchmarkThreads' critical path
// (crit-ns/flit-hop, load 11-13) puts two threads at 0.67x on 16x16, 1.60x on
// 32x32 and 2.0x on 40x40, before the barriers' wake-ups: 32x32 runs 1,500
// blocks in 0.33 s of one thread's work, so wake-ups of 50 us each would take
// back what the second thread gives. An idle run since (load 1.3-1.5,
// docs/booksim.md's threads section) measured it: two threads at 0.82x on
// 32x32 and 1.20-1.40x on 40x40, so the default stayed at 1,600. With the
// barrier's spin (barrier.go) two threads pay from 32x32: two idle runs of
// scripts/booksim-compare.sh threads (load 1.3-4.7, three BenchmarkThreads runs
// each) put 32x32 at 1.21-1.58x and 24x24 at 0.75-1.65x, so the default took
// two from 1,024 routers. Since a block's threads share its words (claims,
// block.go), the idle run of session 8's end (load 0.9-1.2) put 24x24 at
// 1.06-1.52x and 16x16 at 0.58-0.68x, so the default takes two from 576
// routers (docs/booksim/crossover.csv; TestCrossoverDocFigures checks this
// constant against it).
const ParallelRouters = 576

// chooseCycle picks the sections of a cycle once a run, from what is known at
// setup: with Latch or an injection limit (and no Sensing routing) receiving and
// then the rest (advance); with a Sensing routing phase by phase (receive, inject
// and route, allocate: cycle's comment); otherwise one sweep word by word (cycle).
// A nil section joins the partitions: with an injection limit a source must see
// the deliveries of its cycle before it injects. The method values are made here,
// not each cycle (passed to section they escape, one allocation per section).
func (e *engine) chooseCycle() {
	switch {
	case e.cfg.Latch || (e.limit > 0 && !e.sensing):
		e.sections = []func(*part){e.receive, nil, e.advance}
	case e.sensing && e.limit > 0:
		e.sections = []func(*part){e.receive, nil, e.injectRoute, e.allocate}
	case e.sensing:
		e.sections = []func(*part){e.receive, e.injectRoute, e.allocate}
	default:
		e.sections = []func(*part){e.cycle}
	}
	if la := e.ahead; la != nil {
		e.words = e.blockWords
		la.ok = e.parts[0].span > 1 && len(e.sections) == 1 && !e.sensing &&
			e.flat && !e.cfg.slowSwitch && !e.tracing && !e.recordHops && e.gen != nil && !e.cfg.noBlocks &&
			(len(e.parts) > 1 || e.cycleBytes() >= blockFrom || e.cfg.forceBlocks)
	}
}

// step simulates one cycle, or with a lookahead several (blockStep): the next
// packets generated, then its sections (chooseCycle) in every partition, then
// what is shared.
func (e *engine) step() error {
	if la := e.ahead; la != nil && la.ok {
		return e.blockStep(la)
	}
	if e.gen != nil {
		e.gen()
	}
	return e.finishCycle()
}

// finishCycle is step once the cycle's packets are generated.
func (e *engine) finishCycle() error {
	for _, f := range e.sections {
		if f == nil {
			e.join()
			continue
		}
		e.section(f)
	}
	if err := e.join(); err != nil {
		return err
	}
	if e.tracing {
		e.trace(Event{Kind: Tick, Node: -1, Port: -1, VC: -1, InPort: -1, InVC: -1, Packet: -1,
			Generated: e.nextID, Delivered: e.delivered, InNet: e.inNet})
	}
	if e.lookDue() {
		if err := e.deadlockLook(); err != nil {
			return err
		}
	}
	e.t++
	return nil
}

// cycle is one partition's cycle, word by word of its routers: receive, inject,
// then route, VC and switch allocation at the word's routers (sweep). Without Latch and without
// a Sensing routing a router's phases read and write only its own state (what
// crosses to another router is an event of a later cycle, kept by the word of the
// router it acts on; a selection reads the router's own credits), so this is the
// same run as phase by phase over all routers, with each router's state loaded
// once a cycle instead of five times: on a 64x64 torus at 0.1 most routers are
// busy every cycle and their state is far larger than the cache.
//
// A Sensing routing may read the queues of other routers than the one it routes
// at (UGAL-G reads those of the source group's global channels), and in this order
// it would see some routers' credits after their switch grants of the cycle and
// others' before, and the credits arriving at later words not yet applied: its
// choices would depend on the order routers are visited in. So with one the phases
// run over all routers one after the other, in sections (step): every routing of a
// cycle reads the credits as they stand after all of the cycle's arrivals and before
// any of its switch grants (TestSensingReadsOneState), whatever the order and the
// threads.
func (e *engine) cycle(p *part) {
	all := allVCs(e.V)
	p.setAt(e.t)
	for w := p.w0; w < p.w1; w++ {
		e.receiveWord(p, w)
		e.injectWord(p, w)
		if p.err = e.sweep(p, w, all); p.err != nil {
			return
		}
	}
}

// advance is cycle without receiving (done in a section of its own).
func (e *engine) advance(p *part) {
	p.setAt(e.t)
	if e.cfg.Latch {
		e.inject(p)
		if p.err = e.route(p); p.err != nil {
			return
		}
		e.allocSwitch(p)
		return
	}
	all := allVCs(e.V)
	for w := p.w0; w < p.w1; w++ {
		e.injectWord(p, w)
		if p.err = e.sweep(p, w, all); p.err != nil {
			return
		}
	}
}

// injectRoute is the injection and routing phases of a cycle with a Sensing
// routing (receiving done in a section before): nothing written here is read by a
// routing, so the partitions may run them at once.
func (e *engine) injectRoute(p *part) {
	e.inject(p)
	p.err = e.route(p)
}

// allocate is VC and switch allocation of a cycle with a Sensing routing, once
// every router has routed.
func (e *engine) allocate(p *part) {
	if p.err != nil {
		return
	}
	e.allocVCs(p)
	e.allocSwitch(p)
}

// sweep runs route, VC and switch allocation at the busy routers of word w. A
// router's phases read and write only its own state (cycle), so they may run
// router after router or phase after phase over the word's routers: the same
// run. Phase after phase, each visits only the routers it acts at, from their
// mask, and no test per router asks whether one has a head to route or one
// waiting for a VC (both as likely as not at a busy router: such a branch is
// mispredicted about half the time). A traced run goes router after router,
// so that its events keep their order.
func (e *engine) sweep(p *part, w int, all uint64) error {
	fast := e.fastSwitch()
	if !e.tracing {
		// the routers with a head that may take a VC now: those routed in this
		// cycle wait Route cycles first, so with Route > 0 the routers that had a
		// waiting head before routing (a router whose only waiting heads were
		// routed now would find none due: 29k of 104k visits on torus:8x8 at 0.4)
		waiting := e.waiting.rtrs[w]
		for word := e.unrouted.rtrs[w]; word != 0; word &= word - 1 {
			if err := e.routeAt(int32(w<<6|bits.TrailingZeros64(word)), all); err != nil {
				return err
			}
		}
		if e.p.Route == 0 {
			waiting = e.waiting.rtrs[w]
		}
		for word := waiting; word != 0; word &= word - 1 {
			e.allocVCsAt(p, int32(w<<6|bits.TrailingZeros64(word)))
		}
		if fast {
			e.allocFlat(p, w, e.busyRtr[w])
			return nil
		}
		for word := e.busyRtr[w]; word != 0; word &= word - 1 {
			e.allocRouter(p, int32(w<<6|bits.TrailingZeros64(word)))
		}
		return nil
	}
	for word := e.busyRtr[w]; word != 0; word &= word - 1 {
		r := int32(w<<6 | bits.TrailingZeros64(word))
		if e.unrouted.ports[r] != 0 {
			if err := e.routeAt(r, all); err != nil {
				return err
			}
		}
		if e.waiting.ports[r] != 0 {
			e.allocVCsAt(p, r)
		}
		if fast {
			e.allocFlat(p, w, 1<<uint(r&63))
		} else {
			e.allocRouter(p, r)
		}
	}
	return nil
}

// section runs f on every partition, on as many goroutines (barrier.go).
func (e *engine) section(f func(*part)) {
	if len(e.parts) == 1 {
		f(e.parts[0])
		return
	}
	e.bar.section(f, e.parts)
}

// join does what the partitions share once they are done: the counts summed, the
// deliveries of the cycle (partition by partition, so in router order) told to the
// run and their packets freed; the first partition's error, if any.
func (e *engine) join() error {
	var err error
	for _, p := range e.parts {
		e.inNet += p.inNet
		p.inNet = 0
		e.lastMove = max(e.lastMove, p.lastMove)
		for _, i := range p.done {
			pk := &e.packets[i]
			e.delivered++
			e.srcOut[pk.st]--
			if e.onDeliver != nil {
				e.onDeliver(pk, e.t)
			}
			if pk.batch < 0 {
				e.free = append(e.free, i)
			}
		}
		p.done = p.done[:0]
		if err == nil {
			err = p.err
		}
		p.err = nil
	}
	return err
}

// startWorkers starts a goroutine for each partition but the first, which the
// caller's runs; stopWorkers ends them.
func (e *engine) startWorkers() {
	lock := e.timed()
	if lock {
		runtime.LockOSThread()
	}
	if len(e.parts) == 1 {
		return
	}
	b := newBarrier(len(e.parts) - 1)
	e.bar = b
	for i := range b.wake {
		p := e.parts[i+1]
		go func() {
			if lock {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			b.serve(i, p)
		}()
	}
}

func (e *engine) stopWorkers() {
	if e.timed() {
		runtime.UnlockOSThread()
	}
	if b := e.bar; b != nil {
		b.stop()
		if s := e.cfg.blocks; s != nil {
			spins, wins := b.spinCounts()
			s.spins += spins
			s.spinWins += wins
		}
		e.bar = nil
	}
}

// timed reports that the partitions' parts of blocks are timed on their threads
// (blockStats.clock): each goroutine of a run is then kept on one thread.
func (e *engine) timed() bool { return e.cfg.blocks != nil && e.cfg.blocks.clock != nil }

// busyRouters is the number of routers holding a flit.
func (e *engine) busyRouters() int {
	n := 0
	for _, p := range e.parts {
		n += p.nBusy
	}
	return n
}

// srcActive is the number of sources with a packet.
func (e *engine) srcActive() int {
	n := 0
	for _, p := range e.parts {
		n += p.nSrc
	}
	return n
}
