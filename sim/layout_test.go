package sim

import (
	"math"
	"math/bits"
	"testing"
	"unsafe"

	"github.com/wormlab/wormlab/topology"
)

// ringLen keeps buffers of a cache line or less as they are and pads longer ones
// to whole lines, an odd number of them from four lines on (engine.ring): 8-flit
// rings stay half a line, 256-flit rings (a dragonfly's) take 272 slots, 17 lines.
func TestRingLen(t *testing.T) {
	for B := 1; B <= 600; B++ {
		got := ringLen(B)
		if B <= homeSlots {
			if got != B {
				t.Fatalf("ringLen(%d) = %d, want %d", B, got, B)
			}
			continue
		}
		lines := got / homeSlots
		if got%homeSlots != 0 || got < B || got-B >= 2*homeSlots {
			t.Fatalf("ringLen(%d) = %d: not the least whole lines (or one more) holding %d slots", B, got, B)
		}
		if lines >= 4 && lines%2 == 0 {
			t.Fatalf("ringLen(%d) = %d: an even number of lines (%d)", B, got, lines)
		}
		if need := (B + homeSlots - 1) / homeSlots; lines != need && (need < 4 || need%2 != 0 || lines != need+1) {
			t.Fatalf("ringLen(%d) = %d lines, the least %d", B, lines, need)
		}
	}
	if got := ringLen(256); got != 272 {
		t.Fatalf("ringLen(256) = %d, want 272", got)
	}
}

// The records' layout the engine's comments describe: an input VC in 16 bytes
// (four a cache line), an input port in 64, an output port in 32, a flit in 4 (homeSlots a line), a VC's head (choices, ready cycle) in 64, and a packet's fields that
// routing and every flit's injection and delivery read (Header, size, sent, got,
// terminals, class) within its first 64 bytes, the record two lines (a batch's
// path, steering and hops apart).
func TestRecordLayout(t *testing.T) {
	if s := unsafe.Sizeof(inVC{}); s != 16 {
		t.Errorf("inVC is %d bytes, want 16", s)
	}
	if s := unsafe.Sizeof(inPort{}); s != 64 {
		t.Errorf("inPort is %d bytes, want 64 (a cache line)", s)
	}
	if s := unsafe.Sizeof(outPort{}); s != 32 {
		t.Errorf("outPort is %d bytes, want 32 (two a line)", s)
	}
	if s := unsafe.Sizeof(vcHead{}); s != 64 {
		t.Errorf("vcHead is %d bytes, want 64 (a cache line)", s)
	}
	if s := unsafe.Sizeof(flit(0)); s*homeSlots != 64 {
		t.Errorf("flit is %d bytes: %d slots do not fill a 64-byte line", s, homeSlots)
	}
	var pk packet
	if end := unsafe.Offsetof(pk.class) + unsafe.Sizeof(pk.class); end > 64 {
		t.Errorf("a packet's hot fields end at byte %d, past its first 64", end)
	}
	for name, off := range map[string]uintptr{"h": unsafe.Offsetof(pk.h), "size": unsafe.Offsetof(pk.size), "sent": unsafe.Offsetof(pk.sent),
		"got": unsafe.Offsetof(pk.got), "dt": unsafe.Offsetof(pk.dt), "st": unsafe.Offsetof(pk.st)} {
		if off >= unsafe.Offsetof(pk.class) {
			t.Errorf("packet.%s at byte %d, after class", name, off)
		}
	}
	if off := unsafe.Offsetof(pk.id); off != 64 {
		t.Errorf("packet.id at byte %d, want 64 (the second line)", off)
	}
	if s := unsafe.Sizeof(pk); s != 128 {
		t.Errorf("packet is %d bytes, want 128 (two lines)", s)
	}
}

