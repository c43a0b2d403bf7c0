package instances

// The butterfly fat-tree of Greenberg and Oh (seed 000, section B.1, Figure 1).
//
// Node (l, a): level l is the distance from the leaves. Level 0 holds the N
// processors (0, 0) .. (0, N-1); level l >= 1 holds N / 2^(l+1) switches. Processor
// (0, a) is linked to switch (1, floor(a/4)). A switch (l, a) with 1 <= l < h
// (N = 4^h) is linked to its two parents
//
//	(l+1, floor(a / 2^(l+1)) * 2^l + a mod 2^l) and
//	(l+1, floor(a / 2^(l+1)) * 2^l + (a + 2^(l-1)) mod 2^l).
//
// (The copy of the paper lost these formulas; this is the standard butterfly
// fat-tree addressing, and the tests check what it must satisfy: every switch has 4
// children and, below the top, 2 parents, and switch (l, a) is an ancestor of
// exactly the 4^l processors of block floor(a / 2^(l-1)).) Links carry edges both
// ways. A message climbs to a least common ancestor of its two processors, the
// lowest level l with floor(s/4^l) = floor(t/4^l), choosing one of two up-links at
// each switch, then descends along the unique down path.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
)

// FatTree returns the butterfly fat-tree with n = 4^h >= 4 processors. Node (l, a)
// is named "l,a" and carries coords [l, a]. Sources and destinations are the
// processors, indexed by address a. Routings: random-shortest (each up-link drawn
// at random, the FP path selection of seed 000, section B.2) and deterministic (at
// level l the up-link is chosen by bit l-1 of the destination address).
func FatTree(n int) (*Topology, error) {
	h := 0
	for p := 1; p < n; p *= 4 {
		h++
	}
	if n < 4 || pow4(h) != n || n > maxNodes {
		return nil, specErr("size", "fat-tree of %d processors: want a power of 4 from 4 to %d", n, maxNodes)
	}
	net := &model.Network{}
	var coords [][]int
	// id[l][a] is the node index of (l, a).
	id := make([][]int, h+1)
	for l := 0; l <= h; l++ {
		count := n
		if l > 0 {
			count = n >> (l + 1)
		}
		id[l] = make([]int, count)
		for a := range count {
			id[l][a] = net.AddNode(fmt.Sprintf("%d,%d", l, a))
			coords = append(coords, []int{l, a})
		}
	}
	nn := len(net.Nodes)
	upEdges := make([][]int, nn)  // the edges to the parents of a node
	children := make([][]int, nn) // the edges to the children of a switch
	link := func(child, parent int) {
		upE, downE := net.AddLink(child, parent)
		upEdges[child] = append(upEdges[child], upE)
		children[parent] = append(children[parent], downE)
	}
	for a := range n {
		link(id[0][a], id[1][a/4])
	}
	for l := 1; l < h; l++ {
		half := 1 << (l - 1)
		for a := range id[l] {
			base := a >> (l + 1) << l
			link(id[l][a], id[l+1][base+a%(1<<l)])
			link(id[l][a], id[l+1][base+(a+half)%(1<<l)])
		}
	}
	net.SetExtra("coords", coords)
	t := &Topology{
		Net:     net,
		Params:  map[string]any{"kind": "fat-tree", "processors": n},
		Sources: id[0],
		Dests:   id[0],
	}
	// covers reports whether node u's subtree holds processor p.
	covers := func(u, p int) bool {
		l, a := coords[u][0], coords[u][1]
		if l == 0 {
			return a == p
		}
		return p/pow4(l) == a>>(l-1)
	}
	ft := &fatTree{net: net, coords: coords, upEdges: upEdges, children: children, covers: covers}
	t.setRoutes(FatTreeRandom{ft}, FatTreeDeterministic{ft})
	return t, nil
}

func pow4(l int) int { return 1 << (2 * l) }

// upChooser picks which of a fat-tree node's two up-links a path takes (0 or 1),
// for a path to processor d leaving node u: the variation between the fat-tree
// routings (routing_fattree_*.go).
type upChooser interface {
	up(u, d int, r *rand.Rand) int
}

// fatTree is what the fat-tree routings need: the network, each node's (level,
// address), its up-links and down-links, and whether a subtree holds a processor.
type fatTree struct {
	net      *model.Network
	coords   [][]int
	upEdges  [][]int
	children [][]int
	covers   func(u, p int) bool
}

// path climbs from processor src until the subtree holds dst, choosing up-links
// with c, then descends the unique way.
func (f *fatTree) path(src, dst int, c upChooser, r *rand.Rand) ([]int, error) {
	net, coords := f.net, f.coords
	if coords[src][0] != 0 || coords[dst][0] != 0 {
		return nil, fmt.Errorf("fat-tree: route %s -> %s: both ends must be processors (level 0)", net.Nodes[src], net.Nodes[dst])
	}
	s, d := coords[src][1], coords[dst][1]
	var path []int
	u := src
	for !f.covers(u, d) {
		ups := f.upEdges[u]
		j := 0
		if len(ups) == 2 {
			j = c.up(u, d, r)
		}
		path = append(path, ups[j])
		u = net.Edges[ups[j]].To
	}
	for u != dst {
		next := -1
		for _, e := range f.children[u] {
			if f.covers(net.Edges[e].To, d) {
				next = e
				break
			}
		}
		if next < 0 {
			panic(fmt.Sprintf("instances: fat-tree: no down link from %s towards processor %d (from %d)", net.Nodes[u], d, s))
		}
		path = append(path, next)
		u = net.Edges[next].To
	}
	return path, nil
}
