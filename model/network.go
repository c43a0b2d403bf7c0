package model

import "fmt"

// Edge is a directed edge between two nodes, given by their indices.
type Edge struct {
	From, To int
}

// Network is a directed multigraph with named nodes. The zero value is an empty
// network ready for AddNode and AddEdge.
type Network struct {
	Nodes []string
	Edges []Edge
	// Extra holds the network object's fields other than nodes and edges.
	Extra Extra

	index map[string]int
	out   [][]int
	in    [][]int
	// outTo[u][j] is the head of edge out[u][j]: edgeBetween scans it in one
	// piece of memory instead of reading every edge of u (a parse of 10^6 tree
	// paths spent most of its time there).
	outTo [][]int
}

// AddNode adds a node with the given name and returns its index; if a node of that
// name exists, its index is returned and nothing is added.
func (n *Network) AddNode(name string) int {
	n.ensureIndex()
	if i, ok := n.index[name]; ok {
		return i
	}
	i := len(n.Nodes)
	n.Nodes = append(n.Nodes, name)
	n.index[name] = i
	n.out = append(n.out, nil)
	n.in = append(n.in, nil)
	n.outTo = append(n.outTo, nil)
	return i
}

// AddEdge adds the edge from -> to and returns its index. It panics if either node
// index is out of range (a programmer error).
func (n *Network) AddEdge(from, to int) int {
	n.ensureIndex()
	if from < 0 || from >= len(n.Nodes) || to < 0 || to >= len(n.Nodes) {
		panic(fmt.Sprintf("model: AddEdge(%d, %d) with %d nodes", from, to, len(n.Nodes)))
	}
	e := len(n.Edges)
	n.Edges = append(n.Edges, Edge{from, to})
	n.out[from] = append(n.out[from], e)
	n.outTo[from] = append(n.outTo[from], to)
	n.in[to] = append(n.in[to], e)
	return e
}

// AddLink adds the two edges a -> b and b -> a (a bidirected link) and returns them.
func (n *Network) AddLink(a, b int) (ab, ba int) {
	return n.AddEdge(a, b), n.AddEdge(b, a)
}

// Node returns the index of the node with the given name.
func (n *Network) Node(name string) (int, bool) {
	n.ensureIndex()
	i, ok := n.index[name]
	return i, ok
}

// Out returns the indices of the edges leaving node u. The slice must not be modified.
func (n *Network) Out(u int) []int { n.ensureIndex(); return n.out[u] }

// In returns the indices of the edges entering node u. The slice must not be modified.
func (n *Network) In(u int) []int { n.ensureIndex(); return n.in[u] }

// EdgesBetween returns the indices of the edges from u to v (several when parallel).
func (n *Network) EdgesBetween(u, v int) []int {
	var es []int
	for _, e := range n.Out(u) {
		if n.Edges[e].To == v {
			es = append(es, e)
		}
	}
	return es
}

// edgeBetween returns one edge from u to v and how many there are, without allocating.
func (n *Network) edgeBetween(u, v int) (e, count int) {
	n.ensureIndex()
	e = -1
	for j, w := range n.outTo[u] {
		if w == v {
			if count == 0 {
				e = n.out[u][j]
			}
			count++
		}
	}
	return e, count
}

// EdgeName renders edge e as "from->to" for messages.
func (n *Network) EdgeName(e int) string {
	if e < 0 || e >= len(n.Edges) {
		return fmt.Sprintf("#%d", e)
	}
	return n.Nodes[n.Edges[e].From] + "->" + n.Nodes[n.Edges[e].To]
}

// ensureIndex (re)builds the name index and adjacency lists when the exported
// fields were filled in directly.
func (n *Network) ensureIndex() {
	if n.index != nil && len(n.out) == len(n.Nodes) {
		return
	}
	n.index = make(map[string]int, len(n.Nodes))
	for i, name := range n.Nodes {
		n.index[name] = i
	}
	n.buildLists()
}

// buildLists builds the adjacency lists from Edges.
func (n *Network) buildLists() {
	// The lists are pieces of three flat arrays, each capped at its length (an
	// AddEdge then copies the one it grows), so that a network of 10^5 nodes
	// takes three allocations instead of one a list; a node with no edge keeps a
	// nil list, as AddEdge leaves it.
	nn := len(n.Nodes)
	outDeg, inDeg := make([]int, nn), make([]int, nn)
	valid := func(ed Edge) bool { return ed.From >= 0 && ed.From < nn && ed.To >= 0 && ed.To < nn }
	m := 0
	for _, ed := range n.Edges {
		if valid(ed) {
			outDeg[ed.From]++
			inDeg[ed.To]++
			m++
		}
	}
	n.out, n.in, n.outTo = make([][]int, nn), make([][]int, nn), make([][]int, nn)
	out, outTo, in := make([]int, 0, m), make([]int, 0, m), make([]int, 0, m)
	slot := func(flat []int, deg int) []int { return flat[len(flat) : len(flat) : len(flat)+deg] }
	for u := range nn {
		if outDeg[u] > 0 {
			n.out[u], n.outTo[u] = slot(out, outDeg[u]), slot(outTo, outDeg[u])
			out, outTo = out[:len(out)+outDeg[u]], outTo[:len(outTo)+outDeg[u]]
		}
		if inDeg[u] > 0 {
			n.in[u] = slot(in, inDeg[u])
			in = in[:len(in)+inDeg[u]]
		}
	}
	for e, ed := range n.Edges {
		if valid(ed) {
			n.out[ed.From] = append(n.out[ed.From], e)
			n.outTo[ed.From] = append(n.outTo[ed.From], ed.To)
			n.in[ed.To] = append(n.in[ed.To], e)
		}
	}
}

// Reindex must be called after Nodes or Edges were modified directly (not through
// AddNode and AddEdge) on a network that was already used.
func (n *Network) Reindex() { n.index = nil; n.ensureIndex() }
