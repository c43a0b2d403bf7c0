package topology

// The butterfly fat-tree of Greenberg and Oh (seed 000, section B.1, Figure 1), with
// the addressing of instances.FatTree: node (l, a), level l the distance from the
// leaves; N = 4^h processors (0, a) at level 0; N / 2^(l+1) switches at level
// 1 <= l <= h. Processor a is linked to switch (1, floor(a/4)); switch (l, a) with
// l < h is linked to its parents (l+1, floor(a / 2^(l+1)) * 2^l + a mod 2^l) and
// (l+1, floor(a / 2^(l+1)) * 2^l + (a + 2^(l-1)) mod 2^l).

import (
	"fmt"
	"strconv"
)

// FatTree is the butterfly fat-tree with N processors.
type FatTree struct {
	table
	n, h  int
	level []int // level of each node
	addr  []int // address a of each node within its level
	first []int // first[l] is the node number of (l, 0)
}

var _ Network = (*FatTree)(nil)

// Up ports of a switch below the top level.
const (
	FatUp0 = 4
	FatUp1 = 5
)

// fatTreeHeight is h for n = 4^h processors, or NewFatTree's error for n (n is
// bounded before the powers of 4 are taken: past 2^62 they overflowed to 0 and
// the search never ended).
func fatTreeHeight(n int) (int, error) {
	h, p := 0, 1
	for n <= MaxNodes && p < n {
		p *= 4
		h++
	}
	if n < 4 || p != n || n > MaxNodes {
		return 0, fmt.Errorf("fat-tree of %d processors: want a power of 4 from 4 to %d", n, MaxNodes)
	}
	return h, nil
}

// NewFatTree builds the butterfly fat-tree of n = 4^h >= 4 processors.
func NewFatTree(n int) (*FatTree, error) {
	h, err := fatTreeHeight(n)
	if err != nil {
		return nil, err
	}
	f := &FatTree{n: n, h: h, first: make([]int, h+2)}
	for l := 0; l <= h; l++ {
		count := n
		if l > 0 {
			count = n >> (l + 1)
		}
		f.first[l+1] = f.first[l] + count
		for a := range count {
			f.level = append(f.level, l)
			f.addr = append(f.addr, a)
		}
	}
	nodes := len(f.level)
	f.out = make([][]link, nodes)
	f.inPorts = make([]int32, nodes)
	f.terminal = make([]bool, nodes)
	for v := range nodes {
		switch l := f.level[v]; {
		case l == 0:
			f.out[v] = []link{{-1, -1}}
			f.terminal[v] = true
		case l < h:
			f.out[v] = []link{{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}}
		default:
			f.out[v] = []link{{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}}
		}
		f.inPorts[v] = int32(len(f.out[v]))
	}
	// connect child c (by its up port up) to parent q (by its down port down).
	connect := func(c, up, q, down int) {
		f.out[c][up] = link{int32(q), int32(down)}
		f.out[q][down] = link{int32(c), int32(up)}
	}
	for a := range n {
		connect(a, 0, f.first[1]+a/4, a%4)
	}
	for l := 1; l < h; l++ {
		half := 1 << (l - 1)
		// next free down port of each parent, filled in child order
		fill := make(map[int]int)
		for a := range n >> (l + 1) {
			c := f.first[l] + a
			base := a >> (l + 1) << l
			for i, pa := range []int{base + a%(1<<l), base + (a+half)%(1<<l)} {
				q := f.first[l+1] + pa
				connect(c, FatUp0+i, q, fill[q])
				fill[q]++
			}
		}
	}
	return f, nil
}

// Processors is N.
func (f *FatTree) Processors() int { return f.n }

// Height is h = log_4 N, the level of the root switches.
func (f *FatTree) Height() int { return f.h }

// Level and Addr give node v's (l, a).
func (f *FatTree) Level(v int) int { return f.level[v] }
func (f *FatTree) Addr(v int) int  { return f.addr[v] }

// NodeAt is the node number of (l, a).
func (f *FatTree) NodeAt(l, a int) int { return f.first[l] + a }

// Ancestor reports whether switch v (level l >= 1) lies above processor p: v is
// then on every up path from p to level l, so a packet for p descends from v.
func (f *FatTree) Ancestor(v, p int) bool {
	l := f.level[v]
	if l == 0 {
		return v == p
	}
	return f.addr[v]>>(l-1) == p>>(2*l)
}

// LCALevel is the level a packet from processor s to processor t climbs to: the
// lowest l with floor(s/4^l) = floor(t/4^l).
func (f *FatTree) LCALevel(s, t int) int {
	l := 0
	for s != t {
		s >>= 2
		t >>= 2
		l++
	}
	return l
}

// DownPort is the port by which switch v descends towards processor p (v must be
// an ancestor of p): the child whose block holds p.
func (f *FatTree) DownPort(v, p int) int {
	l := f.level[v]
	if l == 1 {
		return p % 4
	}
	for port := range 4 {
		c, _ := f.Link(v, port)
		if f.Ancestor(c, p) {
			return port
		}
	}
	panic(fmt.Sprintf("topology: DownPort(%d, %d): not an ancestor", v, p))
}

// NodeName is "l,a".
func (f *FatTree) NodeName(v int) string {
	return strconv.Itoa(f.level[v]) + "," + strconv.Itoa(f.addr[v])
}

func (f *FatTree) String() string { return "fattree:" + strconv.Itoa(f.n) }
