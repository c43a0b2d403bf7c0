package model

// treeIndex finds the edge from a node to a neighbour on a forest (the tree
// networks of `wormlab gen tree`, where wormlab color reads 10^6 paths of node
// names) by the nodes' places in the forest, rooted at its smallest node per
// component: an edge joins a node and its parent, so the edge from u to v is
// u's edge up when v is u's parent, else v's edge down when u is v's parent.
// A path's consecutive hops read the same node's entry (each hop's second
// node is the next one's first), and the entries take 12 bytes a node, where
// the pair table (pairTable) took a probe a hop into 8 bytes for every two
// edges' slots: at 10^6 tree paths its probes were a tenth of wormlab color's
// CPU time.
type treeIndex struct {
	node []treeNode
}

// treeIndexes says whether a network of numeric names that is a forest gets a
// treeIndex: a variable so that a test can read without one.
var treeIndexes = true

// treeNode is a node's parent (-1 for a root), its edge to the parent and
// the parent's edge to it (-1 where the network has none).
type treeNode struct{ parent, up, down int32 }

// newTreeIndex returns the index of a network whose edges each join a node and
// its parent in a spanning forest, at most one edge each way (a bidirected
// forest, some directions missing allowed); nil for any other network (a
// self-loop, two edges from one node to another, a cycle of links).
func newTreeIndex(net *Network) *treeIndex {
	n := len(net.Nodes)
	if len(net.Edges) > 2*n {
		return nil // a forest has fewer than n links, two edges each
	}
	// The links as an adjacency list of both ends, in one array.
	start := make([]int32, n+1)
	for _, ed := range net.Edges {
		if ed.From == ed.To {
			return nil
		}
		start[ed.From+1]++
		start[ed.To+1]++
	}
	for u := range n {
		start[u+1] += start[u]
	}
	adj := make([]int32, start[n])
	fill := append([]int32(nil), start[:n]...)
	for _, ed := range net.Edges {
		adj[fill[ed.From]], adj[fill[ed.To]] = int32(ed.To), int32(ed.From)
		fill[ed.From]++
		fill[ed.To]++
	}
	t := &treeIndex{node: make([]treeNode, n)}
	seen := make([]bool, n)
	queue := make([]int32, 0, n)
	for r := range n {
		if seen[r] {
			continue
		}
		seen[r] = true
		t.node[r] = treeNode{parent: -1, up: -1, down: -1}
		queue = append(queue[:0], int32(r))
		for q := 0; q < len(queue); q++ {
			u := queue[q]
			for _, v := range adj[start[u]:start[u+1]] {
				if !seen[v] {
					seen[v] = true
					t.node[v] = treeNode{parent: u, up: -1, down: -1}
					queue = append(queue, v)
				}
			}
		}
	}
	for e, ed := range net.Edges {
		a, b := &t.node[ed.From], &t.node[ed.To]
		switch {
		case a.parent == int32(ed.To) && a.up < 0:
			a.up = int32(e)
		case b.parent == int32(ed.From) && b.down < 0:
			b.down = int32(e)
		default: // a link off the forest, or a second edge one way
			return nil
		}
	}
	return t
}

// IsForest reports whether the network is a bidirected forest: no self-loop, at
// most one edge from any node to any other, and the links (unordered pairs of
// adjacent nodes) form no cycle; exactly the networks newTreeIndex indexes
// (offline.IsTree, the tree order's test, asks it).
func IsForest(net *Network) bool { return newTreeIndex(net) != nil }

// edge returns the edge from u to v and how many there are (0 or 1).
func (t *treeIndex) edge(u, v int32) (e int32, count int) {
	if a := &t.node[u]; a.parent == v {
		if a.up < 0 {
			return 0, 0
		}
		return a.up, 1
	}
	if b := &t.node[v]; b.parent == u && b.down >= 0 {
		return b.down, 1
	}
	return 0, 0
}
