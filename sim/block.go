package sim

import (
	"sync/atomic"
	"unsafe"
)

// Blocks: several cycles word by word. On a large network every router holds
// flits every cycle and the state the routers touch in a cycle is far larger than
// the caches (64x64 torus at 0.1: several MB), so a cycle-by-cycle sweep loads
// each router's state from memory once a cycle. What one router does in cycle t
// reaches another only through an event at least d cycles ahead (a flit over a
// link, SwAlloc + Traverse + its latency; a credit upstream, its credit delay),
// so with d >= 2 the cycles t .. t+d-1 of a word of routers read nothing another
// word writes in those cycles: the word may run all of them one after the other
// while its state is in cache (the temporal blocking of stencil codes), and the
// next word then runs the same cycles. What is shared is done per cycle as before:
// each cycle's deliveries reach the run in router order, the deadlock test runs at
// the block's end (a block never spans a cycle at which it could fire), and the
// arrivals of the block's later cycles are generated before the block, in cycle
// order, drawing the same numbers (they wait in their source queues, which inject
// no packet before its cycle). So a run is the same, byte for byte, blocked or not
// (scripts/sim-outputs.sh, TestBlocksSameRun).
//
// On several threads the partitions' threads (part.go) run the block at once,
// sharing its words (claims), with a barrier per block instead of per cycle.
// The lemma: in a block of n cycles from t, with n at most the least delay d
// of an event from a router to another, no router reads what another router
// writes in the block. An event made in cycle t+j (j < n) is due at t+j+d >= t+n,
// after the block; so the events read in the block, due at t .. t+n-1, were
// all made before t, and each router's cycles in the block read its own state
// and those events alone, whatever the order of the words and of the
// partitions, and whatever the thread each word runs on. What crosses threads
// does so in wheels: a thread puts events in its partition's wheels alone, and
// takes a word's events from every partition's (wheel.takeFar leaves another
// partition's buckets ahead alone).
// Each partition runs its words on its own copy of the engine's fields
// (part.view), sharing the arrays: its cycle e.t is its own, as its thread is
// at another cycle than the others. The join after the block is the same as
// on one thread: each cycle's deliveries word by word, so in router order.
//
// The arrivals' checks (a source queue past Measure.MaxQueue, the packet table past
// the memory budget) are the one thing a block changes: generated ahead, a cycle's
// arrivals see its queues before the injections of the cycles before it, and the
// packets delivered there not yet freed, counts that can only be larger. When they
// pass a bound, pre-generation stops there and those cycles run one by one, each
// checking its arrivals exactly (lookahead.recheck) before it runs.

// maxSpan bounds the cycles of a block.
const maxSpan = 16

// blockFrom is the state a cycle touches (cycleBytes) from which a run takes
// blocks. Below it the state stays in the caches from one cycle to the next and
// blocks only lengthen its reuse: cachegrind with this machine's L1 and L2 (32 kB,
// 1 MB) counts more misses past the L2 with blocks on the 1,056-terminal
// dragonfly (1.1 MB: 1.34 -> 1.82 a flit-hop) and on the 32x32 torus (2.4 MB:
// 3.78 -> 3.98), and fewer on the 64x64 torus (9.7 MB: 8.13 -> 5.19), with
// 8-byte flits and 56-byte input ports; with 4-byte flits and 64-byte input
// ports (4 VCs of 8 flits) those tori touch 1.80 and 7.21 MB, the 40x40 and
// 48x48 tori 2.82 and 4.06 MB (TestCycleBytesFigures), and 3 MB keeps the same
// networks on each side.
// On several threads a run takes blocks whatever its size: a block is a barrier
// instead of one a cycle, and each core's L2 holds its partition's half. Two
// threads on the 40x40 torus at 0.1 spent 94-95 CPU-ns a flit-hop in blocks,
// 107-124 without, 108-112 on one thread (without); on 32x32 97 against 111
// and 99 (load 9-13: others' runs).
const blockFrom = 3 << 20

// lookahead is what a run gives the engine to run cycles in blocks (RunOpen): the
// cycle of its next look at the stop rule (no block reaches it), whether the run
// stops after the current cycle (a check of its arrivals fired), arrivals of the
// cycle e.t generated ahead of the cycles before it (first: the first of a block;
// false when a check might fire: generate no further), and the exact checks of
// cycle e.t's arrivals generated ahead, at their own time. ok is set by
// chooseCycle: the run may take blocks.
type lookahead struct {
	until   int64
	stopped func() bool
	ahead   func(first bool) bool
	recheck func()
	ok      bool
	// cut: a block ended in a routing error, which the words before the one
	// that met it have run past (their later cycles are not undone): the run
	// so far is not the one cycle by cycle, and RunOpen runs it again without
	// blocks (TestBlocksRoutingError)
	cut bool
}

