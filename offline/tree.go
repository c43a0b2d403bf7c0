package offline

// The tree order of Ranade, Schleimer and Wilkerson (seed 002, section 4.3): root
// the tree; the highest point of a path is its node closest to the root; the
// entrance set of a path is its (at most two) edges at the highest point; paths with
// higher highest points come first. The order is 2-entrant: if p comes before q and
// they share an edge, p reaches at least as high as q and the tree offers one way
// between q's highest point and the shared edge, so p runs over q's entrance edge on
// that side.

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/wormlab/wormlab/model"
)

// IsTree reports whether the network is a bidirected forest: no self-loop, at most
// one edge from any node to any other, and the links (unordered pairs of adjacent
// nodes) form no cycle. Paths on such a network meet in one contiguous piece that
// both run in the same direction, which the tree order needs.
func IsTree(net *model.Network) bool {
	// model.IsForest: the index ReadPaths builds for a forest's numeric names
	// decides it, in one pass over the edges (no sort, no union-find).
	return model.IsForest(net)
}

// TreePlan builds the tree order of section 4.3. root names the root node of its
// component ("" to choose); every other component with paths gets the node that the
// most paths visit (the smallest index on a tie): the paths through it come first,
// and they are the ones that constrain most others. It returns an error when the
// network is not a forest (IsTree) or a path visits a node twice (naming it).
func TreePlan(in *model.Instance, root string) (*Plan, error) {
	return treePlan(model.PathsOf(in), root)
}

func treePlan(ps *model.Paths, root string) (*Plan, error) {
	net := ps.Net
	if !IsTree(net) {
		return nil, fmt.Errorf("offline: tree order: the network's links do not form a tree")
	}
	n := len(net.Nodes)
	// The links as an adjacency list of both ends, in one flat array (node u's
	// neighbours are adj[start[u]:start[u+1]]), and the edges' tails and heads
	// side by side: 4 bytes each, where a list a node took an allocation of its
	// own (a fifteenth of the command's main goroutine at 10^6 tree paths).
	start := make([]int32, n+1)
	ends := make([][2]int32, len(net.Edges)) // tail, head
	for e, ed := range net.Edges {
		start[ed.From+1]++
		start[ed.To+1]++
		ends[e] = [2]int32{int32(ed.From), int32(ed.To)}
	}
	for u := range n {
		start[u+1] += start[u]
	}
	adj := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for _, ed := range net.Edges {
		adj[fill[ed.From]], adj[fill[ed.To]] = int32(ed.To), int32(ed.From)
		fill[ed.From]++
		fill[ed.To]++
	}
	neighbours := func(u int32) []int32 { return adj[start[u]:start[u+1]] }
	// Components, and the node visited by most paths in each: members holds
	// the nodes component by component, the component id's at
	// members[compAt[id]:compAt[id+1]].
	comp := make([]int32, n)
	for i := range comp {
		comp[i] = -1
	}
	members := make([]int32, 0, n)
	var compAt []int
	for s := range int32(n) {
		if comp[s] >= 0 {
			continue
		}
		id := int32(len(compAt))
		compAt = append(compAt, len(members))
		comp[s] = id
		members = append(members, s)
		for q := compAt[id]; q < len(members); q++ {
			for _, v := range neighbours(members[q]) {
				if comp[v] < 0 {
					comp[v] = id
					members = append(members, v)
				}
			}
		}
	}
	compAt = append(compAt, len(members))
	comps := len(compAt) - 1
	// Visits per node: a path visits its first node and the head of each of its
	// hops, so the visits of a node are the paths starting there and the loads
	// of the edges into it (the measures the bound needs too), with no pass over
	// the hops of its own.
	visits := make([]int, n)
	load := ps.Measure().Load
	for e, ed := range ends {
		visits[ed[1]] += load[e]
	}
	for i := range ps.Len() {
		visits[ends[ps.Path(i)[0]][0]]++
	}
	roots := make([]int32, comps)
	for id := range comps {
		nodes := members[compAt[id]:compAt[id+1]]
		best := nodes[0]
		for _, u := range nodes {
			if visits[u] > visits[best] || (visits[u] == visits[best] && u < best) {
				best = u
			}
		}
		roots[id] = best
	}
	if root != "" {
		r, ok := net.Node(root)
		if !ok {
			return nil, fmt.Errorf("offline: tree order: root %q: no such node", root)
		}
		roots[comp[r]] = int32(r)
	}
	// Depth from the roots, and the nodes in order of discovery, root by root
	// (found, each root's part the queue of its breadth-first search).
	depth := make([]int32, n)
	for i := range depth {
		depth[i] = -1
	}
	plan := newPlan(ps, "tree", 2)
	found := make([]int32, 0, n)
	for id, r := range roots {
		depth[r] = 0
		found = append(found, r)
		for q := len(found) - 1; q < len(found); q++ {
			u := found[q]
			for _, v := range neighbours(u) {
				if depth[v] < 0 {
					depth[v] = depth[u] + 1
					found = append(found, v)
				}
			}
		}
		if visits[r] > 0 || compAt[id+1]-compAt[id] > 1 {
			plan.Roots = append(plan.Roots, net.Nodes[r])
		}
	}
	high := make([]int, ps.Len())  // depth of each path's highest point
	top := make([]int32, ps.Len()) // each path's highest point
	for i := range ps.Len() {
		p := ps.Path(i)
		// Position of the highest point: node 0 is the tail of e_1, node k the head of e_k.
		u := ends[p[0]][0]
		best, bestDepth := 0, depth[u]
		// The paper's tree paths are simple: a walk that comes back to a node
		// has no single highest point arrangement that section 4.3's argument
		// needs. On a forest (at most one edge a way between two nodes, no
		// self-loop, no cycle) the first node a walk visits again is the tail of
		// the hop before, the walk turning back over the link it came by: the
		// walk between the two visits is closed, and its nodes in between are
		// distinct, which a forest allows for two hops only.
		back := int32(-1) // the tail of the hop before
		for k, e := range p {
			ed := ends[e]
			v := ed[1]
			if v == back {
				return nil, fmt.Errorf("offline: tree order: message %q visits node %q twice", ps.ID(i), net.Nodes[v])
			}
			back = ed[0]
			if dv := depth[v]; dv < bestDepth {
				best, bestDepth, u = k+1, dv, v
			}
		}
		high[i], top[i] = int(bestDepth), u
		switch {
		case best == 0: // the path starts at its highest point and descends
			plan.addEntrance(0)
		case best == len(p): // it climbs to its highest point and ends there
			plan.addEntrance(int32(best - 1))
		default: // the edge climbing into the highest point, the edge descending from it
			plan.addEntrance(int32(best-1), int32(best))
		}
	}
	order, stages := byHighestPoint(treeOrder(ps, high), top, depth, found)
	plan.Parts, plan.stages = [][]int{order}, stages
	return plan, nil
}

