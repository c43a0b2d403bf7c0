package adversary

// The meeting router of the structured moves: a path that meets as many other
// worms as it can. Hard instances for the wormhole model are made of worms that
// meet: pairwise-meeting worms that end on a common level are delivered at least L
// apart (the separation lemma, lower.AlignedConflicts), which is the whole of seed
// 002, section 5. A random path rarely meets every worm of a large clique, so the
// structured moves route by this search instead.

import (
	"math/rand/v2"
	"slices"
)

// beamWidth is how many partial paths the meeting router keeps per hop;
// dfsBudget how many nodes the search for a path meeting every worm expands.
const (
	beamWidth = 24
	dfsBudget = 4000
)

// conflicts returns, for each worm, the set of worms its path shares an edge with
// (a bitset of len(s.Worms) bits), and the loads c_e.
func conflicts(sp *Space, s *Set) (meets [][]uint64, load []int) {
	n := len(s.Worms)
	words := (n + 63) / 64
	meets = make([][]uint64, n)
	for i := range meets {
		meets[i] = make([]uint64, words)
	}
	users := make([][]int32, len(sp.Net.Edges))
	load = make([]int, len(sp.Net.Edges))
	for i, w := range s.Worms {
		for _, e := range w.Path {
			for _, j := range users[e] {
				meets[i][j/64] |= 1 << (uint(j) % 64)
				meets[j][i/64] |= 1 << (uint(i) % 64)
			}
			users[e] = append(users[e], int32(i))
			load[e]++
		}
	}
	return meets, load
}

type beamState struct {
	node  int
	path  []int
	met   []uint64
	count int
	key   float64
}

// meetRoute returns a simple path from src to dst of at most dist + slack hops that
// meets the most worms of s other than worm skip (-1: none), using only edges whose
// load without skip is below limit (limit <= 0: any edge), and how many it meets.
// Beam search: beamWidth partial paths per hop, ties broken at random. Cost
// O(hops * beamWidth * out-degree * |s| / 64).
func meetRoute(sp *Space, s *Set, skip, src, dst, limit int, r *rand.Rand) ([]int, int, bool) {
	dist := sp.distTo(dst)
	if dist == nil || src == dst || dist[src] < 0 {
		return nil, 0, false
	}
	n := len(s.Worms)
	words := (n + 63) / 64
	users := make([][]int32, len(sp.Net.Edges))
	for i, w := range s.Worms {
		if i == skip {
			continue
		}
		for _, e := range w.Path {
			users[e] = append(users[e], int32(i))
		}
	}
	maxLen := dist[src] + r.IntN(sp.slack()+1)
	beam := []beamState{{node: src, met: make([]uint64, words)}}
	var best []int
	bestCount := -1
	bestKey := -1.0
	for len(beam) > 0 {
		var next []beamState
		for _, st := range beam {
			for _, e := range sp.Net.Out(st.node) {
				v := sp.Net.Edges[e].To
				if dist[v] < 0 || len(st.path)+1+dist[v] > maxLen || (limit > 0 && len(users[e]) >= limit) {
					continue
				}
				if v == src || slices.ContainsFunc(st.path, func(f int) bool { return sp.Net.Edges[f].To == v }) {
					continue // simple paths only
				}
				met := slices.Clone(st.met)
				count := st.count
				for _, j := range users[e] {
					if met[j/64]&(1<<(uint(j)%64)) == 0 {
						met[j/64] |= 1 << (uint(j) % 64)
						count++
					}
				}
				path := append(slices.Clip(st.path), e)
				key := float64(count) + r.Float64()
				if v == dst {
					if count > bestCount || (count == bestCount && key > bestKey) {
						best, bestCount, bestKey = path, count, key
					}
					continue
				}
				next = append(next, beamState{node: v, path: path, met: met, count: count, key: key})
			}
		}
		slices.SortFunc(next, func(a, b beamState) int {
			switch {
			case a.key > b.key:
				return -1
			case a.key < b.key:
				return 1
			}
			return 0
		})
		// One state per node and met-count keeps the beam diverse.
		beam = beam[:0]
		seen := map[[2]int]bool{}
		for _, st := range next {
			k := [2]int{st.node, st.count}
			if seen[k] {
				continue
			}
			seen[k] = true
			beam = append(beam, st)
			if len(beam) == beamWidth {
				break
			}
		}
	}
	if best == nil {
		return nil, 0, false
	}
	return best, bestCount, true
}

// meetAllRoute looks for a simple path from src to dst of at most dist + slack
// hops that meets every worm of s but skip (-1: none) on edges whose load without
// skip is below limit (limit <= 0: any edge), by depth-first search in random
// order, pruning a branch when the worms it still has to meet cannot fit in the
// hops left (an edge meets at most limit - 1 of them); at most budget nodes.
func meetAllRoute(sp *Space, s *Set, skip, src, dst, limit, budget int, r *rand.Rand) ([]int, bool) {
	dist := sp.distTo(dst)
	if dist == nil || src == dst || dist[src] < 0 {
		return nil, false
	}
	n := len(s.Worms)
	users := make([][]int32, len(sp.Net.Edges))
	for i, w := range s.Worms {
		if i == skip {
			continue
		}
		for _, e := range w.Path {
			users[e] = append(users[e], int32(i))
		}
	}
	target := n
	if skip >= 0 {
		target--
	}
	perHop := n
	if limit > 0 {
		perHop = limit - 1
	}
	maxLen := dist[src] + r.IntN(sp.slack()+1)
	metBy := make([]int, n) // how many edges of the path meet worm j
	met := 0
	onPath := map[int]bool{src: true}
	var path []int
	var dfs func(u int) bool
	dfs = func(u int) bool {
		if u == dst {
			return met == target
		}
		if budget <= 0 {
			return false
		}
		budget--
		out := append([]int(nil), sp.Net.Out(u)...)
		r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
		for _, e := range out {
			v := sp.Net.Edges[e].To
			if onPath[v] || dist[v] < 0 || len(path)+1+dist[v] > maxLen || (limit > 0 && len(users[e]) >= limit) {
				continue
			}
			for _, j := range users[e] {
				if metBy[j] == 0 {
					met++
				}
				metBy[j]++
			}
			left := maxLen - len(path) - 1
			if met+left*perHop >= target {
				onPath[v] = true
				path = append(path, e)
				if dfs(v) {
					return true
				}
				path = path[:len(path)-1]
				delete(onPath, v)
			}
			for _, j := range users[e] {
				metBy[j]--
				if metBy[j] == 0 {
					met--
				}
			}
		}
		return false
	}
	if !dfs(src) || len(path) == 0 {
		return nil, false
	}
	return path, true
}
