package instances

// Traffic patterns: which terminal sends to which. Random, complement and many-to-1
// are Greenberg and Oh's (seed 000, section B.3); hotspot and local Boppana and
// Chalasani's (seed 003); permutation, transpose and bit-reversal the classical
// permutations of interconnect studies; light and heavy Ranade's butterfly problems
// (seed 002, section 2.4, see ranade.go).

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Traffic pattern names.
const (
	Random      = "random"       // destination uniform over the destinations
	Permutation = "permutation"  // each round of T messages follows a fresh random permutation
	Complement  = "complement"   // terminal a sends to T-1-a (bitwise complement when T = 2^k)
	ManyToOne   = "many-to-1"    // the first half sends to terminal T-1, the second half to 0
	Hotspot     = "hotspot"      // with probability Hotspot to the hotspot, else uniform
	Local       = "local"        // uniform within Radius of the source
	Transpose   = "transpose"    // reversed coordinates, or swapped halves of the address bits
	BitReversal = "bit-reversal" // reversed address bits (T = 2^k)
	Light       = "light"        // Ranade: 1 message per butterfly input, random output
	Heavy       = "heavy"        // Ranade: log N messages per butterfly input
)

// Patterns lists the traffic pattern names.
var Patterns = []string{Random, Permutation, Complement, ManyToOne, Hotspot, Local, Transpose, BitReversal, Light, Heavy}

// ParamReaders maps a traffic's own parameter, named as wormlab gen's flag (Spec's
// Radius and Hotspot), to the one pattern that reads it: the others ignore it, and
// a caller refuses it with them (sim.PatternReads is the network half's list).
var ParamReaders = map[string]string{"radius": Local, "hotspot": Hotspot}

// Traffic describes a path set's traffic.
type Traffic struct {
	Pattern string
	// Messages is the number of (source, destination) pairs drawn; 0 means one per
	// source terminal (Ranade's problems fix their own count and take 0 only).
	// Message i has source terminal i mod T.
	Messages int
	// Radius bounds a local message's reach: on meshes and tori every coordinate
	// differs by at most Radius (the box of seed 003, with wrap-around distance on a
	// torus); elsewhere the hop distance, links taken either way, is at most Radius.
	Radius int
	// Hotspot is the probability that a hotspot message goes to the hotspot node:
	// the centre (floor(side/2) in every coordinate) of a mesh or torus, terminal
	// floor(T/2) elsewhere.
	Hotspot float64
}

// Pairs draws the (source, destination) pairs of the traffic on the topology. Pairs
// with equal ends are kept here; Topology.Instance skips them.
func Pairs(t *Topology, tr Traffic, r *rand.Rand) ([]Pair, error) {
	T, U := len(t.Sources), len(t.Dests)
	m := tr.Messages
	if m < 0 {
		return nil, specErr("messages", "%d is negative", m)
	}
	// As many messages as the largest network has nodes: beyond that the pairs alone
	// would exhaust memory.
	if m > maxNodes {
		return nil, specErr("messages", "%d is more than %d", m, maxNodes)
	}
	if tr.Pattern == Light || tr.Pattern == Heavy {
		return ranade(t, tr, r)
	}
	if m == 0 {
		m = T
	}
	if t.Kind() == "levelled" && tr.Pattern != Random {
		return nil, specErr("traffic", "%q: a random levelled network takes random traffic only", tr.Pattern)
	}
	// fixed maps source terminal a to destination terminal f(a).
	var fixed func(a int) int
	switch tr.Pattern {
	case Random:
		pairs := make([]Pair, m)
		var reaches [][]int // levelled: per source terminal, once drawn from
		if t.Kind() == "levelled" {
			reaches = make([][]int, T)
		}
		for i := range pairs {
			src := t.Sources[i%T]
			if reaches != nil {
				if i < T {
					reaches[i] = t.reachable(src)
				}
				reach := reaches[i%T]
				if len(reach) == 0 {
					return nil, fmt.Errorf("levelled: node %s reaches no node of the last level", t.Net.Nodes[src])
				}
				pairs[i] = Pair{src, t.Dests[reach[r.IntN(len(reach))]]}
				continue
			}
			pairs[i] = Pair{src, t.Dests[r.IntN(U)]}
		}
		return pairs, nil
	case Permutation:
		pairs := make([]Pair, m)
		var perm []int
		for i := range pairs {
			if i%T == 0 {
				perm = r.Perm(U)
			}
			pairs[i] = Pair{t.Sources[i%T], t.Dests[perm[i%T]]}
		}
		return pairs, nil
	case Complement:
		fixed = func(a int) int { return U - 1 - a }
	case ManyToOne:
		fixed = func(a int) int {
			if a < T/2 {
				return U - 1
			}
			return 0
		}
	case Hotspot:
		if !(tr.Hotspot >= 0 && tr.Hotspot <= 1) {
			return nil, specErr("hotspot", "fraction %v: want 0 to 1", tr.Hotspot)
		}
		hot := t.hotspot()
		pairs := make([]Pair, m)
		for i := range pairs {
			d := t.Dests[r.IntN(U)]
			if r.Float64() < tr.Hotspot {
				d = hot
			}
			pairs[i] = Pair{t.Sources[i%T], d}
		}
		return pairs, nil
	case Local:
		if tr.Radius < 1 {
			return nil, specErr("radius", "%d is below 1", tr.Radius)
		}
		if R := t.localReach(tr.Radius); tr.Radius > R {
			return nil, specErr("radius", "%d is above %d, the farthest a destination lies from a source in the radius's distance (a radius above it draws as %d does)", tr.Radius, R, R)
		}
		pairs := make([]Pair, m)
		for i := range pairs {
			src := t.Sources[i%T]
			d, err := t.local(src, tr.Radius, r)
			if err != nil {
				return nil, err
			}
			pairs[i] = Pair{src, d}
		}
		return pairs, nil
	case Transpose:
		f, err := t.transpose()
		if err != nil {
			return nil, err
		}
		fixed = f
	case BitReversal:
		if T&(T-1) != 0 || T < 2 {
			return nil, specErr("traffic", "bit-reversal needs a power-of-2 number of terminals, have %d", T)
		}
		k := bits.TrailingZeros(uint(T))
		fixed = func(a int) int { return int(bits.Reverse(uint(a)) >> (bits.UintSize - k)) }
	default:
		return nil, specErr("traffic", "unknown pattern %q (want one of %v)", tr.Pattern, Patterns)
	}
	if T != U {
		return nil, specErr("traffic", "%q needs as many sources as destinations", tr.Pattern)
	}
	pairs := make([]Pair, m)
	for i := range pairs {
		a := i % T
		pairs[i] = Pair{t.Sources[a], t.Dests[fixed(a)]}
	}
	return pairs, nil
}

