package sim

// Memory estimates: a run is refused before it allocates when its estimate is above
// Config.MaxMemory (issue 26: a huge --buf, many VCs of deep buffers on a large
// torus or a network of millions of routers ended in "fatal error: out of memory").
// The estimates count the tables newEngine allocates, by the sizes of the engine's
// own types, and what a run keeps as it goes (source queues up to their bound,
// delivery records, channel snapshots); TestMemoryEstimate checks them against the
// bytes the runtime reports allocated.

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/topology"
)

// MemoryError is a run refused because its estimate is above the budget.
type MemoryError struct {
	// What the estimate is of, Need the estimate and Budget Config.MaxMemory, in
	// bytes; Detail, when set, says what the estimate is made of.
	What         string
	Need, Budget int64
	Detail       string
}

func (e *MemoryError) Error() string {
	d := ""
	if e.Detail != "" {
		d = " (" + e.Detail + ")"
	}
	return fmt.Sprintf("sim: %s needs about %s%s, more than the memory budget of %s", e.What, Bytes(e.Need), d, Bytes(e.Budget))
}

// Bytes prints a size in binary units ("4.0 GiB").
func Bytes(b int64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := int64(unit), 0
	for n := b / unit; n >= unit && exp < 4; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTP"[exp])
}

// ports counts a network's global input and output ports as newEngine numbers
// them (an injection port per router, or one per output port with
// InjectPerPort; an ejection port per router), its injection queues and the
// largest port count of a router.
func ports(net topology.Network, perPort bool) (nin, nout, nq, maxPorts int64) {
	tm := topology.TerminalsOf(net)
	for r := range net.Nodes() {
		in, out, inj := nodePorts(net, tm, r, perPort)
		nin += int64(in)
		nout += int64(out)
		nq += int64(inj)
		maxPorts = max(maxPorts, int64(in), int64(out))
	}
	return
}

// nodePorts is router r's input and output ports in the engine (newEngine) and
// its injection ports: its network ports plus an injection port per injector of
// tm (per output port with perPort) and an ejection port per ejector, at least
// one of each.
func nodePorts(net topology.Network, tm *topology.TerminalMap, r int, perPort bool) (in, out, inj int) {
	inj = max(1, int(tm.Injectors[r]))
	if perPort {
		inj = max(1, net.Ports(r))
	}
	return net.InPorts(r) + inj, net.Ports(r) + max(1, int(tm.Ejectors[r])), inj
}

// EngineBytes estimates the memory newEngine allocates for cfg: per input VC its
// buffer of Buf flits, its state and the array its heads' choices grow to (the
// routing's MaxChoices), per output VC its owner, credits and arbiter, per port
// and router their tables and random streams, and each partition's event wheels
// (wheelShape). VC tables have a power of two of entries per port (1 << vs >=
// VCs). O(ports) to compute.
func EngineBytes(cfg *Config) int64 {
	if cfg.Net == nil || cfg.VCs < 1 || cfg.Buf < 1 {
		return 0
	}
	return engineBytes(countsOf(cfg), cfg.VCs, cfg.Buf)
}

// countsOf is the counts of cfg's network and rules EngineBytes reads.
func countsOf(cfg *Config) engineCounts {
	var c engineCounts
	c.nin, c.nout, c.nq, c.maxPorts = ports(cfg.Net, cfg.InjectPerPort)
	c.routers = int64(cfg.Net.Nodes())
	c.terms = int64(topology.TerminalsOf(cfg.Net).Len())
	c.parts, c.slots, c.buckets, c.span = wheelShape(cfg)
	_, flat := cfg.Arbiter.(flatArbitration)
	c.switchArbs = !flat && cfg.Arbiter != nil
	_, c.rotate = cfg.Select.(RotatingSelector)
	c.swin = customInput(cfg.SwitchInput) != nil
	c.choices = choiceBytes(MaxChoices(cfg.Routing))
	return c
}

