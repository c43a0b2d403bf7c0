package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// RoutingError is a routing function that answered outside the network: no choice,
// or a port without a link, for a packet at a router.
type RoutingError struct {
	Router int
	Packet int64
	Msg    string
}

func (e *RoutingError) Error() string {
	return fmt.Sprintf("sim: routing at router %d, packet %d: %s", e.Router, e.Packet, e.Msg)
}

// route is the routing phase: every input VC whose front flit is a head not yet
// routed gets its choices (the ejection port at the destination, the next port of
// a fixed path, else the Routing's answer) and may ask for a VC Route cycles on.
func (e *engine) route(p *part) error {
	all := allVCs(e.V)
	for w := p.w0; w < p.w1; w++ {
		for word := e.unrouted.rtrs[w]; word != 0; word &= word - 1 {
			r := int32(w<<6 | bits.TrailingZeros64(word))
			if err := e.routeAt(r, all); err != nil {
				return err
			}
		}
	}
	return nil
}

// routeAt is route at router r (all: the mask of every VC).
func (e *engine) routeAt(r int32, all uint64) error {
	// the unrouted heads, in increasing order of input VC
	ib := *elem(e.inBase, int(r))
	for pm := *elem(e.unrouted.ports, int(r)); pm != 0; pm &= pm - 1 {
		i := int32(bits.TrailingZeros64(pm))
		in := ib + i
		for m := *elem(e.unrouted.vcs, int(in)); m != 0; m &= m - 1 {
			v := int32(bits.TrailingZeros64(m))
			if err := e.routeHead(r, i, in, v, all); err != nil {
				return err
			}
		}
	}
	return nil
}

// routeHead gives the unrouted head at the front of VC v of input port in (number
// i at router r) its choices (all: the mask of every VC).
func (e *engine) routeHead(r, i, in, v int32, all uint64) error {
	V := e.V
	iv := in<<(e.vs&31) | v
	c := elem(e.vc, int(iv))
	f := *elem(e.buf, int(iv)*e.ring+int(c.head)) // (e.front)
	pk := elem(e.packets, int(f.pkt()))
	if !f.head() {
		panic("sim: a body flit at the front of an idle VC")
	}
	hd := elem(e.heads, int(iv))
	ch := hd.ch[:0]
	ports := *elem(e.nports, int(r)) // network output ports; the ejection ports follow
	path := e.pathOf(pk)
	switch {
	case path != nil && int(pk.h.Hops) < len(path):
		// a fixed path may pass its destination (a walk): it ends
		// where the path ends
		ch = append(ch, Choice{Port: int(path[pk.h.Hops]), VCs: all})
	case pk.h.Dst == r && (path != nil || e.cfg.Routing == nil || Arrives(e.cfg.Routing, &pk.h)):
		vcs := all
		if e.ejecting != nil && path == nil {
			vcs = e.ejecting.EjectVCs(&pk.h) & all
		}
		ch = append(ch, Choice{Port: int(ports + e.tEj[pk.dt]), VCs: vcs})
	case path != nil:
		return &RoutingError{int(r), pk.id, "fixed path ends before the destination"}
	default:
		if e.cfg.Routing == nil {
			return &RoutingError{int(r), pk.id, "no routing and no fixed path"}
		}
		ch = e.cfg.Routing.Route(int(r), &pk.h, ch)
		if len(ch) == 0 {
			return &RoutingError{int(r), pk.id, "no choice"}
		}
		if k, steer := int(pk.h.Hops), e.steerOf(pk); k < len(steer) {
			// the steered VC first (a Pri below every other), the routing's
			// choices behind it
			s := steer[k]
			if !offers(ch, s) {
				return &RoutingError{int(r), pk.id, fmt.Sprintf("steer[%d]: port %d VC %d is not among the routing's choices", k, s.Port, s.VC)}
			}
			ch = append(ch, Choice{Port: s.Port, VCs: 1 << uint(s.VC), Pri: math.MinInt32})
		}
	}
	ob := *elem(e.outBase, int(r))
	nout := int(*elem(e.outBase, int(r)+1) - ob)
	for _, x := range ch {
		if x.Port < 0 || x.Port >= nout || (x.Port < int(ports) && e.out[int(ob)+x.Port].next < 0) {
			return &RoutingError{int(r), pk.id, fmt.Sprintf("port %d has no link", x.Port)}
		}
		if x.VCs&all == 0 {
			return &RoutingError{int(r), pk.id, fmt.Sprintf("port %d: no VC below %d", x.Port, V)}
		}
	}
	hd.ch = ch
	c.state = vcWait
	hd.ready = e.t + int64(e.p.Route)
	e.unrouted.remove(r, i, in, v)
	e.waiting.add(r, i, in, v)
	if e.tracing {
		e.trace(Event{Kind: Route, Node: r, Port: -1, VC: -1, InPort: i, InVC: v, Packet: pk.id, Dst: pk.h.Dst, Choices: slices.Clone(ch)})
	}
	return nil
}

// offers reports whether the choices ch allow VC h.VC of port h.Port.
func offers(ch []Choice, h Hop) bool {
	for _, c := range ch {
		if c.Port == h.Port && c.VCs>>uint(h.VC)&1 == 1 {
			return true
		}
	}
	return false
}
