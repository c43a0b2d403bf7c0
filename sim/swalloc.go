package sim

import "math/bits"

// fastSwitch tells that switch allocation takes allocFlat: a registered (flat)
// arbitration other than random (its draws would put calls in allocFlat's input
// loop, which Go then runs with its values on the stack: 3% of a run's
// instructions), and neither Latch, the general path forced (slowSwitch) nor an
// input stage other than the inline default. allocSwitch and sweep (which never
// runs with Latch) ask the same question.
func (e *engine) fastSwitch() bool {
	return e.flat && !e.rule.random && !e.cfg.Latch && !e.cfg.slowSwitch && e.swin == nil
}

// allocSwitch is the switch allocation phase, separable input-first with one
// iteration: at every input port the VCs whose front flit may go (its VC's stage
// delays have passed, its output VC has a credit; a buffered flit has arrived)
// are arbitrated to one; every output port, in increasing order, then grants one
// of the inputs asking for it (all of them at an ejection port with EjectAll).
// Each grant is traversed at once, or with Latch resolved by latch. Routers are
// visited in increasing order. The registered arbitrations but random, without
// Latch, take allocFlat (fastSwitch); any other case allocRouter, which builds
// requests for Arbiter values, draws the random arbitration's numbers and handles
// Latch and an input stage other than the default (Config.SwitchInput).
func (e *engine) allocSwitch(p *part) {
	p.setAt(e.t)
	fast := e.fastSwitch()
	for w := p.w0; w < p.w1; w++ {
		if fast {
			e.allocFlat(p, w, e.busyRtr[w])
			continue
		}
		for word := e.busyRtr[w]; word != 0; word &= word - 1 {
			e.allocRouter(p, int32(w<<6|bits.TrailingZeros64(word)))
		}
	}
	if e.cfg.Latch {
		e.latch(p)
	}
}

// allocFlat is switch allocation at the routers of word w with a bit in rs, in
// increasing order, with a flat arbitration other than random and no Latch
// (fastSwitch): a port's bids come from its masks, the arbiters' states are
// numbers, and a grant is traversed at once. (The routers' loop is a function
// of its own: in sweep's, whose values it kept on the stack, each router's
// call reloaded them; torus:8x8 at 0.4, 532.7 instructions a flit-hop there,
// 529.6 here.)
func (e *engine) allocFlat(p *part, w int, rs uint64) {
	for ; rs != 0; rs &= rs - 1 {
		e.allocFlatAt(p, int32(w<<6|bits.TrailingZeros64(rs)))
	}
}