// byHighestPoint regroups the tree order so that the messages of one highest
// point come one after another: a stable sort of order by highest point top[i],
// the points ranked by depth, then by their place in found (every node, root by
// root in breadth-first order). Two paths whose highest points differ but have
// the same depth share no edge (each lies in its highest point's subtree, and the
// subtrees are disjoint), so the greedy colouring gives every message the same
// start in either order: a message's start depends only on the messages before
// it that share an edge with it, and those keep their relative order. The
// colouring then searches the same few entrance edges, message after message,
// and records its spans on the edges just below them, instead of jumping across
// the tree at every message (at 10^6 tree paths, a cache miss or two a hop).
//
// It also returns where each depth's messages begin in the order (the depths
// with messages, the first at 0): Plan.stages.
func byHighestPoint(order []int, top, depth, found []int32) (out, stages []int) {
	// rank[u]: u's place among the nodes sorted by depth, ties in found's order
	// (a counting sort of found by depth).
	maxDepth := int32(0)
	for _, d := range depth {
		maxDepth = max(maxDepth, d)
	}
	at := make([]int, maxDepth+2)
	for _, u := range found {
		at[depth[u]+1]++
	}
	for d := 1; d < len(at); d++ {
		at[d] += at[d-1]
	}
	nodeStart := slices.Clone(at) // the first rank of each depth's nodes
	rank := make([]int32, len(depth))
	for _, u := range found {
		rank[u] = int32(at[depth[u]])
		at[depth[u]]++
	}
	// A stable counting sort of order by rank[top[i]].
	first := make([]int, len(depth)+1)
	for _, i := range order {
		first[rank[top[i]]+1]++
	}
	for r := 1; r < len(first); r++ {
		first[r] += first[r-1]
	}
	for d := range maxDepth + 1 {
		if at := first[nodeStart[d]]; at < len(order) && (len(stages) == 0 || at > stages[len(stages)-1]) {
			stages = append(stages, at)
		}
	}
	out = make([]int, len(order))
	for _, i := range order {
		r := rank[top[i]]
		out[first[r]] = i
		first[r]++
	}
	return out, stages
}

// treeOrder returns the tree order of the messages: higher highest points first
// (smaller depth high[i]); among equals, longer paths first (they are the harder
// ones to fit), then by index so the order is deterministic. When the keys fit
// (depths and lengths below 2^16, fewer than 2^32 messages) the messages are
// counted into buckets of (depth, length) where the buckets are few
// (treeOrderCounted), else the three keys are packed in one word and sorted as
// machine words; otherwise they are compared field by field.
func treeOrder(ps *model.Paths, high []int) []int {
	n := ps.Len()
	order := make([]int, n)
	const w = 1 << 16
	fits := n < 1<<32
	for i := 0; fits && i < n; i++ {
		fits = high[i] < w && ps.D(i) < w
	}
	if fits {
		if order, ok := treeOrderCounted(ps, high); ok {
			return order
		}
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = uint64(high[i])<<48 | uint64(w-1-ps.D(i))<<32 | uint64(i)
		}
		slices.Sort(keys)
		for j, k := range keys {
			order[j] = int(uint32(k))
		}
		return order
	}
	return treeOrderCompared(ps, high)
}

// treeOrderCounted is treeOrder by a counting sort on (depth, length), the
// messages taken in index order into buckets of equal keys (so that ties stay
// by index, as the packed keys sort them): two passes where the sort of 10^6
// words took a sixth of the tree order. ok is false when the buckets would
// outnumber the messages.
func treeOrderCounted(ps *model.Paths, high []int) (order []int, ok bool) {
	n := ps.Len()
	maxH, maxD := 0, 0
	for i := range n {
		maxH, maxD = max(maxH, high[i]), max(maxD, ps.D(i))
	}
	if (maxH+1)*(maxD+1) > n+1024 {
		return nil, false
	}
	bucket := func(i int) int { return high[i]*(maxD+1) + maxD - ps.D(i) }
	at := make([]int, (maxH+1)*(maxD+1)+1) // the first place of each bucket
	for i := range n {
		at[bucket(i)+1]++
	}
	for b := 1; b < len(at); b++ {
		at[b] += at[b-1]
	}
	order = make([]int, n)
	for i := range n {
		b := bucket(i)
		order[at[b]] = i
		at[b]++
	}
	return order, true
}

// treeOrderCompared is treeOrder comparing the keys field by field.
func treeOrderCompared(ps *model.Paths, high []int) []int {
	order := make([]int, ps.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(high[a], high[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(ps.D(b), ps.D(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	return order
}
