// Package chien is Chien's cost and speed model of k-ary n-cube wormhole routers
// (A. A. Chien, "A cost and speed model for k-ary n-cube wormhole routers", Hot
// Interconnects 1993; IEEE Transactions on Parallel and Distributed Systems 9(2),
// 1998), which seed 001 (Draper and Petrini, section 4.2) uses to set the routing
// algorithms' cycle times and to scale its simulated results by them. The model
// gives the delay of each module of a router in a 0.8 micron CMOS gate array as a
// function of its size:
//
//	address decoding           T_AD  = 2.7 ns
//	routing arbitration        T_ARB = 0.6 + 0.6 log2 F   (F: degree of routing freedom)
//	crossbar                   T_CB  = 0.4 + 0.6 log2 P   (P: crossbar ports)
//	flow control               T_FC  = 2.2 ns
//	virtual channel controller T_VC  = 1.24 + 0.6 log2 V  (V: virtual channels per link)
//
// Seed 001's copy names the model and its two paths (a header is routed in
// T_head, a trailing flit forwarded in T_trail, every module clocked) but lost the
// table. wormlab's reading: a header is decoded, arbitrated among its F choices,
// switched, flow-controlled and multiplexed onto its VC, T_head = T_AD + T_ARB +
// T_CB + T_FC + T_VC; a trailing flit only follows, T_trail = T_CB + T_FC + T_VC;
// the clock fits the longer, the header's. The crossbar has a port per input VC
// (P = (2n + 1) V on an n-dimensional torus: 2n links and the injection port), and
// F is the most output VCs a routing offers one header at one router, found by
// enumerating every packet the routing can carry (Freedom).
package chien

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Delays are a router's module delays in nanoseconds (Chien's model).
type Delays struct {
	AD, ARB, CB, FC, VC float64
}

// Model is the delays of a router with p crossbar ports, v virtual channels per
// link and routing freedom f (each at least 1).
func Model(p, v, f int) (Delays, error) {
	if p < 1 || v < 1 || f < 1 {
		return Delays{}, fmt.Errorf("chien: ports %d, VCs %d, freedom %d: each must be at least 1", p, v, f)
	}
	l := func(x int) float64 { return math.Log2(float64(x)) }
	return Delays{AD: 2.7, ARB: 0.6 + 0.6*l(f), CB: 0.4 + 0.6*l(p), FC: 2.2, VC: 1.24 + 0.6*l(v)}, nil
}

// Header is the time to route a header: T_AD + T_ARB + T_CB + T_FC + T_VC.
func (d Delays) Header() float64 { return d.AD + d.ARB + d.CB + d.FC + d.VC }

// Trail is the time to forward a trailing flit: T_CB + T_FC + T_VC.
func (d Delays) Trail() float64 { return d.CB + d.FC + d.VC }

// Cycle is the router's clock period: the longer path.
func (d Delays) Cycle() float64 { return math.Max(d.Header(), d.Trail()) }

// Ports is the crossbar's size P on net with v VCs: a port per VC of every input
// link and of the injection port, at the router with the most inputs.
func Ports(net topology.Network, v int) int {
	in := 0
	for r := range net.Nodes() {
		in = max(in, net.InPorts(r))
	}
	return (in + 1) * v
}

// DimPorts is the crossbar's size P of a router cut into dimensions, as seed 001
// reads Chien's (a crossbar per dimension): the two links of its dimension and the
// stage before it (the previous dimension's or the injection port), each with v
// VCs.
func DimPorts(v int) int { return 3 * v }

// Freedom is the degree of routing freedom F of routing r on net with vcs VCs:
// the most (output port, VC) pairs it offers a header at one router, over every
// state any packet can reach (every source, destination and start state, every
// choice followed).
func Freedom(ctx context.Context, net topology.Network, r deadlock.Function, vcs int) (int, error) {
	all := uint64(1)<<uint(vcs) - 1
	if vcs >= 64 {
		all = ^uint64(0)
	}
	type state struct {
		at int
		h  sim.Header
	}
	f := 0
	var ch []sim.Choice
	n := net.Nodes()
	for src := range n {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		for dst := range n {
			if src == dst {
				continue
			}
			h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
			seen := map[state]bool{}
			var stack []state
			for _, s := range r.Starts(h, nil) {
				stack = append(stack, state{src, s})
			}
			for len(stack) > 0 {
				s := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if seen[s] || (s.at == dst && sim.Arrives(r, &s.h)) {
					continue
				}
				seen[s] = true
				ch = r.Route(s.at, &s.h, ch[:0])
				k := 0
				for _, c := range ch {
					m := c.VCs & all
					k += bits.OnesCount64(m)
					for ; m != 0; m &= m - 1 {
						v := bits.TrailingZeros64(m)
						next, in := net.Link(s.at, c.Port)
						if next < 0 {
							return 0, fmt.Errorf("chien: %d -> %d: port %d of router %d has no link", src, dst, c.Port, s.at)
						}
						h2 := s.h
						r.Advance(s.at, &h2, c.Port, v)
						h2.Hops++
						h2.Port, h2.InPort, h2.VC = int32(c.Port), int32(in), int32(v)
						stack = append(stack, state{next, h2})
					}
				}
				f = max(f, k)
			}
		}
	}
	return f, nil
}
