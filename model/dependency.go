package model

// DependencyGraph is the channel dependency graph of an instance: one vertex per
// network edge, an arc e -> f when some message's path crosses f right after e. A
// worm holding e and waiting for f depends on f; wormhole routing on fixed paths can
// deadlock only when this graph has a cycle (Dally and Seitz's condition).
type DependencyGraph struct {
	// Succ[e] lists the edges f with an arc e -> f, each once, in first-seen order.
	Succ [][]int
}

// Dependencies builds the channel dependency graph in O(sum of path lengths).
func (in *Instance) Dependencies() *DependencyGraph {
	succ := make([][]int, len(in.Net.Edges))
	seen := make(map[[2]int]bool)
	for i := range in.Messages {
		p := in.Messages[i].Path
		for k := 1; k < len(p); k++ {
			arc := [2]int{p[k-1], p[k]}
			if !seen[arc] {
				seen[arc] = true
				succ[arc[0]] = append(succ[arc[0]], arc[1])
			}
		}
	}
	return &DependencyGraph{Succ: succ}
}

// Cycle returns the edges of one directed cycle (e_1 -> e_2 -> ... -> e_1, first edge
// not repeated) or nil when the graph is acyclic. Iterative DFS, O(vertices + arcs).
func (g *DependencyGraph) Cycle() []int {
	const (
		white = iota
		grey
		black
	)
	n := len(g.Succ)
	color := make([]byte, n)
	parent := make([]int, n)
	next := make([]int, n) // next successor index to try
	for s := 0; s < n; s++ {
		if color[s] != white {
			continue
		}
		stack := []int{s}
		color[s] = grey
		parent[s] = -1
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			if next[u] < len(g.Succ[u]) {
				v := g.Succ[u][next[u]]
				next[u]++
				switch color[v] {
				case white:
					color[v] = grey
					parent[v] = u
					stack = append(stack, v)
				case grey:
					// v is on the stack: the cycle is v .. u.
					var cyc []int
					for w := u; w != v; w = parent[w] {
						cyc = append(cyc, w)
					}
					cyc = append(cyc, v)
					for a, b := 0, len(cyc)-1; a < b; a, b = a+1, b-1 {
						cyc[a], cyc[b] = cyc[b], cyc[a]
					}
					return cyc
				}
				continue
			}
			color[u] = black
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}
