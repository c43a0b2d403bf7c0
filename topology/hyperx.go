package topology

// HyperX (Ahn, Binkert, Davis, McLaren and Schreiber, HyperX: topology, routing, and
// packaging of efficient large-scale networks, SC 2009, section 3): routers at the
// points of an L-dimensional lattice S_0 x .. x S_{L-1}; in every dimension k the
// S_k routers of a line (all other coordinates equal) are fully connected, every
// two of them by K_k parallel links (the link multiplicity); every router has T
// terminals. Each S_k is at least 2 (a dimension of size 1 has no links).
//
// The flattened butterfly of Kim, Dally and Abts (Flattened butterfly: a
// cost-efficient topology for high-radix networks, ISCA 2007, section 2.1) is the
// HyperX with K = 1: a k-ary n-flat, the k-ary n-fly with each row of n routers
// flattened into one, has k^(n-1) routers in n-1 dimensions of k and k terminals
// per router (N = k^n). BookSim2's flatfly (src/networks/flatfly_onchip.cpp) takes
// k routers per dimension, n dimensions and concentration c: it is flatfly:k=K,n=N+1
// here when c = k, else flatfly:k=K,n=N+1,c=C.
//
// Addressing: router r has coordinates c_k = r / (S_0 .. S_{k-1}) mod S_k
// (dimension 0 fastest, as BookSim2's flatfly); its terminals are r*T .. r*T+T-1.
// Ports by dimension, then by the coordinate reached in increasing order skipping
// the router's own (BookSim2's order), then by multiplicity: dimension k's block
// starts at sum_{j<k} (S_j - 1) K_j, and the port to coordinate x, copy m, is
// block + (x' K_k + m) with x' = x when x < c_k, else x - 1. A link enters its far
// router by the port that leads back on the same copy.

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// HyperX is a HyperX network (a flattened butterfly when every multiplicity is 1).
type HyperX struct {
	table
	sides, mult, stride, base []int
	t                         int
	flat                      string // the flatfly spec it was built from, if any
}

var _ Network = (*HyperX)(nil)

func init() {
	registerKind("hyperx", "hyperx:4x4,k=1,t=4", func(arg string) (Network, error) {
		sides, mult, t, err := parseHyperX(arg)
		if err != nil {
			return nil, err
		}
		return NewHyperX(sides, mult, t)
	})
	registerKind("flatfly", "flatfly:k=4,n=3", func(arg string) (Network, error) {
		k, n, c, err := parseFlatfly(arg)
		if err != nil {
			return nil, err
		}
		sides, mult := flatflySides(k, n)
		h, err := NewHyperX(sides, mult, c)
		if err != nil {
			return nil, err
		}
		h.flat = fmt.Sprintf("flatfly:k=%d,n=%d", k, n)
		if c != k {
			h.flat += fmt.Sprintf(",c=%d", c)
		}
		return h, nil
	})
}

// parseHyperX reads "4x4,k=1,t=4": the sides, each dimension's multiplicity (one
// for all, or one per dimension, "k=1x2") and the terminals per router.
func parseHyperX(arg string) (sides, mult []int, t int, err error) {
	ps, err := parseParams(arg)
	if err != nil {
		return nil, nil, 0, err
	}
	if ps.lead == "" {
		return nil, nil, 0, &SpecError{Field: "sides", Msg: "missing (want hyperx:S0xS1..,k=K,t=T)"}
	}
	if sides, err = parseSides(ps.lead); err != nil {
		return nil, nil, 0, err
	}
	mult = make([]int, len(sides))
	ks := ps.str("k", "1")
	parts := strings.Split(ks, "x")
	if len(parts) != 1 && len(parts) != len(sides) {
		return nil, nil, 0, &SpecError{Field: "k", Msg: fmt.Sprintf("%d multiplicities for %d dimensions", len(parts), len(sides))}
	}
	for i := range mult {
		s := parts[0]
		if len(parts) > 1 {
			s = parts[i]
		}
		k, err := atoi(s)
		if err != nil || k < 1 {
			return nil, nil, 0, &SpecError{Field: "k", Msg: fmt.Sprintf("%q is not a whole number at least 1", s)}
		}
		mult[i] = k
	}
	if t, err = ps.int("t", 1, 1); err != nil {
		return nil, nil, 0, err
	}
	return sides, mult, t, ps.done()
}

// parseFlatfly reads "k=4,n=3" (a k-ary n-flat) and c, the terminals per router
// (default k).
func parseFlatfly(arg string) (k, n, c int, err error) {
	ps, err := parseParams(arg)
	if err != nil {
		return 0, 0, 0, err
	}
	if ps.lead != "" {
		return 0, 0, 0, &SpecError{Field: ps.lead, Msg: "want KEY=VALUE (k, n, c)"}
	}
	if k, err = ps.int("k", 0, 2); err != nil {
		return 0, 0, 0, err
	}
	if n, err = ps.int("n", 0, 2); err != nil {
		return 0, 0, 0, err
	}
	if k == 0 || n == 0 {
		return 0, 0, 0, &SpecError{Field: "k", Msg: "want flatfly:k=K,n=N (a k-ary n-flat, n at least 2)"}
	}
	if n-1 > bits.Len(MaxNodes)-1 { // k^(n-1) >= 2^(n-1) routers
		return 0, 0, 0, &SpecError{Field: "n", Msg: fmt.Sprintf("more than %d routers", MaxNodes)}
	}
	if c, err = ps.int("c", k, 1); err != nil {
		return 0, 0, 0, err
	}
	return k, n, c, ps.done()
}

