package model

import "sort"

// PathGraph has one vertex per message and an edge between two messages whose paths
// share a network edge (seed 002, section 1.2).
type PathGraph struct {
	// Adj[i] lists the neighbours of message i in increasing order.
	Adj [][]int
}

// PathGraph builds the instance's path graph in O(sum over edges of c_e^2) time.
func (in *Instance) PathGraph() *PathGraph {
	n := len(in.Messages)
	adj := make([][]int, n)
	for _, us := range in.Users() {
		for a := 0; a < len(us); a++ {
			for b := a + 1; b < len(us); b++ {
				adj[us[a].Msg] = append(adj[us[a].Msg], us[b].Msg)
				adj[us[b].Msg] = append(adj[us[b].Msg], us[a].Msg)
			}
		}
	}
	for i, l := range adj {
		sort.Ints(l)
		out := l[:0]
		for j, v := range l {
			if j == 0 || v != l[j-1] {
				out = append(out, v)
			}
		}
		adj[i] = out
	}
	return &PathGraph{Adj: adj}
}

// MaxDegree returns Delta, the path graph's largest degree, and a message attaining it
// (-1 when there are no messages).
func (g *PathGraph) MaxDegree() (delta, msg int) {
	msg = -1
	for i, l := range g.Adj {
		if msg < 0 || len(l) > delta {
			delta, msg = len(l), i
		}
	}
	return delta, msg
}

// Components returns the connected components of the path graph, each a sorted list
// of message indices, largest first (ties by smallest member).
func (g *PathGraph) Components() [][]int {
	n := len(g.Adj)
	seen := make([]bool, n)
	var comps [][]int
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		comp := []int{s}
		seen[s] = true
		for q := 0; q < len(comp); q++ {
			for _, v := range g.Adj[comp[q]] {
				if !seen[v] {
					seen[v] = true
					comp = append(comp, v)
				}
			}
		}
		sort.Ints(comp)
		comps = append(comps, comp)
	}
	sort.SliceStable(comps, func(a, b int) bool { return len(comps[a]) > len(comps[b]) })
	return comps
}
