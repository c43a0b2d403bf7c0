package sim

import "math/bits"

// allocVCs is the VC allocation phase, separable: every routed head whose VC
// allocation is due picks one free output VC among its choices (the selection
// function, over the free candidates of the lowest Pri), then every output VC asked
// for grants one asker by its arbiter. The winner holds the output VC until its
// tail leaves; the routing's Advance sees the hop, and the head may ask for the
// switch VCAlloc cycles later.
func (e *engine) allocVCs(p *part) {
	for w := p.w0; w < p.w1; w++ {
		for word := e.waiting.rtrs[w]; word != 0; word &= word - 1 {
			e.allocVCsAt(p, int32(w<<6|bits.TrailingZeros64(word)))
		}
	}
}

// allocVCsAt is allocVCs at router r (of partition p).
func (e *engine) allocVCsAt(p *part, r int32) {
	V, vs := e.V, e.vs&31
	pm := *elem(e.waiting.ports, int(r))
	ib := *elem(e.inBase, int(r))
	// a head is parked from when it found no free output VC until one its
	// choices allow is released (passBy); with AtomicVC a credit may free one
	// too: none is
	pass := !e.cfg.AtomicVC && !e.cfg.noPass
	ob := *elem(e.outBase, int(r))
	eject := *elem(e.outBase, int(r)+1) - ob - 1
	p.touch = p.touch[:0]
	// with a flat arbitration other than random over at most 64 requesters
	// (IDs i*V + v), an output VC's requests are a mask of IDs (p.vreqs), its
	// winner pickAt's: the first ID at or after its state, else the lowest
	// (pickVCArb's answer, without a Request a head)
	n := (*elem(e.inBase, int(r)+1) - ib) * V
	masks := e.flat && !e.rule.random && n <= 64
	// the waiting heads, in increasing order of input VC
	for ; pm != 0; pm &= pm - 1 {
		i := int32(bits.TrailingZeros64(pm))
		in := ib + i
		for m := *elem(e.waiting.vcs, int(in)); m != 0; m &= m - 1 {
			v := int32(bits.TrailingZeros64(m))
			iv := in<<vs | v
			if elem(e.heads, int(iv)).ready > e.t {
				continue
			}
			ov, ok := e.pickVC(p, r, iv)
			if !ok {
				if pass {
					*elem(e.passBy, int(in)) |= 1 << uint(v&63)
					*elem(e.parked, int(r)) |= 1 << uint(i&63)
					e.waiting.remove(r, i, in, v)
				}
				continue
			}
			if e.ejectAll && e.port(ov) == ob+eject {
				// a sink that takes everything: no VC to share
				e.grantVC(r, iv, ov)
				continue
			}
			local := ov - ob<<vs
			if masks {
				m := elem(p.vreqs, int(local))
				if *m == 0 {
					p.touch = append(p.touch, local)
				}
				*m |= 1 << uint((i*V+v)&63)
				continue
			}
			if len(p.reqs[local]) == 0 {
				p.touch = append(p.touch, local)
			}
			// the arbiter's requesters are the router's input VCs, i*V + v (a
			// flat arbitration reads only the ID)
			if e.flat {
				p.reqs[local] = append(p.reqs[local], Request{ID: i*V + v})
			} else {
				p.reqs[local] = append(p.reqs[local], e.request(iv, i*V+v))
			}
		}
	}
	for _, local := range p.touch {
		ov := ob<<vs + local
		if masks {
			m, st := elem(p.vreqs, int(local)), elem(e.ovState, int(ov))
			id := pickAt(*st, *m)
			*m = 0
			if e.rule.rotate {
				*st = nextPointer(id, n)
			}
			e.grantVC(r, (ib+id/V)<<vs|id%V, ov)
			continue
		}
		reqs := p.reqs[local]
		w := 0
		if e.flat {
			w = e.pickVCArb(r, ov, reqs)
			if e.rule.rotate {
				e.ovState[ov] = nextPointer(reqs[w].ID, n)
			}
		} else {
			if len(reqs) > 1 {
				w = e.ovArb[ov].Pick(reqs)
			}
			e.ovArb[ov].Granted(reqs[w].ID)
		}
		id := reqs[w].ID
		e.grantVC(r, (ib+id/V)<<vs|id%V, ov)
		p.reqs[local] = reqs[:0]
	}
}

// pickVCArb is the flat arbitration of output VC ov of router r among reqs (in
// increasing ID order): what its Arbiter's Pick would answer, drawing the same
// numbers (a lone requester wins without a draw).
func (e *engine) pickVCArb(r, ov int32, reqs []Request) int {
	switch {
	case len(reqs) == 1:
		return 0
	case e.rule.random:
		return e.rArb[r].IntN(len(reqs))
	case e.rule.rotate:
		s := e.ovState[ov]
		for i, q := range reqs {
			if q.ID >= s {
				return i
			}
		}
	}
	return 0
}