// choiceBytes is the heap a head's choices take once a routing gave it m: none
// for one (vcHead.own holds it), else the array append grows from own's one
// choice by one choice at a time, as the routings append (its capacity is the
// allocator's size class, so the runtime's growth rule is the one counted).
// Steering a batch's packet (Packet.Steer) adds a choice, not counted.
func choiceBytes(m int) int64 {
	if m <= 1 {
		return 0
	}
	var own [1]Choice
	ch := own[:0]
	for range m {
		ch = append(ch, Choice{})
	}
	return int64(cap(ch)) * int64(unsafe.Sizeof(Choice{}))
}

// engineCounts are the counts of a network EngineBytes reads: routers, global
// input and output ports, injection queues, the largest port count of a router,
// terminals, the partitions, slots and buckets of one partition's event wheels
// (wheelShape) and a block's span, whether the arbiters are per port,
// whether the rules keep pointers of their own (a rotating selection's per input
// VC, a custom switch input stage's per input port) and the heap bytes of a
// VC's choices (choiceBytes).
type engineCounts struct {
	routers, nin, nout, nq, maxPorts, terms, parts, slots, buckets, span int64
	switchArbs, rotate, swin                                             bool
	choices                                                              int64
}

// streamBytes is what EngineBytes counts for a random stream: a *rand.Rand,
// its Rand and its PCG.
const streamBytes = 48

// engineBytes is EngineBytes of a network of counts c with V VCs of B flits;
// it grows with every count.
func engineBytes(c engineCounts, vcs, buf int) int64 {
	nin, nout, nq, maxPorts, n := c.nin, c.nout, c.nq, c.maxPorts, c.routers
	V, B := int64(vcs), int64(buf)
	S := int64(1) << bits.Len(uint(V-1)) // VC numbers per port
	const (
		i32, i64, ptr = 4, 8, 8
		slice         = int64(unsafe.Sizeof([]int{}))
		iface         = 2 * ptr
		arbObj        = 16 // the registered arbiters' objects, rounded up
		stream        = streamBytes
	)
	flitB := int64(unsafe.Sizeof(flit(0)))
	inVCs := satarith.Mul(nin, S)
	outVCs := satarith.Mul(nout, S)
	switchArbs := int64(0)
	if c.switchArbs {
		switchArbs = satarith.Mul(nin+nout, iface+arbObj) // inArb, outArb
	}
	rules := int64(0)
	if c.rotate {
		rules = satarith.Add(rules, satarith.Mul(inVCs, i32)) // rotate
	}
	if c.swin {
		rules = satarith.Add(rules, satarith.Mul(nin, i32)) // inOut
	}
	rules = satarith.Add(rules, satarith.Mul(satarith.Mul(nin, V), c.choices)) // heads' choices
	// every partition's buckets (what newEngine allocates), and the arrays the
	// buckets fill as the run goes, 64 bytes a slot of each of the five wheels
	wheels := satarith.Add(satarith.Mul(satarith.Mul(c.parts, c.buckets), slice), satarith.Mul(c.slots, 5*64))
	// every partition's own record, its view of the engine, its pick and omask,
	// its span's done lists, its requests per output port and VC and their masks
	// per output VC (vreqs); the claims' segments, a span's per word
	perPart := int64(unsafe.Sizeof(part{})+unsafe.Sizeof(engine{})) + 64*i32 + 64*i64 +
		satarith.Mul(c.span, slice) + satarith.Mul(satarith.Mul(maxPorts, S), slice+i64)
	parts := satarith.Add(satarith.Mul(c.parts, perPart),
		satarith.Mul(satarith.Mul((n+63)/64, c.span), int64(unsafe.Sizeof(wordSeg{}))))
	terms := c.terms
	// makeHuge's padding of the arrays it makes (buf, vc, heads, in, out, ov)
	inB, vcB, headB := int64(unsafe.Sizeof(inPort{})), int64(unsafe.Sizeof(inVC{})), int64(unsafe.Sizeof(vcHead{}))
	outB, ovB := int64(unsafe.Sizeof(outPort{})), int64(unsafe.Sizeof(outVC{}))
	bufB := satarith.Mul(satarith.Mul(inVCs, int64(ringLen(int(B)))), flitB)
	pads := int64(0)
	for _, b := range []int64{bufB, satarith.Mul(inVCs, vcB), satarith.Mul(inVCs, headB),
		satarith.Mul(nin, inB), satarith.Mul(nout, outB), satarith.Mul(outVCs, ovB)} {
		pads = satarith.Add(pads, hugePad(b))
	}
	return satarith.Add(pads,
		bufB,                                   // buf
		satarith.Mul(inVCs, vcB+headB+i32),     // vc, heads, gidx
		satarith.Mul(outVCs, ovB+iface+arbObj), // ov, ovArb
		switchArbs, rules,
		satarith.Mul(nin, inB+3*i64),                       // in, unrouted, waiting, passBy
		satarith.Mul(nout, outB+i32),                       // out, outRtr
		satarith.Mul(n, 2*i32+4*i64+i32+2*stream),          // inBase, outBase, portBusy, unrouted, waiting, parked, firstQ, rSelect, rArb
		satarith.Mul(nq, int64(unsafe.Sizeof(source{}))+1), // src, srcOn
		satarith.Mul(satarith.Mul(nq, S), i32),             // srcCredit
		satarith.Mul(terms, 2*i32), satarith.Mul(n, 3*i32), // tQ, srcOut; nports, firstT, firstEj
		wheels, parts,
	)
}

