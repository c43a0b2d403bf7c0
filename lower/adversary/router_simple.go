package adversary

import "math/rand/v2"

// SimpleRouter draws a simple path (no node twice) of at most Slack hops more than
// a shortest one, by depth-first search in random order that never enters a node
// from which the destination is too far (so it backtracks only over repeated
// nodes). It works on any network; the distances come from Space.Prepare.
type SimpleRouter struct{}

var _ Router = SimpleRouter{}

// Name is "simple".
func (SimpleRouter) Name() string { return "simple" }

// Route draws the path; cost O(maxLen * out-degree) expected, at most 4096 nodes
// expanded.
func (SimpleRouter) Route(sp *Space, src, dst int, r *rand.Rand) ([]int, bool) {
	dist := sp.distTo(dst)
	if dist == nil || dist[src] < 0 {
		return nil, false
	}
	maxLen := dist[src] + r.IntN(sp.slack()+1)
	onPath := map[int]bool{src: true}
	var path []int
	budget := 4096
	var dfs func(u int) bool
	dfs = func(u int) bool {
		if u == dst {
			return true
		}
		if budget <= 0 {
			return false
		}
		budget--
		out := append([]int(nil), sp.Net.Out(u)...)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		for _, e := range out {
			v := sp.Net.Edges[e].To
			if onPath[v] || dist[v] < 0 || len(path)+1+dist[v] > maxLen {
				continue
			}
			onPath[v] = true
			path = append(path, e)
			if dfs(v) {
				return true
			}
			path = path[:len(path)-1]
			delete(onPath, v)
		}
		return false
	}
	if !dfs(src) || len(path) == 0 {
		return nil, false
	}
	return path, true
}
