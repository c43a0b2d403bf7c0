package sim

import "math/bits"

// allocSwitch is the switch allocation phase, separable input-first with one
// iteration: at every input port the VCs whose front flit may go (its VC's stage
// delays have passed, its output VC has a credit; a buffered flit has arrived)
// are arbitrated to one; every output port then grants one of the inputs asking
// for it (all of them at an ejection port with EjectAll). Each grant is
// traversed at once.
func (e *engine) allocSwitch() {
	V, t, latch := e.V, e.t, e.cfg.Latch
	for _, r := range e.active {
		ib, ob := e.inBase[r], e.outBase[r]
		eject := e.outBase[r+1] - ob - 1
		// the ejection port's output VCs are ejLo..ejLo+V-1 (no division per bid)
		ejLo := (ob + eject) * V
		e.touch = e.touch[:0]
		for pm := e.portBusy[r]; pm != 0; pm &= pm - 1 {
			i := int32(bits.TrailingZeros64(pm))
			e.pick[i] = -1
			var bid uint64 // the VCs of the port that bid
			lo := (ib + i) * V
			for m := e.busy[ib+i]; m != 0; m &= m - 1 {
				v := int32(bits.TrailingZeros64(m))
				iv := lo + v
				if e.vcReady[iv] > t {
					continue
				}
				switch {
				case e.vcState[iv] == vcActive:
				case e.vcState[iv] == vcWait && latch:
					// VC and switch allocation in one: the head asks for the
					// switch with the VC it would take, and holds it only if it
					// moves (latch)
					ov, ok := e.pickVC(r, iv)
					if !ok {
						continue
					}
					e.vcOut[iv] = ov
				default:
					continue
				}
				ov := e.vcOut[iv]
				// Without a credit only the latch (V = 1) may still move it; with
				// V > 1 such a bid could win its input or output arbiter every
				// cycle (arbiters advance on moves) and starve the port's other VCs.
				if e.ovCredit[ov] == 0 && (ov < ejLo || ov >= ejLo+V) && (!latch || V > 1) {
					continue
				}
				bid |= 1 << uint(v)
			}
			if bid == 0 {
				continue
			}
			// a lone bidder wins without arbitration (and without its request)
			v := int32(bits.TrailingZeros64(bid))
			if e.flat && !e.rule.random {
				// lone bidder or not, without a branch on it (pickAt)
				v = pickAt(e.inState[ib+i], bid)
			} else if bid&(bid-1) != 0 && e.flat {
				v = e.rule.pick(e.inState[ib+i], bid, e.rArb)
			} else if bid&(bid-1) != 0 {
				reqs := e.ireqs[:0]
				for m := bid; m != 0; m &= m - 1 {
					v := int32(bits.TrailingZeros64(m))
					reqs = append(reqs, e.switchRequest(r, lo+v, v))
				}
				e.ireqs = reqs
				v = reqs[e.inArb[ib+i].Pick(reqs)].ID
			}
			e.pick[i] = v
			o := e.port(e.vcOut[lo+v]) - ob
			if e.omask[o] == 0 {
				e.touch = append(e.touch, o)
			}
			e.omask[o] |= 1 << uint(i)
		}
		// the requests of contended outputs, all made before any grant moves a flit
		// (none with flat arbiters)
		for _, o := range e.touch {
			if e.flat {
				break
			}
			in := e.omask[o]
			if in&(in-1) == 0 || (e.cfg.EjectAll && o == eject) {
				continue
			}
			reqs := e.reqs[o][:0]
			for m := in; m != 0; m &= m - 1 {
				i := int32(bits.TrailingZeros64(m))
				reqs = append(reqs, e.switchRequest(r, (ib+i)*V+e.pick[i], i))
			}
			e.reqs[o] = reqs
		}
		for _, o := range e.touch {
			in := e.omask[o]
			e.omask[o] = 0
			if e.cfg.EjectAll && o == eject {
				for m := in; m != 0; m &= m - 1 {
					i := int32(bits.TrailingZeros64(m))
					e.grant(r, ib+i, ob+o, e.pick[i], false)
				}
				continue
			}
			i := int32(bits.TrailingZeros64(in))
			if in&(in-1) != 0 && e.flat {
				i = e.rule.pick(e.outState[ob+o], in, e.rArb)
			} else if in&(in-1) != 0 {
				reqs := e.reqs[o]
				i = reqs[e.outArb[ob+o].Pick(reqs)].ID
				e.reqs[o] = reqs[:0] // empty again for allocVCs
			}
			e.grant(r, ib+i, ob+o, e.pick[i], true)
		}
	}
	if latch {
		e.latch()
	}
}