// allocFlatAt is allocFlat at router r.
func (e *engine) allocFlatAt(p *part, r int32) {
	ib := *elem(e.inBase, int(r))
	pick, omask := p.pick, p.omask
	var outs uint64  // the output ports asked for
	ops8 := e.V <= 8 // a VC's output port is in its port's ops
	for pm := *elem(e.portBusy, int(r)); pm != 0; pm &= pm - 1 {
		i := bits.TrailingZeros64(pm) & 63
		ip := elem(e.in, int(ib)+i)
		bid := ip.busy & ip.act & ip.cred
		if w := bid & ip.wait; w != 0 {
			bid = e.ripe(ib+int32(i), bid, w)
		}
		// lone bidder or not, without a branch on it; a port without a bid
		// (as unpredictable) picks a VC that asks for nothing: pickAt(s, 0)
		// is s, below V
		v := pickAt(ip.arb, bid)
		pick[i] = v
		var o uint8
		if ops8 {
			o = ip.ops[v&7]
		} else {
			o = e.vc[(ib+int32(i))<<(e.vs&31)|v].op
		}
		asks := -((bid | -bid) >> 63) // all ones if the port bids
		o &= 63                       // (o is below 64: no bounds check, no shift test)
		omask[o] |= pm & -pm & asks   // (bit i: pm's lowest)
		outs |= 1 << o & asks
	}
	// read here, not before the loop: live across it they took registers that
	// its values then lost to the stack (torus:8x8 at 0.4: 589.3 instructions a
	// flit-hop before, 586.4 after)
	ob, ie := *elem(e.outBase, int(r)), *elem(e.inBase, int(r)+1)
	for ; outs != 0; outs &= outs - 1 {
		o := bits.TrailingZeros64(outs)
		in := omask[o]
		omask[o] = 0
		if e.ejectAll && int32(o) == e.outBase[r+1]-ob-1 {
			for ; in != 0; in &= in - 1 {
				i := bits.TrailingZeros64(in) & 63
				if e.rule.rotate {
					elem(e.in, int(ib)+i).arb = nextPointer(pick[i], e.V)
				}
				e.traverse(p, r, ib+int32(i), pick[i], false)
			}
			continue
		}
		op := elem(e.out, int(ob)+o)
		i := int(pickAt(op.arb, in)) & 63
		v := pick[i]
		if e.rule.rotate {
			elem(e.in, int(ib)+i).arb = nextPointer(v, e.V)
			op.arb = nextPointer(int32(i), ie-ib)
		}
		// traverse (without latch's creditNow), written out: a call a grant
		// cost the loop's values, saved and reloaded around it, and the
		// callee's spills of its arguments (torus:8x8 at 0.4: 586.4
		// instructions a flit-hop with the call, 562.5 without). traverse,
		// which the general path (allocRouter) takes, is its reference:
		// TestAllocFlatEqualsGeneral holds the two paths' runs equal,
		// TestAllocFlatTracesEqualGeneral their traces and moves (lastMove),
		// and the checker's tests (simcheck) trace this one.
		port := ib + int32(i)
		vs := e.vs & 31
		iv := port<<vs | v
		c := elem(e.vc, int(iv))
		ov := c.out
		h := c.head
		f := *elem(e.buf, int(iv)*e.ring+int(h))
		if h++; h == e.B {
			h = 0
		}
		n := c.n - 1
		ip := elem(e.in, int(port))
		bit := uint64(1) << uint(v&63)
		var gone uint64 // bit if the VC is now empty
		if n == 0 {
			h = 0 // (traverse's comment)
			gone = bit
		}
		c.n, c.head = n, h
		ip.busy &^= gone
		t := e.t
		p.lastMove = t
		op = elem(e.out, int(ov>>vs))
		op.use++
		cw, to, q := &p.credits, ip.prev, ip.q
		if to < 0 {
			cw, to = &p.srcCreds, q
		}
		cw.put(ip.dCred, ip.word, to<<vs|v)
		next, dEj := op.next, e.dEject
		if dEj == 0 && next < 0 {
			if ip.busy == 0 {
				e.portIdle(p, r, port)
			}
			e.moved(r, port, v, ov, f)
			e.deliver(p, r, f)
			continue
		}
		x := elem(e.ov, int(ov))
		spent, w, to, d := int32(1), &p.links, next<<vs|ov&e.vm, int64(op.d)
		if next < 0 {
			spent, w, to, d = 0, &p.delivers, r, dEj
		}
		x.credit -= spent
		var none uint64 // bit if ov has no credit left
		if x.credit == 0 {
			none = bit
		}
		ip.cred &^= none
		w.put(int32(d), op.word, flitEv{to: to, f: f})
		if ip.busy == 0 {
			e.portIdle(p, r, port)
		}
		if e.tracing {
			e.traceSend(r, port, v, ov, f)
		}
		if f.tail() {
			e.tailLeft(r, port, v, ov)
		}
	}
}

// ripe is bid without the VCs of wait (of input port in) whose VC allocation
// is less than VCAlloc cycles old; the others leave in's wait mask.
func (e *engine) ripe(in int32, bid, wait uint64) uint64 {
	ip := &e.in[in]
	lo := in << e.vs
	for ; wait != 0; wait &= wait - 1 {
		v := bits.TrailingZeros64(wait)
		if e.heads[lo+int32(v)].ready > e.t {
			bid &^= 1 << uint(v)
		} else {
			ip.wait &^= 1 << uint(v)
		}
	}
	return bid
}

