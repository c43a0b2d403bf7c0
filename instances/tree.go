package instances

// Trees with bidirected links: a random recursive tree and the complete k-ary tree.
// Paths are unique (up to the least common ancestor, then down); they are the
// instances of the tree colourer of seed 002, section 4.

import (
	"math/rand/v2"
	"strconv"

	"github.com/wormlab/wormlab/model"
)

// RandomTree returns a random recursive tree on n >= 2 nodes: node 0 is the root and
// node i > 0 hangs below a node drawn uniformly from 0 .. i-1. Nodes are named "0"
// .. "n-1"; coords are [depth, rank among the nodes of that depth].
func RandomTree(n int, r *rand.Rand) (*Topology, error) {
	if n < 2 || n > maxNodes {
		return nil, specErr("size", "tree of %d nodes: want 2 to %d", n, maxNodes)
	}
	parent := make([]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = r.IntN(i)
	}
	return tree(parent, map[string]any{"kind": "tree", "n": n})
}

// KaryTree returns the complete k-ary tree of the given depth (k >= 1, depth >= 1;
// (k^(depth+1)-1)/(k-1) nodes), numbered in breadth-first order: the children of
// node i are k*i+1 .. k*i+k. Names and coords as for RandomTree.
func KaryTree(k, depth int) (*Topology, error) {
	if k < 1 {
		return nil, specErr("k", "arity %d is below 1", k)
	}
	if depth < 1 {
		return nil, specErr("depth", "depth %d is below 1", depth)
	}
	n, level := 1, 1
	for range depth {
		level *= k
		if n += level; n > maxNodes {
			return nil, specErr("depth", "more than %d nodes", maxNodes)
		}
	}
	parent := make([]int, n)
	parent[0] = -1
	for i := 1; i < n; i++ {
		parent[i] = (i - 1) / k
	}
	return tree(parent, map[string]any{"kind": "kary-tree", "k": k, "depth": depth})
}

// tree builds the tree given by parent pointers (parent[i] < i, parent[0] = -1).
func tree(parent []int, params map[string]any) (*Topology, error) {
	n := len(parent)
	net := &model.Network{}
	for i := range n {
		net.AddNode(strconv.Itoa(i))
	}
	depth := make([]int, n)
	up := make([]int, n)   // edge i -> parent(i)
	down := make([]int, n) // edge parent(i) -> i
	up[0], down[0] = -1, -1
	coords := make([][]int, n)
	perDepth := []int{1}
	coords[0] = []int{0, 0}
	for i := 1; i < n; i++ {
		p := parent[i]
		depth[i] = depth[p] + 1
		down[i], up[i] = net.AddLink(p, i)
		if depth[i] == len(perDepth) {
			perDepth = append(perDepth, 0)
		}
		coords[i] = []int{depth[i], perDepth[depth[i]]}
		perDepth[depth[i]]++
	}
	net.SetExtra("coords", coords)
	t := &Topology{Net: net, Params: params, Sources: allNodes(n)}
	t.Dests = t.Sources
	route := func(src, dst int, _ *rand.Rand) ([]int, error) {
		var ups, downs []int
		a, b := src, dst
		for a != b {
			if depth[a] >= depth[b] {
				ups = append(ups, up[a])
				a = parent[a]
			} else {
				downs = append(downs, down[b])
				b = parent[b]
			}
		}
		for i := len(downs) - 1; i >= 0; i-- {
			ups = append(ups, downs[i])
		}
		return ups, nil
	}
	t.setRoutes(funcRouting{Unique, route})
	return t, nil
}
