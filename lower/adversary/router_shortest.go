package adversary

import "math/rand/v2"

// ShortestRouter draws a path uniformly among the shortest paths from src to dst:
// each edge out of u that leads one hop closer is taken with probability (shortest
// paths from its head) / (shortest paths from u). On a levelled network, where
// every path between two nodes has the same length, that is every path; on a mesh
// it is a monotone path (a levelled one, in the quadrant of its endpoints).
type ShortestRouter struct{}

var _ Router = ShortestRouter{}

// Name is "shortest".
func (ShortestRouter) Name() string { return "shortest" }

// Route draws the path in O(hops * out-degree); false when dst is not reachable.
func (ShortestRouter) Route(sp *Space, src, dst int, r *rand.Rand) ([]int, bool) {
	dist, count := sp.distTo(dst), sp.pathsTo(dst)
	if dist == nil || dist[src] <= 0 {
		return nil, false
	}
	path := make([]int, 0, dist[src])
	for u := src; u != dst; {
		x := r.Float64() * count[u]
		next := -1
		for _, e := range sp.Net.Out(u) {
			v := sp.Net.Edges[e].To
			if dist[v] != dist[u]-1 {
				continue
			}
			next = e
			if x < count[v] {
				break
			}
			x -= count[v]
		}
		path = append(path, next)
		u = sp.Net.Edges[next].To
	}
	return path, true
}
