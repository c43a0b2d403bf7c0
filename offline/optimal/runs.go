package optimal

// Shared runs of edges between two paths (MODEL.md, "Time and movement"; the conflict
// condition of Ranade, Schleimer and Wilkerson, FOCS 1994, sections 4.1 and 4.5).

import (
	"slices"
	"sort"

	"github.com/wormlab/wormlab/model"
)

// run is a maximal stretch of consecutive edges that messages I and J traverse
// together: I's hops KI .. KI+N-1 are J's hops KJ .. KJ+N-1 (1-based), edge by edge.
type run struct {
	I, J   int // I < J
	KI, KJ int
	N      int
	Edges  []int
}

// runs returns every shared run of every pair of messages, ordered by (I, J, KI).
// Cost O(sum_e c_e^2) for c_e the number of messages using edge e.
func runs(in *model.Instance) []run {
	users := in.Users()
	var out []run
	for i := range in.Messages {
		// open[j] is the index in out of the run of (i, j) that hop k-1 extended.
		open := map[int]int{}
		path := in.Messages[i].Path
		for k0, e := range path {
			k := k0 + 1
			next := map[int]int{}
			for _, u := range users[e] {
				j := u.Msg
				if j <= i {
					continue
				}
				kj := u.Pos + 1
				if r, ok := open[j]; ok && out[r].KJ+out[r].N == kj {
					out[r].N++
					out[r].Edges = append(out[r].Edges, e)
					next[j] = r
					continue
				}
				out = append(out, run{I: i, J: j, KI: k, KJ: kj, N: 1, Edges: []int{e}})
				next[j] = len(out) - 1
			}
			open = next
		}
	}
	// Runs were appended in order of (I, KI, user order); sort by (I, J, KI) so that
	// a pair's runs are adjacent. The order is deterministic either way.
	sortRuns(out)
	return out
}

// byPair splits runs ordered by (I, J, KI) into the runs of each pair, in order.
func byPair(rs []run) [][]run {
	var out [][]run
	for x := 0; x < len(rs); {
		y := x
		for y < len(rs) && rs[y].I == rs[x].I && rs[y].J == rs[x].J {
			y++
		}
		out = append(out, rs[x:y])
		x = y
	}
	return out
}

func sortRuns(rs []run) {
	sort.SliceStable(rs, func(a, b int) bool {
		if rs[a].I != rs[b].I {
			return rs[a].I < rs[b].I
		}
		if rs[a].J != rs[b].J {
			return rs[a].J < rs[b].J
		}
		return rs[a].KI < rs[b].KI
	})
}

// identical reports whether messages i and j have the same path and length, so that
// exchanging their schedules maps legal schedules to legal schedules.
func identical(in *model.Instance, i, j int) bool {
	a, b := &in.Messages[i], &in.Messages[j]
	return a.L == b.L && slices.Equal(a.Path, b.Path)
}