// allocRouter is switch allocation at router r in the general case: arbiters
// that read requests, or Latch. Under Latch a waiting head bids with the output
// VC it would take (VC and switch allocation in one: it holds the VC only if it
// moves), a VC without a credit may still bid with V = 1 (its flit may enter the
// slot the downstream flit leaves), and the grants wait for latch.
func (e *engine) allocRouter(p *part, r int32) {
	V, vs, t, latch := e.V, e.vs, e.t, e.cfg.Latch
	ib, ob := e.inBase[r], e.outBase[r]
	eject := e.outBase[r+1] - ob - 1
	// the ejection port's output VCs are ejLo..ejLo+V-1 (no division per bid)
	ejLo := (ob + eject) << vs
	var outs uint64 // the output ports asked for
	for pm := e.portBusy[r]; pm != 0; pm &= pm - 1 {
		i := int32(bits.TrailingZeros64(pm))
		lo := (ib + i) << vs
		ip := &e.in[ib+i]
		var bid uint64 // the VCs of the port that bid
		if !latch {
			bid = ip.busy & ip.act & ip.cred
			if w := bid & ip.wait; w != 0 {
				bid = e.ripe(ib+i, bid, w)
			}
		}
		for m := ip.busy; latch && m != 0; m &= m - 1 {
			v := int32(bits.TrailingZeros64(m))
			c := &e.vc[lo+v]
			if e.heads[lo+v].ready > t {
				continue
			}
			switch c.state {
			case vcActive:
			case vcWait:
				ov, ok := e.pickVC(p, r, lo+v)
				if !ok {
					continue
				}
				c.out = ov
			default:
				continue
			}
			ov := c.out
			// Without a credit only the latch (V = 1) may still move it; with
			// V > 1 such a bid could win its input or output arbiter every
			// cycle (arbiters advance on moves) and starve the port's other VCs.
			if e.ov[ov].credit == 0 && (ov < ejLo || ov >= ejLo+V) && V > 1 {
				continue
			}
			bid |= 1 << uint(v)
		}
		if bid == 0 {
			continue
		}
		// a lone bidder wins without arbitration (and without its request)
		v := int32(bits.TrailingZeros64(bid))
		if e.swin != nil {
			v = e.swin.pick(bid, e.vc[lo:lo+V], ip.arb, e.inOut[ib+i])
		} else if e.flat && !e.rule.random {
			v = pickAt(ip.arb, bid)
		} else if bid&(bid-1) != 0 && e.flat {
			v = e.rule.pick(ip.arb, bid, e.rArb[r])
		} else if bid&(bid-1) != 0 {
			reqs := p.ireqs[:0]
			for m := bid; m != 0; m &= m - 1 {
				v := int32(bits.TrailingZeros64(m))
				reqs = append(reqs, e.switchRequest(r, lo+v, v))
			}
			p.ireqs = reqs
			v = reqs[e.inArb[ib+i].Pick(reqs)].ID
		}
		p.pick[i] = v
		o := e.port(e.vc[lo+v].out) - ob
		p.omask[o] |= 1 << uint(i)
		outs |= 1 << uint(o&63)
	}
	if !e.flat {
		// the requests of contended outputs, all made before any grant moves a
		// flit
		for m := outs; m != 0; m &= m - 1 {
			o := int32(bits.TrailingZeros64(m))
			in := p.omask[o]
			if in&(in-1) == 0 || (e.ejectAll && o == eject) {
				continue
			}
			reqs := p.reqs[o][:0]
			for ; in != 0; in &= in - 1 {
				i := int32(bits.TrailingZeros64(in))
				reqs = append(reqs, e.switchRequest(r, (ib+i)<<vs|p.pick[i], i))
			}
			p.reqs[o] = reqs
		}
	}
	for ; outs != 0; outs &= outs - 1 {
		o := int32(bits.TrailingZeros64(outs))
		in := p.omask[o]
		p.omask[o] = 0
		if e.ejectAll && o == eject {
			for m := in; m != 0; m &= m - 1 {
				i := int32(bits.TrailingZeros64(m))
				e.grant(p, r, ib+i, ob+o, p.pick[i], false)
			}
			continue
		}
		i := int32(bits.TrailingZeros64(in))
		if in&(in-1) != 0 && e.flat {
			i = e.rule.pick(e.out[ob+o].arb, in, e.rArb[r])
		} else if in&(in-1) != 0 {
			reqs := p.reqs[o]
			i = reqs[e.outArb[ob+o].Pick(reqs)].ID
			p.reqs[o] = reqs[:0] // empty again for allocVCs
		}
		e.grant(p, r, ib+i, ob+o, p.pick[i], true)
	}
}

// switchRequest is request for input VC iv (number v at its port) of router r,
// without the division that finds r.
func (e *engine) switchRequest(r, iv, v int32) Request {
	pk := &e.packets[e.front(iv).pkt()]
	return Request{ID: v, At: r, Hops: pk.h.Hops, Dst: pk.h.Dst, Age: e.t - pk.gen}
}

// grant moves a switch grant of input port in's VC v to output port out at
// once, or with Latch keeps it for latch; the arbiters learn of it when it is
// used.
func (e *engine) grant(p *part, r, in, out, v int32, arbOut bool) {
	if !e.cfg.Latch {
		e.granted(r, in, out, v, arbOut)
		e.traverse(p, r, in, v, false)
		return
	}
	g := latchGrant{r: r, in: in, out: out, iv: in<<e.vs | v, v: v, arbOut: arbOut}
	e.gidx[g.iv] = int32(len(e.grants))
	e.grants = append(e.grants, g)
}

