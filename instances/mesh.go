package instances

// Lines, k-dimensional meshes and tori of any sides, with bidirected links.
// Routing: dimension order (e-cube, seed 003), one-bend paths (seed 002, section
// 2.4), and uniformly random shortest paths.

import (
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// maxNodes bounds the networks the generators build (about 4 million nodes).
const maxNodes = 1 << 22

// Line returns the line 0 - 1 - ... - n-1 with a link (two edges) between
// neighbours; nodes are named "0" .. "n-1" with coords [i]. n >= 2.
func Line(n int) (*Topology, error) {
	if n < 2 || n > maxNodes {
		return nil, specErr("size", "line of %d nodes: want 2 to %d", n, maxNodes)
	}
	t, err := grid("line", []int{n}, false)
	if err != nil {
		return nil, err
	}
	t.Params = map[string]any{"kind": "line", "n": n}
	return t, nil
}

// Mesh returns the k-dimensional mesh with the given sides (k = len(sides)): node
// (x_0, ..., x_{k-1}), 0 <= x_i < sides[i], is named "x_0,...,x_{k-1}" and linked to
// the nodes that differ by one in one coordinate. Nodes are numbered in row-major
// order (the last coordinate fastest); each carries its coordinates in "coords".
func Mesh(sides ...int) (*Topology, error) { return grid("mesh", sides, false) }

// Torus returns the k-dimensional torus: the mesh plus a wrap-around link between
// x_i = sides[i]-1 and x_i = 0 in every dimension of side at least 3. (A side of 2
// gets no wrap link, which would only double the link that is there: with it a path
// by node names would be ambiguous.)
func Torus(sides ...int) (*Topology, error) { return grid("torus", sides, true) }

func grid(kind string, sides []int, torus bool) (*Topology, error) {
	if len(sides) == 0 {
		return nil, specErr("sides", "no sides given")
	}
	n := 1
	for _, s := range sides {
		if s < 1 {
			return nil, specErr("sides", "side %d is below 1", s)
		}
		if s > maxNodes { // n * s could overflow
			return nil, specErr("sides", "more than %d nodes", maxNodes)
		}
		if n *= s; n > maxNodes {
			return nil, specErr("sides", "more than %d nodes", maxNodes)
		}
	}
	if n < 2 {
		return nil, specErr("sides", "a network of one node carries no message")
	}
	k := len(sides)
	t := &Topology{
		Net:    &model.Network{},
		Params: map[string]any{"kind": kind, "sides": sides},
		sides:  append([]int(nil), sides...),
		wrap:   make([]bool, k),
		coords: make([][]int, n),
	}
	for i, s := range sides {
		t.wrap[i] = torus && s >= 3
	}
	stride := make([]int, k)
	stride[k-1] = 1
	for i := k - 2; i >= 0; i-- {
		stride[i] = stride[i+1] * sides[i+1]
	}
	var name strings.Builder
	for u := range n {
		c := make([]int, k)
		name.Reset()
		for i := range k {
			c[i] = u / stride[i] % sides[i]
			if i > 0 {
				name.WriteByte(',')
			}
			name.WriteString(strconv.Itoa(c[i]))
		}
		t.coords[u] = c
		t.Net.AddNode(name.String())
	}
	// step[u*2k + 2i] is the edge leaving u in direction +i, step[..+1] direction -i.
	step := make([]int, n*2*k)
	for i := range step {
		step[i] = -1
	}
	for u := range n {
		for i := range k {
			x := t.coords[u][i]
			var v int
			switch {
			case x+1 < sides[i]:
				v = u + stride[i]
			case t.wrap[i]:
				v = u - x*stride[i]
			default:
				continue
			}
			plus, minus := t.Net.AddLink(u, v)
			step[u*2*k+2*i] = plus
			step[v*2*k+2*i+1] = minus
		}
	}
	t.Net.SetExtra("coords", t.coords)
	t.Sources = allNodes(n)
	t.Dests = t.Sources
	g := &meshGrid{t: t, k: k, step: step}
	rs := []Routing{DimensionOrderRouting{g}, RandomShortestGrid{g}}
	if k <= 2 {
		rs = append(rs, OneBendRouting{g})
	}
	t.setRoutes(rs...)
	return t, nil
}

// meshGrid is what the routings of a mesh or torus need: its topology (coordinates,
// sides, wrap links), the number of dimensions k, and step[u*2k + 2i] the edge
// leaving u in direction +i (step[..+1] direction -i), -1 where there is none.
type meshGrid struct {
	t    *Topology
	k    int
	step []int
}

// offsets returns, per dimension, the number of hops from src to dst and the
// direction (0 = +, 1 = -) of a shortest path. On a torus ring of even side the two
// ways round tie at distance side/2: with tieRandom one is drawn from r, else the
// + way is taken.
func (g *meshGrid) offsets(src, dst int, tieRandom bool, r *rand.Rand) (hops, dir []int) {
	t := g.t
	k := len(t.sides)
	hops, dir = make([]int, k), make([]int, k)
	a, b := t.coords[src], t.coords[dst]
	for i, s := range t.sides {
		f := b[i] - a[i]
		if !t.wrap[i] {
			if f < 0 {
				hops[i], dir[i] = -f, 1
			} else {
				hops[i] = f
			}
			continue
		}
		f = ((f % s) + s) % s
		switch {
		case f < s-f:
			hops[i] = f
		case f > s-f:
			hops[i], dir[i] = s-f, 1
		default:
			hops[i] = f
			if tieRandom && r.IntN(2) == 1 {
				dir[i] = 1
			}
		}
	}
	return hops, dir
}

// walk returns the path that makes hops[i] moves in dimension i (direction dir[i])
// for the dimensions in order.
func (g *meshGrid) walk(src int, hops, dir, order []int) []int {
	total := 0
	for _, h := range hops {
		total += h
	}
	path := make([]int, 0, total)
	u := src
	for _, i := range order {
		for range hops[i] {
			e := g.step[u*2*g.k+2*i+dir[i]]
			path = append(path, e)
			u = g.t.Net.Edges[e].To
		}
	}
	return path
}

// dims returns 0 .. k-1.
func (g *meshGrid) dims() []int {
	order := make([]int, g.k)
	for i := range order {
		order[i] = i
	}
	return order
}

func allNodes(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
