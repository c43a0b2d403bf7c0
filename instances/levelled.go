package instances

// A random levelled network (MODEL.md: every edge goes from level l to level l+1),
// the setting of the generic algorithm of seed 002, section 2, and of Greenberg and
// Oh's Algorithm A (seed 000).

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
)

// Levelled returns a random levelled network of the given number of levels (>= 2)
// and width (nodes per level): node i of level l is named "i,l" and has index
// l*width + i; "levels" gives l. Every node below the last level gets min(degree,
// width) edges to distinct nodes of the next level drawn at random. Sources are the
// nodes of level 0, destinations those of the last level. Its one routing draws a
// path uniformly among all paths from the source to the destination.
func Levelled(levels, width, degree int, r *rand.Rand) (*Topology, error) {
	switch {
	case levels < 2:
		return nil, specErr("depth", "%d levels: want at least 2", levels)
	case width < 1:
		return nil, specErr("size", "width %d is below 1", width)
	case degree < 1:
		return nil, specErr("k", "degree %d is below 1", degree)
	case levels > maxNodes || width > maxNodes || levels*width > maxNodes: // no overflow
		return nil, specErr("size", "more than %d nodes", maxNodes)
	}
	net := &model.Network{}
	lv := make([]int, 0, levels*width)
	for l := range levels {
		for i := range width {
			net.AddNode(fmt.Sprintf("%d,%d", i, l))
			lv = append(lv, l)
		}
	}
	deg := min(degree, width)
	for l := 0; l+1 < levels; l++ {
		for i := range width {
			for _, j := range r.Perm(width)[:deg] {
				net.AddEdge(l*width+i, (l+1)*width+j)
			}
		}
	}
	net.SetExtra("levels", lv)
	t := &Topology{
		Net:     net,
		Params:  map[string]any{"kind": "levelled", "levels": levels, "width": width, "k": degree},
		Sources: make([]int, width),
		Dests:   make([]int, width),
	}
	for i := range width {
		t.Sources[i] = i
		t.Dests[i] = (levels-1)*width + i
	}
	route := func(src, dst int, r *rand.Rand) ([]int, error) {
		l1, l2 := src/width, dst/width
		if l2 <= l1 {
			return nil, fmt.Errorf("levelled: no path from %s to %s", net.Nodes[src], net.Nodes[dst])
		}
		// count[u-base] = number of paths from u to dst, for u on levels l1 .. l2
		// (edges go from one level to the next, so they stay in this range).
		base := l1 * width
		count := make([]float64, (l2-l1+1)*width)
		count[dst-base] = 1
		for l := l2 - 1; l >= l1; l-- {
			for i := range width {
				u := l*width + i
				for _, e := range net.Out(u) {
					count[u-base] += count[net.Edges[e].To-base]
				}
			}
		}
		if count[src-base] == 0 {
			return nil, fmt.Errorf("levelled: no path from %s to %s", net.Nodes[src], net.Nodes[dst])
		}
		// Following each edge with probability (paths through it) / (paths from u)
		// draws a path uniformly.
		path := make([]int, 0, l2-l1)
		for u := src; u != dst; {
			x := r.Float64() * count[u-base]
			next := -1
			for _, e := range net.Out(u) {
				c := count[net.Edges[e].To-base]
				if c == 0 {
					continue
				}
				next = e
				if x < c {
					break
				}
				x -= c
			}
			path = append(path, next)
			u = net.Edges[next].To
		}
		return path, nil
	}
	t.setRoutes(funcRouting{RandomShortest, route})
	return t, nil
}

// reachable returns the destinations (indices into t.Dests) reachable from node
// src, for traffic on networks where not every pair is connected.
func (t *Topology) reachable(src int) []int {
	seen := make([]bool, len(t.Net.Nodes))
	seen[src] = true
	queue := []int{src}
	for q := 0; q < len(queue); q++ {
		for _, e := range t.Net.Out(queue[q]) {
			if v := t.Net.Edges[e].To; !seen[v] {
				seen[v] = true
				queue = append(queue, v)
			}
		}
	}
	var out []int
	for j, d := range t.Dests {
		if seen[d] {
			out = append(out, j)
		}
	}
	return out
}