// A flit names its packet in 30 bits (flit): an open-loop run's packet table
// stops at half of maxPackets, with a memory budget or without, so that the
// arrivals of a block past the bound still have indices; flitOf and its
// accessors keep a packet's index and its head and tail marks apart.
func TestFlitIndex(t *testing.T) {
	net, err := topology.Parse("torus:4x4")
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int64{0, 1 << 40, 1 << 62} {
		if got := maxAlive(&Config{Net: net, MaxMemory: budget}, 0); got > maxPackets/2 || got < 1 {
			t.Errorf("budget %d: maxAlive %d, want 1 to maxPackets/2 = %d", budget, got, maxPackets/2)
		}
	}
	// without a budget the bound is exactly half (RunOpen's reason names it by that value)
	if got := maxAlive(&Config{Net: net}, 0); got != maxPackets/2 {
		t.Errorf("no budget: maxAlive %d, want maxPackets/2 = %d", got, maxPackets/2)
	}
	for _, c := range []struct{ pkt, seq, size int32 }{{0, 0, 1}, {maxPackets - 1, 0, 3}, {maxPackets - 1, 1, 3}, {5, 2, 3}, {7, 0, MaxFlits}} {
		f := flitOf(c.pkt, c.seq, c.size)
		if f.pkt() != c.pkt || f.head() != (c.seq == 0) || f.tail() != (c.seq == c.size-1) {
			t.Errorf("flitOf(%d, %d, %d): packet %d head %v tail %v", c.pkt, c.seq, c.size, f.pkt(), f.head(), f.tail())
		}
	}
}

// The state a cycle touches (cycleBytes) on the tori blockFrom's comment names,
// 4 VCs of 8 flits, in MB (10^6 bytes, to two places): 32x32 1.80, 40x40 2.82,
// 48x48 4.06, 64x64 7.21; the first two below blockFrom, the others above.
func TestCycleBytesFigures(t *testing.T) {
	for _, c := range []struct {
		spec  string
		mb    float64
		block bool
	}{{"torus:32x32", 1.80, false}, {"torus:40x40", 2.82, false}, {"torus:48x48", 4.06, true}, {"torus:64x64", 7.21, true}} {
		b := torusEngine(t, c.spec).cycleBytes()
		if got := math.Round(float64(b)/1e4) / 100; got != c.mb {
			t.Errorf("%s: cycleBytes %d bytes, %.2f MB, the comment says %.2f", c.spec, b, got, c.mb)
		}
		if b >= blockFrom != c.block {
			t.Errorf("%s: cycleBytes %d against blockFrom %d: blocks %v, want %v", c.spec, b, blockFrom, b >= blockFrom, c.block)
		}
	}
}

// warm reads every busy input port's record of a run of busy routers: with each
// port's busy mask 1 (and its bit in portBusy) and the rest of what warm reads 0,
// its sum over a word whose routers are all busy is the word's input ports. (A
// run that ended at the word's last router once took its end as w<<6|64, which
// is w<<6 itself in an odd word: warm read none of that run there.)
func TestWarmReadsEveryRun(t *testing.T) {
	e := warmProbe(t, 1)
	for w := range e.busyRtr {
		for _, mask := range []uint64{^uint64(0), 0xf0f0f0f0f0f0f0f0, 1 << 63, 0x8000000000000001} {
			e.busyRtr[w] = mask
			want := uint32(0)
			for r := range 64 {
				if mask>>r&1 != 0 {
					want += uint32(e.inBase[w<<6+r+1] - e.inBase[w<<6+r])
				}
			}
			if got := e.warm(e.parts[0], w); got != want {
				t.Errorf("word %d, busy routers %#x: warm read %d input ports' masks, want %d", w, mask, got, want)
			}
		}
		e.busyRtr[w] = 0
	}
}