// packetBytes is the memory of one packet in the packet table and a source queue.
const packetBytes = int64(unsafe.Sizeof(packet{})) + 4

// DefaultMaxQueue is Measure.MaxQueue's default: the packets a source queue may
// hold before an open-loop point is declared saturated and stopped.
const DefaultMaxQueue = 1000

// queueAllowance is the packets per source queue OpenBytes counts: a stable
// point's queues hold a few; a run that holds more is stopped, saturated, before
// its packets pass the memory budget (RunOpen, maxAlive).
const queueAllowance = 2

// OpenBytes estimates the memory of RunOpen: the engine, the arrival wheel,
// queueAllowance packets per source queue, the record of the deliveries the
// budget of cycles can make (at most one flit per terminal per cycle, at most the
// packets generated) and the snapshots of the looks. Source queues beyond the
// allowance are bounded at run time: by m.MaxQueue per queue, and by what is left
// of Config.MaxMemory for the whole packet table.
func OpenBytes(cfg *Config, w Workload, m Measure) int64 {
	net, recs := openParts(cfg, w, m)
	return satarith.Add(net, recs)
}

// openDetail says what OpenBytes is made of.
func openDetail(cfg *Config, w Workload, m Measure) string {
	net, recs := openParts(cfg, w, m)
	return fmt.Sprintf("the routers and sources %s, the record of up to %d cycles %s", Bytes(net), m.withDefaults().MaxCycles, Bytes(recs))
}

// openParts is OpenBytes as the network's part and the part that grows with the
// cycles (the record of deliveries, the looks' snapshots).
func openParts(cfg *Config, w Workload, m Measure) (network, records int64) {
	m = m.withDefaults()
	_, nout, nq, _ := ports(cfg.Net, cfg.InjectPerPort)
	T := int64(len(topology.Terminals(cfg.Net)))
	rate := w.MsgRate
	minSize := int64(1)
	if len(w.Sizes.Flits) > 0 {
		minSize = int64(w.Sizes.Flits[0])
		for _, l := range w.Sizes.Flits {
			minSize = min(minSize, int64(max(l, 1)))
		}
		if w.Rate != 0 {
			rate = w.Rate / w.Sizes.Mean()
		}
	}
	perCycle := 1 / float64(minSize) // packets a terminal can take per cycle
	if rate > 0 && rate < perCycle {
		perCycle = rate
	}
	recs := float64(T) * float64(m.MaxCycles) * perCycle
	if math.IsNaN(recs) || recs > float64(satarith.Max) {
		recs = float64(satarith.Max)
	}
	looks := m.MaxCycles/m.Period + 2
	snap := nout // a snapshot's numbers: channels, and per-node totals
	if m.Nodes {
		snap += 6 * int64(cfg.Net.Nodes())
	}
	snaps := min(looks, 2*max(64, snapBudget/max(snap, 1))) // thinned (looks.look)
	network = satarith.Add(
		EngineBytes(cfg),
		satarith.Mul(T, 8+4+4), // next arrival, wheel entries
		satarith.Mul(satarith.Mul(nq, queueAllowance), packetBytes), // source queues of a stable point
	)
	records = satarith.Add(
		recordBytes(int64(recs), m.Exact),
		satarith.Mul(snaps, satarith.Mul(snap, 8)),
		satarith.Mul(looks, 3*8), // look times, flits generated and delivered
	)
	return network, records
}