// granted tells the arbiters of input port in (its VC v won) and, if arbOut, of
// output port out (input port in won) of router r that a grant moves.
func (e *engine) granted(r, in, out, v int32, arbOut bool) {
	if !e.flat {
		e.inArb[in].Granted(v)
		if arbOut {
			e.outArb[out].Granted(in - e.inBase[r])
		}
		return
	}
	if e.rule.rotate {
		ib := e.inBase[r]
		e.in[in].arb = e.rule.next(e.in[in].arb, e.V, v)
		e.inputGranted(r, in, int(out-e.outBase[r]))
		if arbOut {
			e.out[out].arb = e.rule.next(e.out[out].arb, e.inBase[r+1]-ib, in-ib)
		}
	}
}

// use traverses a grant that moves.
func (e *engine) use(p *part, g *latchGrant) {
	e.granted(g.r, g.in, g.out, g.v, g.arbOut)
	if c := &e.vc[g.iv]; c.state == vcWait {
		e.grantVC(g.r, g.iv, c.out)
	}
	e.traverse(p, g.r, g.in, g.v, g.creditNow)
}

// latchGrant is a switch grant (waiting for the latch rule).
type latchGrant struct {
	r, in, out, iv int32
	v              int32 // iv's number at its port
	arbOut         bool  // an output arbiter chose it
	state          uint8 // 0 unknown, 1 resolving, 2 moves, 3 waits
	creditNow      bool  // the grant upstream of it enters the slot it frees
}

// latch applies MODEL.md's pipelining rule to the cycle's grants: a flit may enter
// a full buffer when the flit in it leaves in the same cycle. A grant moves when its
// output VC has a credit, leads to the sink, or leads to a VC whose front flit
// moves; a cycle of grants each waiting for the next does not move (a cyclic wait
// is a wait, as in package engine by default). Moves are traversed downstream
// first, and the credit a latched move relies on is returned at once.
func (e *engine) latch(p *part) {
	e.order = e.order[:0]
	for g := range e.grants {
		e.resolve(int32(g))
	}
	// the credits latched moves rely on first (a rotating cycle has no
	// downstream-first order), then the moves
	for _, g := range e.order {
		if gr := &e.grants[g]; gr.creditNow {
			e.creditBack(gr.iv)
		}
	}
	for _, g := range e.order {
		e.use(p, &e.grants[g])
	}
	for _, gr := range e.grants {
		e.gidx[gr.iv] = -1
	}
	e.grants = e.grants[:0]
}

func (e *engine) resolve(g int32) bool {
	gr := &e.grants[g]
	switch gr.state {
	case 1:
		return e.cfg.Rotate
	case 3:
		return false
	case 2:
		return true
	}
	gr.state = 1
	// state 1 met again below closes a cycle of grants each entering the
	// buffer the next leaves: it moves only with Rotate
	ov := e.vc[gr.iv].out
	next := e.out[e.port(ov)].next
	ok := next < 0 || e.ov[ov].credit > 0
	if !ok {
		if d := e.gidx[next<<e.vs|ov&e.vm]; d >= 0 && e.resolve(d) {
			e.grants[d].creditNow = true
			ok = true
		}
	}
	gr = &e.grants[g]
	if ok {
		gr.state = 2
		e.order = append(e.order, g)
	} else {
		gr.state = 3
	}
	return ok
}

// creditBack returns at once the credit of the slot input VC iv's front flit is
// about to free, to the output VC upstream (a latched move enters it this cycle).
func (e *engine) creditBack(iv int32) {
	up := e.in[e.port(iv)].prev
	e.credits([]int32{up<<e.vs | iv&e.vm})
}