// warmProbe is the 16x16 torus's engine (4 VCs of 8 flits) with what warm sums
// set to 0 but every input port's busy mask, set to busy: warm's sum then counts
// what it read of the input ports alone, or (busy 0) is for a test to mark the
// records it wants counted.
func warmProbe(t *testing.T, busy uint64) *engine {
	t.Helper()
	return warmProbeOf(t, torusEngine(t, "torus:16x16"), busy)
}

// warmProbeOf is warmProbe of engine e.
func warmProbeOf(t *testing.T, e *engine, busy uint64) *engine {
	t.Helper()
	for i := range e.in {
		e.in[i].busy = busy
		if busy != 0 { // its bit in its router's mask of busy ports
			r := e.in[i].rtr
			e.portBusy[r] |= 1 << uint(int32(i)-e.inBase[r])
		}
	}
	for o := range e.out {
		e.out[o].free = 0
	}
	for v := range e.ov {
		e.ov[v].credit = 0
	}
	return e
}

// torusEngine is the engine of a torus spec with 4 VCs of 8 flits, the booksim
// pipeline and dimension order, on one thread.
func torusEngine(t *testing.T, spec string) *engine {
	t.Helper()
	return torusEngineOf(t, spec, 4, 8)
}

// torusEngineOf is torusEngine with vcs VCs of buf flits.
func torusEngineOf(t *testing.T, spec string, vcs, buf int) *engine {
	t.Helper()
	net, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: vcs, Buf: buf, Pipeline: BookSim(net), Seed: 1, Threads: 1}
	e, err := newEngine(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// warm reads every cache line that holds part of a run of busy routers' output
// ports and output VCs (by index: line k holds a line's worth of records from k
// times that): with everything it reads 0 but one line's records, its sum is
// positive (the input VCs it reads by their ports' busy masks:
// TestWarmReadsBusyVCs). (The output ports' and VCs' ranges of a run
// that does not start at a line's start once had their last line left out: a
// line's step from the start ends short of it.)
func TestWarmReadsEveryLine(t *testing.T) {
	e := warmProbe(t, 0)
	outsLine := int(64 / unsafe.Sizeof(outPort{}))
	ovsLine := int(64 / unsafe.Sizeof(outVC{}))
	vs := e.vs & 31
	for w := range e.busyRtr {
		for _, mask := range []uint64{^uint64(0), 0xf0f0f0f0f0f0f0f0, 0x6, 0x2, 1 << 63} {
			e.busyRtr[w] = mask
			for r := range 64 {
				if mask>>r&1 == 0 {
					continue
				}
				rr := w<<6 + r
				ob, oe := int(e.outBase[rr]), int(e.outBase[rr+1])
				for _, c := range []struct {
					name    string
					lo, hi  int
					perLine int
					n       int
					set     func(i int, x int32)
				}{
					{"output port", ob, oe, outsLine, len(e.out), func(i int, x int32) { e.out[i].free = uint64(x) }},
					{"output VC", ob << vs, oe << vs, ovsLine, len(e.ov), func(i int, x int32) { e.ov[i].credit = x }},
				} {
					for line := c.lo / c.perLine; line <= (c.hi-1)/c.perLine; line++ {
						for i := line * c.perLine; i < min((line+1)*c.perLine, c.n); i++ {
							c.set(i, 1)
						}
						if e.warm(e.parts[0], w) == 0 {
							t.Errorf("word %d, busy routers %#x: warm did not read router %d's %ss in line %d", w, mask, rr, c.name, line)
						}
						for i := line * c.perLine; i < min((line+1)*c.perLine, c.n); i++ {
							c.set(i, 0)
						}
					}
				}
			}
		}
		e.busyRtr[w] = 0
	}
}

// warm reads, of each input port of a busy router that holds flits (its bit in
// portBusy, and a busy mask with a VC), the
// line of states and the ring's first line of its lowest and of its highest busy
// VC (warmPorts): with everything else it sums 0 but the busy masks, setting
// each record of one of those lines to big adds at least big to its sum (an idle port after it loads the
// same lines again, which may add it more than once). With 4 VCs of 8 flits
// (a port's states one line, its rings half a line each) and 8 VCs of 32 flits
// (two lines of states, rings of more than a line).
func TestWarmReadsBusyVCs(t *testing.T) {
	const big = 1 << 20
	vcsLine := int(64 / unsafe.Sizeof(inVC{}))
	for _, c := range []struct{ vcs, buf int }{{4, 8}, {8, 32}} {
		e := warmProbeOf(t, torusEngineOf(t, "torus:16x16", c.vcs, c.buf), 0)
		vs := e.vs & 31
		eachBusyPort(e, func(w int, rtrs uint64, rr, port int) {
			for _, m := range []uint64{1, 0b1010, 1 << (c.vcs - 1), 1<<(c.vcs-1) | 1} {
				e.in[port].busy = m
				lo := port<<vs | bits.TrailingZeros64(m)
				hi := port<<vs | (63 - bits.LeadingZeros64(m))
				base := e.warm(e.parts[0], w)
				setVC := func(i int, v uint32) { e.vc[i].n = int32(v) }
				setBuf := func(i int, v uint32) { e.buf[i] = flit(v) }
				for _, x := range []struct {
					name    string
					at      int
					perLine int
					set     func(i int, v uint32)
				}{
					{"states' line of its lowest busy VC", lo / vcsLine * vcsLine, vcsLine, setVC},
					{"states' line of its highest busy VC", hi / vcsLine * vcsLine, vcsLine, setVC},
					{"ring's first line of its lowest busy VC", lo * e.ring / homeSlots * homeSlots, homeSlots, setBuf},
					{"ring's first line of its highest busy VC", hi * e.ring / homeSlots * homeSlots, homeSlots, setBuf},
				} {
					for i := x.at; i < x.at+x.perLine; i++ {
						x.set(i, big)
					}
					if got := e.warm(e.parts[0], w); got-base < big {
						t.Errorf("%d VCs of %d flits, word %d, busy routers %#x, input port %d busy %#b: warm did not read the %s", c.vcs, c.buf, w, rtrs, port, m, x.name)
					}
					for i := x.at; i < x.at+x.perLine; i++ {
						x.set(i, 0)
					}
				}
			}
		})
	}
}

// warm loads (warmSets, into part.sink) the line of each busy router's first
// input port holding flits in the per-port masks of the unrouted and waiting
// sets and passBy, and the lines of the word's routers in the per-router masks
// of the two sets and parked: with everything else 0, a line of one of those
// set to big adds big to what warm leaves in the sink (the input ports' busy
// masks it adds there are small).
func TestWarmReadsSets(t *testing.T) {
	const big = 1 << 20
	e := warmProbe(t, 0)
	p := e.parts[0]
	eachBusyPort(e, func(w int, rtrs uint64, rr, port int) {
		e.in[port].busy = 1
		line := rr &^ 7 // the router's line of eight in a per-router array
		for _, x := range []struct {
			name string
			a    []uint64
			lo   int
			n    int
		}{
			{"unrouted set's port mask", e.unrouted.vcs, port, 1},
			{"waiting set's port mask", e.waiting.vcs, port, 1},
			{"passBy mask", e.passBy, port, 1},
			{"unrouted set's router mask", e.unrouted.ports, line, 8},
			{"waiting set's router mask", e.waiting.ports, line, 8},
			{"parked mask", e.parked, line, 8},
		} {
			for i := x.lo; i < x.lo+x.n; i++ {
				x.a[i] = big
			}
			s0 := p.sink
			e.warm(p, w)
			if (p.sink-s0)&big == 0 {
				t.Errorf("word %d, busy routers %#x, input port %d: warm did not read the %s", w, rtrs, port, x.name)
			}
			for i := x.lo; i < x.lo+x.n; i++ {
				x.a[i] = 0
			}
		}
	})
}

// eachBusyPort calls f for each input port of each router of each word of e's
// busy-router masks, under three patterns of busy routers in the word (all,
// the second and third, the last): that word's busyRtr is the pattern and the
// port is its router's one busy port (portBusy) while f runs; f sets the
// port's busy VCs. The masks are cleared after.
func eachBusyPort(e *engine, f func(w int, rtrs uint64, rr, port int)) {
	for w := range e.busyRtr {
		for _, rtrs := range []uint64{^uint64(0), 0x6, 1 << 63} {
			e.busyRtr[w] = rtrs
			for r := range 64 {
				if rtrs>>r&1 == 0 {
					continue
				}
				rr := w<<6 + r
				for port := int(e.inBase[rr]); port < int(e.inBase[rr+1]); port++ {
					e.portBusy[rr] = 1 << uint(port-int(e.inBase[rr]))
					f(w, rtrs, rr, port)
					e.in[port].busy, e.portBusy[rr] = 0, 0
				}
			}
		}
		e.busyRtr[w] = 0
	}
}

// warm loads (warmHeads), for each event due at word w's routers from the
// cycle it runs to the end of the block (the cycle alone outside a block), the
// lines taking the event reads: for a flit over a link its VC's state, its
// ring's first line and its input port's record, and for a head flit also its
// packet's first line and its VC's head line (vcHead); for a head flit into a
// sink its packet's first line. With everything else
// 0, each event alone in the wheels and the record on one of those lines set to
// big, what warm leaves in the sink has big; the events are due at the cycle
// run, or (a block of two cycles) at the next.
func TestWarmReadsDueEvents(t *testing.T) {
	const big = 1 << 20
	e := warmProbe(t, 0)
	p := e.parts[0]
	vs := e.vs & 31
	e.packets = make([]packet, 2)
	due := func(q *wheel[flitEv], at int64, w int) *[]flitEv {
		return &q.slots[int(at&q.mask)*int(q.cols)+w*int(q.classes)]
	}
	for w := range e.busyRtr {
		r := w << 6
		port := int(e.inBase[r])
		iv := port<<vs | 1
		head, body := flitOf(1, 0, 16), flitOf(1, 3, 16)
		for _, ahead := range []int64{0, 1} {
			p.t0, p.n = e.t, int(ahead)+1
			at := e.t + ahead
			for _, x := range []struct {
				name string
				put  func()
				set  func(v int32)
			}{
				{"link flit's VC state", func() { *due(&p.links, at, w) = []flitEv{{int32(iv), body}} }, func(v int32) { e.vc[iv].n = v }},
				{"link flit's ring", func() { *due(&p.links, at, w) = []flitEv{{int32(iv), body}} }, func(v int32) { e.buf[iv*e.ring] = flit(v) }},
				{"link flit's port record", func() { *due(&p.links, at, w) = []flitEv{{int32(iv), body}} }, func(v int32) { e.in[port].busy = uint64(v) }},
				{"link head's packet", func() { *due(&p.links, at, w) = []flitEv{{int32(iv), head}} }, func(v int32) { e.packets[1].h.Dst = v }},
				{"link head's VC head line", func() { *due(&p.links, at, w) = []flitEv{{int32(iv), head}} }, func(v int32) { e.heads[iv].ready = int64(v) }},
				{"sink head's packet", func() { *due(&p.delivers, at, w) = []flitEv{{int32(r), head}} }, func(v int32) { e.packets[1].size = v }},
			} {
				x.put()
				x.set(big)
				s0 := p.sink
				p.sink += e.warmHeads(p, w)
				if (p.sink-s0)&big == 0 {
					t.Errorf("word %d, event due %d cycles on: warm did not read the %s", w, ahead, x.name)
				}
				x.set(0)
				*due(&p.links, at, w) = nil
				*due(&p.delivers, at, w) = nil
			}
		}
	}
	p.t0, p.n = 0, 0
}
