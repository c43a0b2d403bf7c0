package routing

// The initial states of the dimension-order routings, listed for the deadlock
// checker (package deadlock enumerates every packet a routing can carry). Both
// "dor" and "dor-booksim" draw, at the source, one bit per dimension whose two
// ways round are equally short (Aux[0] bit i: go the - way); every combination of
// those bits is a possible start.

import (
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// tieStarts appends h with Class 0 and every combination of tie bits over the
// dimensions where src and dst tie.
func tieStarts(g *topology.Grid, h sim.Header, out []sim.Header) []sim.Header {
	var ties []int
	for i := range g.Dims() {
		if g.Tie(int(h.Src), int(h.Dst), i) {
			ties = append(ties, i)
		}
	}
	h.Class = 0
	for m := range 1 << len(ties) {
		s := h
		s.Aux[0] = 0
		for j, i := range ties {
			if m>>j&1 == 1 {
				s.Aux[0] |= 1 << uint(i)
			}
		}
		out = append(out, s)
	}
	return out
}

// Starts lists every state Start can give a packet (dor-booksim inherits it).
func (d *DOR) Starts(h sim.Header, out []sim.Header) []sim.Header { return tieStarts(d.g, h, out) }
