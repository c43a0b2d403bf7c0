package sim

// allocSwitch is the switch allocation phase, separable input-first with one
// iteration: at every input port the VCs whose front flit may go (it has arrived,
// its VC's stage delays have passed, its output VC has a credit) are arbitrated to
// one; every output port then grants one of the inputs asking for it (all of them
// at an ejection port with EjectAll). Each grant is traversed at once.
func (e *engine) allocSwitch() {
	V := e.V
	for _, r := range e.active {
		ib, ob := e.inBase[r], e.outBase[r]
		nin := e.inBase[r+1] - ib
		eject := e.outBase[r+1] - ob - 1
		e.touch = e.touch[:0]
		for i := range nin {
			e.pick[i] = -1
			reqs := e.ireqs[:0]
			lo := (ib + i) * V
			for v := range V {
				iv := lo + v
				if e.vcState[iv] != vcActive || e.vcN[iv] == 0 || e.vcReady[iv] > e.t {
					continue
				}
				if e.front(iv).at > e.t {
					continue
				}
				ov := e.vcOut[iv]
				if e.ovCredit[ov] == 0 && ov/V != ob+eject {
					continue
				}
				reqs = append(reqs, e.request(iv, v))
			}
			e.ireqs = reqs
			if len(reqs) == 0 {
				continue
			}
			w := 0
			if len(reqs) > 1 {
				w = e.inArb[ib+i].Pick(reqs)
			}
			v := reqs[w].ID
			e.pick[i] = v
			o := e.vcOut[lo+v]/V - ob
			if len(e.reqs[o]) == 0 {
				e.touch = append(e.touch, o)
			}
			q := reqs[w]
			q.ID = i
			e.reqs[o] = append(e.reqs[o], q)
		}
		for _, o := range e.touch {
			reqs := e.reqs[o]
			if o == eject && e.cfg.EjectAll {
				for _, q := range reqs {
					e.inArb[ib+q.ID].Granted(e.pick[q.ID])
					e.traverse(r, (ib+q.ID)*V+e.pick[q.ID])
				}
			} else {
				w := 0
				if len(reqs) > 1 {
					w = e.outArb[ob+o].Pick(reqs)
				}
				i := reqs[w].ID
				e.outArb[ob+o].Granted(i)
				e.inArb[ib+i].Granted(e.pick[i])
				e.traverse(r, (ib+i)*V+e.pick[i])
			}
			e.reqs[o] = reqs[:0]
		}
	}
}

// traverse sends the front flit of input VC iv of router r through the switch to
// its output VC: the slot's credit goes upstream, the flit down the link (or into
// the sink), and a tail frees both VCs.
func (e *engine) traverse(r, iv int32) {
	V := e.V
	ov := e.vcOut[iv]
	o := ov / V
	f := *e.front(iv)
	e.vcHead[iv] = (e.vcHead[iv] + 1) % e.B
	e.vcN[iv]--
	e.load[r]--
	e.chanUse[o]++
	e.lastMove = e.t
	pk := &e.packets[f.pkt]
	in := iv / V
	if e.cfg.Trace != nil {
		e.trace(Event{Kind: Send, Node: r, Port: o - e.outBase[r], VC: ov % V, InPort: in - e.inBase[r], InVC: iv % V, Packet: pk.id, Flit: f.seq, Dst: pk.h.Dst})
	}
	if f.seq == pk.size-1 {
		e.ovOwner[ov] = -1
		e.vcState[iv] = vcIdle
	}
	if up := e.inPrev[in]; up >= 0 {
		e.schedule(int64(e.p.Credit), event{kind: evCredit, idx: up*V + iv%V})
	} else {
		e.schedule(1, event{kind: evSrc, idx: r*V + iv%V})
	}
	stage := int64(e.p.SwAlloc + e.p.Traverse)
	if next := e.outNext[o]; next >= 0 {
		e.ovCredit[ov]--
		e.schedule(stage+int64(e.p.Link), event{kind: evFlit, idx: next*V + ov%V, f: f})
	} else if d := stage + int64(e.p.Eject); d == 0 {
		e.deliver(r, f)
	} else {
		e.schedule(d, event{kind: evDeliver, idx: r, f: f})
	}
}