// hotspot returns the hotspot node: the centre of a mesh or torus, else the middle
// destination terminal.
func (t *Topology) hotspot() int {
	if t.sides != nil {
		u := 0
		for _, s := range t.sides {
			u = u*s + s/2
		}
		return u
	}
	return t.Dests[len(t.Dests)/2]
}

// localReach is the farthest a destination lies from a source in local's
// distance: on a mesh or torus the largest coordinate difference (s-1 on a side
// of s nodes, s/2 with wrap-around), elsewhere the hop distance with links taken
// either way. A radius at most the farthest distance from the first source is
// returned at once (the reach is at least that), so only a radius that may
// exceed it pays a search from every source.
func (t *Topology) localReach(radius int) int {
	if t.sides != nil {
		R := 0
		for i, s := range t.sides {
			if t.wrap[i] {
				R = max(R, s/2)
			} else {
				R = max(R, s-1)
			}
		}
		return R
	}
	far := func(src int) int {
		R, dist := 0, t.hopsWithin(src, -1)
		for _, d := range t.Dests {
			if h, ok := dist[d]; ok {
				R = max(R, h)
			}
		}
		return R
	}
	R := far(t.Sources[0])
	if radius <= R {
		return R
	}
	for _, src := range t.Sources[1:] {
		R = max(R, far(src))
	}
	return R
}

// local draws a destination uniformly among the terminals within radius of src,
// other than src.
func (t *Topology) local(src, radius int, r *rand.Rand) (int, error) {
	if t.sides != nil {
		// Per dimension the coordinates within reach; their product is the box, and
		// drawing each coordinate uniformly draws the box uniformly. Redraw the source.
		c := t.coords[src]
		choices := make([][]int, len(t.sides))
		size := 1
		for i, s := range t.sides {
			for x := 0; x < s; x++ {
				dist := x - c[i]
				if dist < 0 {
					dist = -dist
				}
				if t.wrap[i] {
					dist = min(dist, s-dist)
				}
				if dist <= radius {
					choices[i] = append(choices[i], x)
				}
			}
			size *= len(choices[i])
		}
		if size < 2 {
			return 0, fmt.Errorf("local: no node within radius %d of %s", radius, t.Net.Nodes[src])
		}
		for {
			u := 0
			for i, s := range t.sides {
				u = u*s + choices[i][r.IntN(len(choices[i]))]
			}
			if u != src {
				return u, nil
			}
		}
	}
	dist := t.hopsWithin(src, radius)
	var near []int
	for _, d := range t.Dests {
		if _, ok := dist[d]; ok && d != src {
			near = append(near, d)
		}
	}
	if len(near) == 0 {
		return 0, fmt.Errorf("local: no destination within radius %d of %s", radius, t.Net.Nodes[src])
	}
	return near[r.IntN(len(near))], nil
}

// hopsWithin is the hop distance from src of every node at most radius hops
// away (every node it reaches where radius is negative), links taken either
// way: a breadth-first search.
func (t *Topology) hopsWithin(src, radius int) map[int]int {
	dist := map[int]int{src: 0}
	queue := []int{src}
	for q := 0; q < len(queue); q++ {
		u := queue[q]
		if dist[u] == radius {
			continue
		}
		visit := func(v int) {
			if _, ok := dist[v]; !ok {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
		for _, e := range t.Net.Out(u) {
			visit(t.Net.Edges[e].To)
		}
		for _, e := range t.Net.In(u) {
			visit(t.Net.Edges[e].From)
		}
	}
	return dist
}

// transpose returns the transpose permutation on terminal indices: reversed
// coordinates on a mesh or torus whose sides read the same backwards, else (a
// power-of-2 number of terminals with an even number of address bits) the address
// with its high and low halves swapped.
func (t *Topology) transpose() (func(int) int, error) {
	if t.sides != nil {
		k := len(t.sides)
		for i := range k {
			if t.sides[i] != t.sides[k-1-i] {
				return nil, specErr("traffic", "transpose needs sides that read the same backwards, have %v", t.sides)
			}
		}
		return func(a int) int {
			u := 0
			c := t.coords[a]
			for i := range k {
				u = u*t.sides[i] + c[k-1-i]
			}
			return u
		}, nil
	}
	T := len(t.Sources)
	k := bits.TrailingZeros(uint(T))
	if T&(T-1) != 0 || k%2 != 0 {
		return nil, specErr("traffic", "transpose needs 4^j terminals, have %d", T)
	}
	h := k / 2
	low := 1<<h - 1
	return func(a int) int { return (a&low)<<h | a>>h }, nil
}