// blockStats counts a run's blocks (Config.blocks): blocks run and their cycles,
// and the cycles run one by one after arrivals generated ahead (a check might
// have fired). With clock (a thread's CPU time in nanoseconds) it times each
// partition's part of every block on its own thread (each goroutine then kept
// on one): work sums them, crit sums the longest of each block, so that the run
// on as many idle cores takes about its CPU time less work plus crit, whatever
// the load when it is measured (BenchmarkThreads' crit-ns/flit-hop).
type blockStats struct {
	blocks, cycles, rechecked int64
	clock                     func() int64
	crit, work                int64
	// spins the barrier's waiters tried (barrier.go), and those that saw
	// their count reached before they would have slept
	spins, spinWins int64
	// stolen: words a thread ran of another partition's, or on the ring
	// past an even split (claims)
	stolen int64
}

// blockSpan is the cycles a block may span: the least delay of an event from a
// router to another (a flit's over a link, a credit's upstream), at most maxSpan.
func (e *engine) blockSpan() int {
	d := int32(maxSpan)
	for _, op := range e.out {
		if op.next >= 0 {
			d = min(d, op.d)
		}
	}
	for _, ip := range e.in {
		if ip.prev >= 0 {
			d = min(d, ip.dCred)
		}
	}
	return max(1, int(d))
}

// cycleBytes is the state a cycle touches when every router holds flits: per
// input port its record and per VC its state, ready cycle and the first line of
// its ring; per output port its record and per VC its credits.
func (e *engine) cycleBytes() int64 {
	const (
		inB    = int64(unsafe.Sizeof(inPort{}))
		vcB    = int64(unsafe.Sizeof(inVC{}))
		readyB = int64(unsafe.Sizeof(vcHead{}.ready))
		outB   = int64(unsafe.Sizeof(outPort{}))
		ovB    = int64(unsafe.Sizeof(outVC{}))
	)
	S := int64(1) << e.vs
	ring := int64(min(e.ring, homeSlots)) * int64(unsafe.Sizeof(flit(0)))
	in := int64(len(e.in)) * (inB + S*(vcB+readyB+ring))
	return in + int64(len(e.out))*(outB+S*ovB)
}

// blockWheelLen is the wheel length wl doubled until it exceeds the longest
// delay plus span-1: a block schedules events up to span-1 cycles later than a
// cycle would, and a bucket must not be one a word yet to run the block's first
// cycle has still to take. partition builds the wheels with it and EngineBytes
// (wheelShape) estimates them with it.
func blockWheelLen(wl, longest, span int) int {
	for wl <= longest+span-1 {
		wl *= 2
	}
	return wl
}

// longestDelay is the longest delay of an event the engine schedules (wheelLen's
// bound): a flit's to the next buffer or its sink, a credit's, an injection's.
func (e *engine) longestDelay() int {
	p := e.cfg.Pipeline
	d := max(1, p.Inject, p.Credit, p.SwAlloc+p.Traverse+p.Eject)
	for _, op := range e.out {
		d = max(d, int(op.d))
	}
	for _, ip := range e.in {
		d = max(d, int(ip.dCred))
	}
	return d
}