// maxAlive is the packets RunOpen's table may hold (waiting at sources or in the
// network) within cfg.MaxMemory, given the run's estimate need: the allowance
// counted plus what the budget leaves, and never more than half of maxPackets
// (a flit names its packet in 30 bits; the run stops past the bound, at most a
// block's arrivals later).
func maxAlive(cfg *Config, need int64) int64 {
	if cfg.MaxMemory <= 0 {
		return maxPackets / 2
	}
	_, _, nq, _ := ports(cfg.Net, cfg.InjectPerPort)
	return min(maxPackets/2, nq*queueAllowance+max(0, cfg.MaxMemory-need)/packetBytes)
}

// alive is the number of packets in the packet table: waiting at their sources
// or in the network.
func (e *engine) alive() int64 { return int64(len(e.packets) - len(e.free)) }

// recordBytes is the memory of a record of n deliveries (stats.go): 6 bytes each
// and a block of five while exact, a quarter more for the analysis's scratch;
// past exact, at most maxBlocks blocks and maxSegs segments of histograms up to
// 2^16 cycles with hop sums.
func recordBytes(n int64, exact int) int64 {
	blockB := int64(unsafe.Sizeof(block{}))
	kept := min(n, int64(exact))
	b := satarith.Add(satarith.Mul(kept, 6+blockB/5+2), satarith.Mul(kept/5, 8)) // the MSER means of a look
	if n > int64(exact) {
		hist := int64(8 * (1<<10 + 6<<9))
		b = satarith.Add(b, satarith.Mul(maxBlocks, blockB+8), satarith.Mul(maxSegs, hist+64*16))
	}
	return b
}

// BatchBytes estimates the memory of RunBatch for n packets with paths of hops
// links in all: the engine and a packet each (with its batch extras).
func BatchBytes(cfg *Config, n, hops int64) int64 {
	return satarith.Add(EngineBytes(cfg), satarith.Mul(n, packetBytes+int64(unsafe.Sizeof(batchExtra{}))+3*8), satarith.Mul(hops, 4+8))
}

// checkMemory refuses need bytes above cfg.MaxMemory (0: no budget).
func (c *Config) checkMemory(what string, need int64) error {
	if c.MaxMemory > 0 && need > c.MaxMemory {
		return &MemoryError{What: what, Need: need, Budget: c.MaxMemory}
	}
	return nil
}

// describe names the network and buffers of cfg for a MemoryError.
func (c *Config) describe() string {
	return fmt.Sprintf("%s with %d VCs of %d flits", c.Net, c.VCs, c.Buf)
}

// queued is the number of packets waiting in the first source queue of node src
// (the one routed packets join), the one being injected not counted.
func (e *engine) queued(src int32) int64 {
	s := &e.src[e.tQ[src]]
	return int64(len(s.q) - int(s.head))
}