// traverse sends the front flit of VC v of input port in of router r through
// the switch to its output VC: the slot's credit goes upstream (unless
// creditNow: latch returned it), the flit down the link (or into the sink), and
// a tail frees both VCs. allocFlatAt writes this body out in its output loop
// (without creditNow): a change here is one there too. Which of two cases
// holds (the VC emptied or not, a network or an injection port behind, a link
// or a sink ahead) follows no pattern a branch predictor learns over a
// router's flits, but Go compiles these ifs to branches (on torus:8x8 at 0.4,
// 0.6 mispredictions a flit-hop); choosing by masks and an indexed pair of
// wheels instead cut the mispredictions by 8% and added 7% to the
// instructions, and the run took 5% more CPU time (median of 12 interleaved
// pairs, load 12-20).
func (e *engine) traverse(p *part, r, in, v int32, creditNow bool) {
	vs := e.vs & 31
	iv := in<<vs | v
	c := elem(e.vc, int(iv))
	ov := c.out
	h := c.head
	f := *elem(e.buf, int(iv)*e.ring+int(h))
	if h++; h == e.B {
		h = 0
	}
	n := c.n - 1
	ip := elem(e.in, int(in))
	bit := uint64(1) << uint(v&63)
	var gone uint64 // bit if the VC is now empty
	if n == 0 {
		h = 0 // an empty ring restarts at its first slot: a VC seldom full keeps few slots in cache
		gone = bit
	}
	c.n, c.head = n, h
	ip.busy &^= gone
	t := e.t
	p.lastMove = t
	op := elem(e.out, int(ov>>vs))
	op.use++
	if !creditNow { // (latch's creditNow is only ever a network port's)
		// the slot's credit: upstream, or to the source of an injection port
		// (dCred 1)
		cw, to, q := &p.credits, ip.prev, ip.q // (loads first: no load may be conditional)
		if to < 0 {
			cw, to = &p.srcCreds, q
		}
		cw.put(ip.dCred, ip.word, to<<vs|v)
	}
	next, dEj := op.next, e.dEject
	if dEj == 0 && next < 0 {
		if ip.busy == 0 {
			e.portIdle(p, r, in)
		}
		e.moved(r, in, v, ov, f)
		e.deliver(p, r, f)
		return
	}
	// a link spends a credit of ov (a sink's VCs keep theirs, B), and the flit
	// arrives beyond it; or it arrives at the sink
	x := elem(e.ov, int(ov))
	spent, w, to, d := int32(1), &p.links, next<<vs|ov&e.vm, int64(op.d)
	if next < 0 {
		spent, w, to, d = 0, &p.delivers, r, dEj
	}
	x.credit -= spent
	var none uint64 // bit if ov has no credit left
	if x.credit == 0 {
		none = bit
	}
	ip.cred &^= none
	w.put(int32(d), op.word, flitEv{to: to, f: f})
	// last, with nothing live after the calls for Go to save and reload around
	// them (moved, written out: a call to it costs 1.5% of a run's instructions;
	// portIdle, called before the puts, cost 1 instruction a flit-hop)
	if ip.busy == 0 {
		e.portIdle(p, r, in)
	}
	if e.tracing {
		e.traceSend(r, in, v, ov, f)
	}
	if f.tail() {
		e.tailLeft(r, in, v, ov)
	}
}

// moved traces flit f, sent from VC v of input port in of router r to output VC
// ov, and frees the VCs if it is a tail (tailLeft): nothing else a traversal
// does reads what they change.
func (e *engine) moved(r, in, v, ov int32, f flit) {
	if e.tracing {
		e.traceSend(r, in, v, ov, f)
	}
	if f.tail() {
		e.tailLeft(r, in, v, ov)
	}
}

// portIdle takes input port in of router r (of partition p), whose last flit
// has left, out of its router's busy ports, and the router out of the busy ones
// if that was its last.
func (e *engine) portIdle(p *part, r, in int32) {
	if e.portBusy[r] &^= 1 << uint((in-e.inBase[r])&63); e.portBusy[r] == 0 {
		e.busyRtr[r>>6] &^= 1 << uint(r&63)
		p.nBusy--
	}
}

// tailLeft frees the VCs of a tail that left VC v of input port in of router r
// for output VC ov: the output VC (unless Latch already gave it to another), the
// input VC, whose next flit, if any, is a head to route.
func (e *engine) tailLeft(r, in, v, ov int32) {
	iv := in<<(e.vs&31) | v
	if elem(e.ov, int(ov)).owner == iv {
		e.release(r, ov)
	}
	c := elem(e.vc, int(iv))
	c.state = vcIdle
	elem(e.in, int(in)).act &^= 1 << uint(v&63)
	if c.n > 0 {
		e.unrouted.add(r, in-*elem(e.inBase, int(r)), in, v)
	}
}

// traceSend traces flit f leaving VC v of input port in of router r for output
// VC ov.
func (e *engine) traceSend(r, in, v, ov int32, f flit) {
	pk := &e.packets[f.pkt()]
	o := e.port(ov)
	e.trace(Event{Kind: Send, Node: r, Port: o - e.outBase[r], VC: ov & e.vm, InPort: in - e.inBase[r], InVC: v, Packet: pk.id, Flit: e.flitSeq(e.sent, in<<e.vs|v, f), Dst: pk.h.Dst})
}