// blockStep is step with a lookahead: the cycles from e.t on, as many as a block
// may take (its span, before the next look, before a deadlock could be declared),
// word by word, or one if that is none.
func (e *engine) blockStep(la *lookahead) error {
	t := e.t
	e.gen()
	n := int64(e.parts[0].span)
	n = min(n, la.until-t)
	// the deadlock test at the end of cycles t .. t+n-2 must not fire: it reads
	// lastMove, at least as large then as now
	n = min(n, int64(e.cfg.DeadlockCycles)+e.lastMove-t+1)
	if e.partial != nil {
		// nor past a look for a deadlock of part of the network
		n = min(n, e.partialNext(t)-t+1)
	}
	if n < 2 || la.stopped() {
		return e.finishCycle()
	}
	for j := int64(1); j < n; j++ {
		e.t = t + j
		if !la.ahead(j == 1) {
			// a check might fire in cycle t+j: cycles t .. t+j one by one
			e.t = t
			if s := e.cfg.blocks; s != nil {
				s.rechecked += j + 1
			}
			for k := range j + 1 {
				if k > 0 {
					la.recheck()
				}
				if err := e.finishCycle(); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if s := e.cfg.blocks; s != nil {
		s.blocks++
		s.cycles += n
	}
	return e.block(t, int(n))
}

// block runs cycles t .. t+n-1 on every partition at once, each on its own
// thread and word by word (blockWords), then what is shared, cycle by cycle: a
// cycle's deliveries word by word (claims.order), so in router order. A routing
// error stops a word's cycles after its own; the error returned is the first
// in a cycle by cycle run's order (the least cycle, then the least word), and
// the run is then done again without blocks (lookahead.cut).
func (e *engine) block(t int64, n int) error {
	c := e.claims
	for _, p := range e.parts {
		*p.view = *e
		p.t0, p.n = t, n
		p.rev = !p.rev
	}
	c.reset(e.parts)
	e.section(e.words)
	stolen := c.turn(len(e.parts))
	s := e.cfg.blocks
	if e.timed() {
		var longest int64
		for _, p := range e.parts {
			longest = max(longest, p.cpu)
			s.work += p.cpu
		}
		s.crit += longest
	}
	var err error
	errJ, errW := n, 0
	for _, p := range e.parts {
		*p.view = engine{} // the copy holds no array past its block
		if p.err != nil && (p.errJ < errJ || p.errJ == errJ && p.errW < errW) {
			err, errJ, errW = p.err, p.errJ, p.errW
		}
		p.err = nil
		stolen += p.stolen
		p.stolen = 0
	}
	if s != nil {
		s.stolen += int64(stolen)
	}
	first := e.parts[0]
	own := first.done
	for j := range min(n, errJ+1) {
		e.t = t + int64(j)
		first.done = c.order(e.parts, j, c.merged[:0])
		jerr := e.join()
		c.merged = first.done
		if jerr != nil && err == nil {
			err = jerr
		}
	}
	first.done = own
	for _, p := range e.parts {
		for j := range p.dones {
			p.dones[j] = p.dones[j][:0]
		}
	}
	if err != nil {
		e.ahead.cut = true
		return err
	}
	if e.lookDue() {
		if err := e.deadlockLook(); err != nil {
			return err
		}
	}
	e.t++
	return nil
}

// blockWords runs partition p's part of a block (block), on p's thread: cycles
// p.t0 .. p.t0+p.n-1 word by word on p's copy of the engine (part.view), whose
// cycle is its own, over the words it claims (claims.next), in an order that
// begins each block where the thread ended the last one, where it can. A
// routing error stops the cycles after its own in the words
// claimed after it; p.err, p.errJ and p.errW keep the first in a cycle by
// cycle run's order (the run is done again without blocks: what the words
// ran past it is dropped).
func (e *engine) blockWords(p *part) {
	v, t, n := p.view, p.t0, p.n
	clock := func() int64 { return 0 }
	if v.timed() {
		clock = v.cfg.blocks.clock
	}
	c0 := clock()
	all := allVCs(v.V)
	c := v.claims
	errJ, errW := n, 0 // the first error's cycle and word, in a cycle by cycle run's order
	// a move sets p.lastMove to its cycle, and the words run their cycles one
	// after the other: the block's last move is the latest of any word's, not
	// the last word's (TestBlocksDeadlockManyWords)
	moved := p.lastMove
	own := p.done // the part's cycle by cycle deliveries, empty: kept for them
	for {
		w := c.next(p, v.parts)
		if w < 0 {
			break
		}
		stop := errJ // the word runs cycles t .. t+stop-1
		for j := range n {
			seg := &c.segs[j*c.words+w]
			seg.part = int32(p.id)
			seg.lo = int32(len(p.dones[j]))
			if j < stop {
				v.t = t + int64(j)
				p.done = p.dones[j]
				p.setAt(v.t)
				v.receiveWord(p, w)
				v.injectWord(p, w)
				werr := v.sweep(p, w, all)
				p.dones[j] = p.done
				if werr != nil {
					if j < errJ || (j == errJ && w < errW) {
						p.err, errJ, errW = werr, j, w
					}
					stop = j + 1
				}
			}
			seg.hi = int32(len(p.dones[j]))
		}
		moved = max(moved, p.lastMove)
	}
	p.lastMove = moved
	p.errJ, p.errW = errJ, errW
	p.done = own
	p.cpu = clock() - c0
}

// claims is how a block's words are shared among the partitions' threads
// (blockWords), so that a thread kept from running (other processes, the
// host's) or slowed (its words busier) leaves words to the others instead of
// making them wait at the barrier. The lemma above holds whatever the thread a
// word's cycles run on, and a word's events are taken from every partition's
// wheels (receiveWord), so the run is the same whichever claims what.
//
// Two threads (the ring) share one range of the words, taken as a ring from
// start: one thread claims from its low end, the other from its high end, so
// that they meet where their speeds put them, and each next block starts
// where the last one met, with the ends swapped: each thread begins where it
// ended, on the words still in its caches (a sweep in one direction over more
// state than the cache holds would find none of it there), whoever was
// faster. More threads claim their partition's words (wordRange), every other
// block from the last one (part.rev, for the same reason), and then words of
// partitions whose threads have not reached them, from the far end.
//
// segs is, per cycle of a block and word, the partition that ran it and its
// deliveries' range in that partition's dones of the cycle, read in word
// order (order); merged the cycle's deliveries so ordered.
type claims struct {
	words      int
	segs       []wordSeg
	merged     []int32
	stealFirst bool // Config.stealFirst
	// the ring: its words not yet claimed, lo..hi-1 from start (mod words),
	// and the partition claiming its low end
	ring  wordRange
	start int
	low   int
}

type wordSeg struct{ part, lo, hi int32 }

func newClaims(words, span int, stealFirst bool) *claims {
	return &claims{words: words, segs: make([]wordSeg, words*span), stealFirst: stealFirst}
}

// wordRange is words not yet claimed in a block, lo..hi-1 as lo<<32 | hi,
// alone on its cache line.
type wordRange struct {
	r atomic.Uint64
	_ [56]byte
}

// reset gives each partition back its words for a block, and the ring its
// words (once a block, not once a partition).
func (c *claims) reset(parts []*part) {
	for _, p := range parts {
		p.claim.r.Store(uint64(p.w0)<<32 | uint64(p.w1))
	}
	c.ring.r.Store(uint64(c.words))
}

// ringed reports that k threads share the ring.
func (c *claims) ringed(k int) bool { return k == 2 && !c.stealFirst }

// turn readies the ring for the next block after one of k threads: it starts
// where this one's ends met, with the ends swapped. It returns the words
// the low end's thread ran past half the ring, or the other's (0 without a
// ring).
func (c *claims) turn(k int) int {
	if !c.ringed(k) {
		return 0
	}
	met := int(c.ring.r.Load() >> 32)
	c.start = (c.start + met) % c.words
	c.low = 1 - c.low
	return max(met-c.words/2, c.words/2-met)
}

// take claims the word at r's low end, or with back at its high end; -1: none.
func (r *wordRange) take(back bool) int {
	for {
		x := r.r.Load()
		lo, hi := x>>32, x&(1<<32-1)
		if lo >= hi {
			return -1
		}
		w, y := lo, (lo+1)<<32|hi
		if back {
			w, y = hi-1, lo<<32|(hi-1)
		}
		if r.r.CompareAndSwap(x, y) {
			return int(w)
		}
	}
}

// next is the next word p's thread runs in a block; -1 when every word is
// claimed. On the ring: from its end. Else its own from the end its direction
// starts at (p.rev), then another partition's from the end that partition's
// thread reaches last.
func (c *claims) next(p *part, parts []*part) int {
	if c.ringed(len(parts)) {
		w := c.ring.take(p.id != c.low)
		if w < 0 {
			return -1
		}
		return (c.start + w) % c.words
	}
	if !c.stealFirst {
		if w := p.claim.take(p.rev); w >= 0 {
			return w
		}
	}
	for i := 1; i < len(parts); i++ {
		q := parts[(p.id+i)%len(parts)]
		if w := q.claim.take(!q.rev); w >= 0 {
			p.stolen++
			return w
		}
	}
	return p.claim.take(p.rev)
}

// order appends the deliveries of a block's cycle j to out in router order:
// word by word, each from the partition that ran it.
func (c *claims) order(parts []*part, j int, out []int32) []int32 {
	some := false
	for _, p := range parts {
		some = some || len(p.dones[j]) > 0
	}
	if !some {
		return out
	}
	for _, s := range c.segs[j*c.words : (j+1)*c.words] {
		if s.hi > s.lo {
			out = append(out, parts[s.part].dones[j][s.lo:s.hi]...)
		}
	}
	return out
}