// check refuses a measurement plan with a negative or non-finite field.
func (m Measure) check() error {
	switch {
	case !(m.Level >= 0 && m.Level < 1):
		return &ConfigError{"level", fmt.Sprintf("%g outside [0, 1)", m.Level)}
	case !(m.RelHalfWidth >= 0 && m.RelHalfWidth < math.Inf(1)):
		return &ConfigError{"rel", fmt.Sprintf("%g is not a finite number >= 0", m.RelHalfWidth)}
	case m.MinCycles < 0 || m.MaxCycles < 0 || m.Period < 0:
		return &ConfigError{"cycles", "negative"}
	case m.MaxQueue < 0:
		return &ConfigError{"max-queue", "negative"}
	case m.Exact < 0:
		return &ConfigError{"exact", "negative"}
	}
	return nil
}

// MaxFlits is the largest packet (flit positions are 31-bit numbers).
const MaxFlits = 1<<31 - 1

// idle reports that no event is due and no source holds a packet: nothing can
// happen any more without new arrivals.
func (e *engine) idle() bool {
	if e.srcActive() > 0 { // a partition's count may be below 0 (claims, block.go)
		return false
	}
	for _, p := range e.parts {
		if !p.injects.empty() || !p.delivers.empty() || !p.srcCreds.empty() || !p.links.empty() || !p.credits.empty() {
			return false
		}
	}
	return true
}

// wheelShape is the event wheels newEngine makes for cfg (partition): parts
// partitions (the threads of cfg, at most one a word of 64 routers), each with
// five wheels of slots slots (wheelLen, doubled while not above the longest
// delay plus a block's span less one) over all the words, whose buckets (one
// per slot, word and delay class) number buckets in all: slots times words times the classes of
// the links' delays and of the credits' (a class per distinct delay, at most
// maxClasses each) and one each for injections, deliveries and sources'
// credits. O(ports).
func wheelShape(cfg *Config) (parts, slots, buckets, span int64) {
	net, p := cfg.Net, cfg.Pipeline
	n := net.Nodes()
	words := (n + 63) / 64
	// a port's delays where no link latency sets them (ejection and injection
	// ports keep them)
	dOut, dIn := p.SwAlloc+p.Traverse+p.Link, p.Credit
	longest, delay := 0, max(1, p.Inject, p.Credit, p.SwAlloc+p.Traverse+p.Eject, dOut, dIn)
	var dLink, dCred []int
	for r := range n {
		for q := range net.Ports(r) {
			if next, _ := net.Link(r, q); next < 0 {
				continue
			}
			d, dc := dOut, dIn
			if lat := topology.Latency(net, r, q); lat > 0 {
				d, dc = p.SwAlloc+p.Traverse+lat, max(1, p.Credit-p.Link+lat)
				longest = max(longest, lat, p.Credit-p.Link+lat)
			}
			delay = max(delay, d, dc)
			if !slices.Contains(dLink, d) {
				dLink = append(dLink, d)
			}
			if !slices.Contains(dCred, dc) {
				dCred = append(dCred, dc)
			}
		}
	}
	sp, classes := maxSpan, 2 // no link: blocks of maxSpan (blockSpan), a class each
	if len(dLink) > 0 {
		sp = max(1, min(maxSpan, slices.Min(dLink), slices.Min(dCred)))
		classes = min(len(dLink), maxClasses) + min(len(dCred), maxClasses)
	}
	wl := blockWheelLen(wheelLen(p, longest), delay, sp)
	parts = int64(max(1, min(threads(cfg, n), words)))
	return parts, int64(wl), satarith.Mul(int64(wl), satarith.Mul(int64(words), int64(classes+3))), int64(sp)
}

// hugeSize is a huge page's size (2 MB on amd64 and arm64 Linux).
const hugeSize = 2 << 20

// hugePad is the bytes makeHuge adds to an array of bytes bytes so that it may
// start on a huge page: a page's worth from hugeSize on (none below, where
// makeHuge is make). EngineBytes counts it for each array made so.
func hugePad(bytes int64) int64 {
	if bytes < hugeSize {
		return 0
	}
	return hugeSize
}
