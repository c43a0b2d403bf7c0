package deadlock

import "sort"

// analyse returns whether the graph is acyclic, the number of levels of a
// topological order when it is, and a shortest cycle when it is not.
func analyse(adj []map[int32]bool, n int, channel func(int32) Channel) (acyclic bool, levels int, cycle []Channel) {
	out := make([][]int32, n)
	indeg := make([]int, n)
	for a, m := range adj {
		for b := range m {
			out[a] = append(out[a], b)
			indeg[b]++
		}
		sort.Slice(out[a], func(i, j int) bool { return out[a][i] < out[a][j] })
	}
	// Kahn's algorithm, counting levels.
	level := make([]int, n)
	var q []int32
	for v := range n {
		if indeg[v] == 0 {
			q = append(q, int32(v))
		}
	}
	seen := 0
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		seen++
		if len(out[v]) > 0 || level[v] > 0 {
			levels = max(levels, level[v]+1)
		}
		for _, w := range out[v] {
			level[w] = max(level[w], level[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				q = append(q, w)
			}
		}
	}
	if seen == n {
		return true, levels, nil
	}
	// The channels left have indegree > 0 among themselves: every cycle lies there.
	// A breadth-first search from each finds the shortest cycle through it.
	var best []int32
	parent := make([]int32, n)
	dist := make([]int32, n)
	for s := range n {
		if indeg[s] == 0 {
			continue
		}
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		bq := []int32{int32(s)}
		found := false
		for len(bq) > 0 && !found {
			v := bq[0]
			bq = bq[1:]
			if best != nil && int(dist[v])+1 >= len(best) {
				break
			}
			for _, w := range out[v] {
				if int(w) == s {
					cyc := []int32{}
					for u := v; u != int32(s); u = parent[u] {
						cyc = append(cyc, u)
					}
					cyc = append(cyc, int32(s))
					for i, j := 0, len(cyc)-1; i < j; i, j = i+1, j-1 {
						cyc[i], cyc[j] = cyc[j], cyc[i]
					}
					if best == nil || len(cyc) < len(best) {
						best = cyc
					}
					found = true
					break
				}
				if indeg[w] > 0 && dist[w] < 0 {
					dist[w] = dist[v] + 1
					parent[w] = v
					bq = append(bq, w)
				}
			}
		}
	}
	for _, c := range best {
		cycle = append(cycle, channel(c))
	}
	return false, 0, cycle
}