// flatflySides are the HyperX dimensions of a k-ary n-flat: n-1 of k routers, one
// link each.
func flatflySides(k, n int) (sides, mult []int) {
	sides, mult = make([]int, n-1), make([]int, n-1)
	for i := range sides {
		sides[i], mult[i] = k, 1
	}
	return sides, mult
}

// hyperxOf is the HyperX of these dimensions with its tables not yet built, its
// routers and its router radix, or the error NewHyperX gives for them (SizeOf
// refuses what it refuses). Every product is checked before it is taken, so that
// no parameter, however large, overflows a check.
func hyperxOf(sides, mult []int, t int) (x *HyperX, n, ports int, err error) {
	if len(sides) == 0 {
		return nil, 0, 0, &SpecError{Field: "sides", Msg: "no dimensions"}
	}
	x = &HyperX{sides: append([]int(nil), sides...), mult: append([]int(nil), mult...), t: t}
	n = 1
	for i, s := range sides {
		if s < 2 {
			return nil, 0, 0, &SpecError{Field: "sides", Msg: fmt.Sprintf("dimension %d has size %d: want at least 2 (a dimension of one router has no links)", i, s)}
		}
		if s > MaxNodes || n*s > MaxNodes || max(t, 1) > MaxNodes/(n*s) {
			return nil, 0, 0, &SpecError{Field: "sides", Msg: fmt.Sprintf("more than %d routers or terminals", MaxNodes)}
		}
		if mult[i] > 62 {
			return nil, 0, 0, &SpecError{Field: "k", Msg: fmt.Sprintf("multiplicity %d above the router radix 62", mult[i])}
		}
		x.stride = append(x.stride, n)
		x.base = append(x.base, ports)
		n *= s
		ports += (s - 1) * mult[i]
	}
	if ports > 62 {
		return nil, 0, 0, &SpecError{Field: "k", Msg: fmt.Sprintf("router radix %d above 62", ports)}
	}
	return x, n, ports, nil
}

// NewHyperX builds the HyperX with the given dimension sizes (each at least 2),
// multiplicities (each at least 1) and t terminals per router.
func NewHyperX(sides, mult []int, t int) (*HyperX, error) {
	x, n, ports, err := hyperxOf(sides, mult, t)
	if err != nil {
		return nil, err
	}
	x.out = make([][]link, n)
	x.inPorts = make([]int32, n)
	x.terminal = make([]bool, n)
	links := make([]link, n*ports)
	for r := range n {
		x.out[r] = links[r*ports : (r+1)*ports : (r+1)*ports]
		x.inPorts[r] = int32(ports)
		for d := range sides {
			own := x.Coord(r, d)
			for c := range sides[d] {
				if c == own {
					continue
				}
				far := r + (c-own)*x.stride[d]
				for m := range mult[d] {
					x.out[r][x.PortTo(r, d, c, m)] = link{int32(far), int32(x.PortTo(far, d, own, m))}
				}
			}
		}
	}
	x.setTerminals(concentrated(uniformConc(n, t)))
	return x, nil
}

// Dims is L, Side(k) is S_k, Mult(k) is K_k, Terms is T.
func (x *HyperX) Dims() int          { return len(x.sides) }
func (x *HyperX) Side(k int) int     { return x.sides[k] }
func (x *HyperX) Mult(k int) int     { return x.mult[k] }
func (x *HyperX) Terms() int         { return x.t }
func (x *HyperX) Coord(r, k int) int { return r / x.stride[k] % x.sides[k] }

// Move is the router reached from r by setting its coordinate in dimension k to c.
func (x *HyperX) Move(r, k, c int) int { return r + (c-x.Coord(r, k))*x.stride[k] }

// PortTo is router r's port of copy m of its link to coordinate c (not its own) in
// dimension k.
func (x *HyperX) PortTo(r, k, c, m int) int {
	if c > x.Coord(r, k) {
		c--
	}
	return x.base[k] + c*x.mult[k] + m
}

// PortDim is the dimension a port of router r belongs to and the coordinate it
// reaches.
func (x *HyperX) PortDim(r, port int) (k, c int) {
	for k = len(x.base) - 1; x.base[k] > port; k-- {
	}
	c = (port - x.base[k]) / x.mult[k]
	if c >= x.Coord(r, k) {
		c++
	}
	return k, c
}

// NodeName is "c0,c1,...".
func (x *HyperX) NodeName(r int) string {
	var b strings.Builder
	for k := range x.sides {
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x.Coord(r, k)))
	}
	return b.String()
}

func (x *HyperX) String() string {
	if x.flat != "" {
		return x.flat
	}
	var b strings.Builder
	b.WriteString("hyperx:")
	for i, s := range x.sides {
		if i > 0 {
			b.WriteByte('x')
		}
		b.WriteString(strconv.Itoa(s))
	}
	uniform := true
	for _, m := range x.mult {
		uniform = uniform && m == x.mult[0]
	}
	switch {
	case uniform && x.mult[0] != 1:
		b.WriteString(",k=" + strconv.Itoa(x.mult[0]))
	case !uniform:
		b.WriteString(",k=")
		for i, m := range x.mult {
			if i > 0 {
				b.WriteByte('x')
			}
			b.WriteString(strconv.Itoa(m))
		}
	}
	b.WriteString(",t=" + strconv.Itoa(x.t))
	return b.String()
}