// switchRequest is request for input VC iv (number v at its port) of router r,
// without the division that finds r.
func (e *engine) switchRequest(r, iv, v int32) Request {
	pk := &e.packets[e.front(iv).pkt]
	return Request{ID: v, At: r, Hops: pk.h.Hops, Dst: pk.h.Dst, Age: e.t - pk.gen}
}

// grant traverses a switch grant of input port in's VC v to output port out at
// once, or with Latch keeps it for latch; the arbiters learn of it when it is used.
func (e *engine) grant(r, in, out, v int32, arbOut bool) {
	if !e.cfg.Latch {
		// use's steps, without a latchGrant
		iv := in*e.V + v
		e.granted(r, in, out, v, arbOut)
		if e.vcState[iv] == vcWait {
			e.grantVC(r, iv, e.vcOut[iv])
		}
		e.traverse(r, iv, false)
		return
	}
	g := latchGrant{r: r, in: in, out: out, iv: in*e.V + v, v: v, arbOut: arbOut}
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
		e.inState[in] = e.rule.next(e.inState[in], e.V, v)
		if arbOut {
			e.outState[out] = e.rule.next(e.outState[out], e.inBase[r+1]-ib, in-ib)
		}
	}
}

// use traverses a grant that moves.
func (e *engine) use(g *latchGrant) {
	e.granted(g.r, g.in, g.out, g.v, g.arbOut)
	if e.vcState[g.iv] == vcWait {
		e.grantVC(g.r, g.iv, e.vcOut[g.iv])
	}
	e.traverse(g.r, g.iv, g.creditNow)
}

// latchGrant is a switch grant (waiting for the latch rule).
type latchGrant struct {
	r, in, out, iv int32
	v              int32 // iv's number at its port (iv % V)
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
func (e *engine) latch() {
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
		e.use(&e.grants[g])
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
	V := e.V
	// state 1 met again below closes a cycle of grants each entering the
	// buffer the next leaves: it moves only with Rotate
	ov := e.vcOut[gr.iv]
	next := e.outNext[ov/V]
	ok := next < 0 || e.ovCredit[ov] > 0
	if !ok {
		if d := e.gidx[next*V+ov%V]; d >= 0 && e.resolve(d) {
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
	V := e.V
	up := e.inPrev[iv/V]
	e.ovCredit[up*V+iv%V]++
	if e.cfg.Trace != nil {
		ur := e.outRtr[up]
		e.trace(Event{Kind: Credit, Node: ur, Port: up - e.outBase[ur], VC: iv % V, Packet: -1, InPort: -1, InVC: -1})
	}
}

// traverse sends the front flit of input VC iv of router r through the switch to
// its output VC: the slot's credit goes upstream, the flit down the link (or into
// the sink), and a tail frees both VCs.
func (e *engine) traverse(r, iv int32, creditNow bool) {
	V := e.V
	ov := e.vcOut[iv]
	o := e.port(ov)
	f := *e.front(iv)
	in := e.port(iv)
	v := iv - in*V
	h := e.vcHead[iv] + 1
	if h == e.B {
		h = 0
	}
	e.vcHead[iv] = h
	e.vcN[iv]--
	if e.vcN[iv] == 0 {
		e.busy[in] &^= 1 << uint(v)
		if e.busy[in] == 0 {
			e.portBusy[r] &^= 1 << uint(in-e.inBase[r])
		}
	}
	e.load[r]--
	e.chanUse[o]++
	e.lastMove = e.t
	if e.cfg.Trace != nil {
		pk := &e.packets[f.pkt]
		e.trace(Event{Kind: Send, Node: r, Port: o - e.outBase[r], VC: ov % V, InPort: in - e.inBase[r], InVC: v, Packet: pk.id, Flit: f.seq(), Dst: pk.h.Dst})
	}
	if f.tail() {
		if e.ovOwner[ov] == iv {
			e.ovOwner[ov] = -1
		}
		e.vcState[iv] = vcIdle
		if e.vcN[iv] > 0 {
			e.unrouted.add(r, in-e.inBase[r], in, v)
		}
	}
	if up := e.inPrev[in]; up >= 0 && creditNow {
		// returned already (creditBack)
	} else if up >= 0 {
		e.schedule(int64(e.p.Credit), event{kind: evCredit, idx: up*V + v})
	} else {
		e.schedule(1, event{kind: evSrc, idx: e.inQ[in]*V + v})
	}
	stage := int64(e.p.SwAlloc + e.p.Traverse)
	if next := e.outNext[o]; next >= 0 {
		e.ovCredit[ov]--
		e.schedule(stage+int64(e.p.Link), event{kind: evFlit, idx: next*V + ov - o*V, f: f})
	} else if d := stage + int64(e.p.Eject); d == 0 {
		e.deliver(r, f)
	} else {
		e.schedule(d, event{kind: evDeliver, idx: r, f: f})
	}
}
