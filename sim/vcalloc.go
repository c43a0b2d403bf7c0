package sim

import "math/bits"

// allocVCs is the VC allocation phase, separable: every routed head whose VC
// allocation is due picks one free output VC among its choices (the selection
// function, over the free candidates of the lowest Pri), then every output VC asked
// for grants one asker by its arbiter. The winner holds the output VC until its
// tail leaves; the routing's Advance sees the hop, and the head may ask for the
// switch VCAlloc cycles later.
func (e *engine) allocVCs() {
	V := e.V
	for _, r := range e.active {
		pm := e.waiting.ports[r]
		if pm == 0 {
			continue
		}
		ib := e.inBase[r]
		lo := ib * V
		ob := e.outBase[r]
		eject := e.outBase[r+1] - ob - 1
		e.touch = e.touch[:0]
		// the waiting heads, in increasing order of input VC
		for ; pm != 0; pm &= pm - 1 {
			in := ib + int32(bits.TrailingZeros64(pm))
			for m := e.waiting.vcs[in]; m != 0; m &= m - 1 {
				iv := in*V + int32(bits.TrailingZeros64(m))
				if e.vcReady[iv] > e.t {
					continue
				}
				ov, ok := e.pickVC(r, iv)
				if !ok {
					continue
				}
				if e.cfg.EjectAll && e.port(ov) == ob+eject {
					// a sink that takes everything: no VC to share
					e.grantVC(r, iv, ov)
					continue
				}
				local := ov - ob*V
				if len(e.reqs[local]) == 0 {
					e.touch = append(e.touch, local)
				}
				e.reqs[local] = append(e.reqs[local], e.request(iv, iv-lo))
			}
		}
		for _, local := range e.touch {
			reqs := e.reqs[local]
			ov := ob*V + local
			w := 0
			if len(reqs) > 1 {
				w = e.ovArb[ov].Pick(reqs)
			}
			e.ovArb[ov].Granted(reqs[w].ID)
			iv := lo + reqs[w].ID
			e.grantVC(r, iv, ov)
			e.reqs[local] = reqs[:0]
		}
	}
}

// pickVC is the selection step of VC allocation for the head at the front of
// input VC iv of router r: among the free output VCs its choices allow, those of
// the lowest Pri are the candidates, and the Selector picks one.
func (e *engine) pickVC(r, iv int32) (ov int32, ok bool) {
	V := e.V
	ob := e.outBase[r]
	eject := e.outBase[r+1] - ob - 1
	cands := e.cands[:0]
	best := int32(1 << 30)
	for _, c := range e.choices[iv] {
		if int32(c.Pri) > best {
			continue
		}
		for m := c.VCs; m != 0; m &= m - 1 {
			v := int32(bits.TrailingZeros64(m))
			if v >= V {
				break
			}
			ov := (ob+int32(c.Port))*V + v
			if e.ovOwner[ov] >= 0 && !(e.cfg.EjectAll && int32(c.Port) == eject) {
				continue
			}
			if e.cfg.AtomicVC && int32(c.Port) != eject && e.ovCredit[ov] != e.B {
				continue // the buffer still holds the previous packet's flits
			}
			if int32(c.Pri) < best {
				best = int32(c.Pri)
				cands = cands[:0]
			}
			cands = append(cands, Candidate{Port: int32(c.Port), VC: v, Pri: int32(c.Pri), Credits: e.ovCredit[ov]})
		}
	}
	e.cands = cands
	if len(cands) == 0 {
		return -1, false
	}
	k := 0
	if len(cands) > 1 {
		k = e.cfg.Select.Select(cands, e.rSelect)
	}
	return (ob+cands[k].Port)*V + cands[k].VC, true
}

// request describes the packet at the front of input VC iv as requester id.
func (e *engine) request(iv, id int32) Request {
	pk := &e.packets[e.front(iv).pkt]
	return Request{ID: id, At: e.inRtr[iv/e.V], Hops: pk.h.Hops, Dst: pk.h.Dst, Age: e.t - pk.gen}
}

// grantVC gives output VC ov of router r to the head at the front of input VC iv.
func (e *engine) grantVC(r, iv, ov int32) {
	V := e.V
	e.ovOwner[ov] = iv
	e.vcOut[iv] = ov
	e.vcState[iv] = vcActive
	in := e.port(iv)
	e.waiting.remove(r, in-e.inBase[r], in, iv-in*V)
	e.vcReady[iv] = e.t + int64(e.p.VCAlloc)
	pk := &e.packets[e.front(iv).pkt]
	o := ov / V
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Grant, Node: r, Port: o - e.outBase[r], VC: ov % V, InPort: in - e.inBase[r], InVC: iv - in*V, Packet: pk.id, Dst: pk.h.Dst})
	}
	next := e.outNext[o]
	if next < 0 {
		return // ejection
	}
	port, vc := int(o-e.outBase[r]), int(ov%V)
	if pk.path == nil && e.cfg.Routing != nil {
		e.cfg.Routing.Advance(int(r), &pk.h, port, vc)
	}
	pk.h.Hops++
	pk.h.Port = int32(port)
	pk.h.InPort = next - e.inBase[e.inRtr[next]]
	pk.h.VC = int32(vc)
}