// pickVC is the selection step of VC allocation for the head at the front of
// input VC iv of router r: among the free output VCs its choices allow, those of
// the lowest Pri are the candidates, and the Selector picks one.
func (e *engine) pickVC(p *part, r, iv int32) (ov int32, ok bool) {
	V, vs := e.V, e.vs&31
	ob := *elem(e.outBase, int(r))
	eject := *elem(e.outBase, int(r)+1) - ob - 1
	cands := p.cands[:0]
	best := int32(1 << 30)
	all := allVCs(V)
	for _, c := range elem(e.heads, int(iv)).ch {
		port, pri := int32(c.Port), int32(c.Pri)
		if pri > best {
			continue
		}
		o := ob + port
		free := c.VCs & elem(e.out, int(o)).free
		if e.ejectAll && port == eject {
			free = c.VCs & all // a sink that takes everything
		}
		for ; free != 0; free &= free - 1 {
			v := int32(bits.TrailingZeros64(free))
			x := elem(e.ov, int(o<<vs|v))
			if e.cfg.AtomicVC && port != eject && x.credit != e.B {
				continue // the buffer still holds the previous packet's flits
			}
			if pri < best {
				best = pri
				cands = cands[:0]
			}
			cands = append(cands, Candidate{Port: port, VC: v, Pri: pri, Credits: x.credit})
		}
	}
	if cap(cands) != cap(p.cands) {
		p.cands = cands // grown: kept for the next head
	}
	if len(cands) == 0 {
		return -1, false
	}
	k := 0
	if len(cands) > 1 {
		if e.rsel != nil {
			k = e.rsel.SelectAfter(cands, e.rotate[iv], V)
		} else {
			k = e.cfg.Select.Select(cands, e.rSelect[r])
		}
	}
	c := &cands[k]
	return (ob+c.Port)<<vs | c.VC, true
}

// request describes the packet at the front of input VC iv as requester id.
func (e *engine) request(iv, id int32) Request {
	pk := &e.packets[e.front(iv).pkt()]
	return Request{ID: id, At: e.in[e.port(iv)].rtr, Hops: pk.h.Hops, Dst: pk.h.Dst, Age: e.t - pk.gen}
}

// grantVC gives output VC ov of router r to the head at the front of input VC iv.
// (Indices by elem: iv, ov and their ports are the engine's own numbers.)
func (e *engine) grantVC(r, iv, ov int32) {
	vs, vm := e.vs&31, e.vm
	in, v, o := iv>>vs, iv&vm, ov>>vs
	x := elem(e.ov, int(ov))
	x.owner = iv // ov held by iv, off its port's free mask
	op := elem(e.out, int(o))
	op.free &^= 1 << uint(ov&vm&63)
	c := elem(e.vc, int(iv))
	port := o - *elem(e.outBase, int(r))
	c.out, c.op, c.state = ov, uint8(port), vcActive
	ip := elem(e.in, int(in))
	if v < 8 {
		ip.ops[v&7] = uint8(port)
	}
	if e.rotate != nil {
		e.rotate[iv] = port*e.V + ov&vm + 1
	}
	elem(e.heads, int(iv)).ready = e.t + int64(e.p.VCAlloc)
	bit := uint64(1) << uint(v&63)
	e.waiting.remove(r, in-*elem(e.inBase, int(r)), in, v)
	next := op.next
	ip.act |= bit
	if e.p.VCAlloc > 0 {
		ip.wait |= bit
	}
	if next < 0 || x.credit > 0 {
		ip.cred |= bit
	} else {
		ip.cred &^= bit
	}
	// the head at the front (e.front)
	pk := elem(e.packets, int(elem(e.buf, int(iv)*e.ring+int(c.head)).pkt()))
	if e.tracing {
		e.trace(Event{Kind: Grant, Node: r, Port: port, VC: ov & vm, InPort: in - e.inBase[r], InVC: v, Packet: pk.id, Dst: pk.h.Dst})
	}
	if next < 0 {
		return // ejection
	}
	if e.pathOf(pk) == nil && e.cfg.Routing != nil {
		e.cfg.Routing.Advance(int(r), &pk.h, int(port), int(ov&vm))
	}
	pk.h.Hops++
	pk.h.Port = port
	pk.h.InPort = next - *elem(e.inBase, int(elem(e.in, int(next)).rtr))
	pk.h.VC = ov & vm
}
