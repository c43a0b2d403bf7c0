package optimal

// A fast upper bound: the greedy colouring of Ranade, Schleimer and Wilkerson (FOCS
// 1994, section 4.2) with the contiguous colours of section 4.5, for any lengths and
// any order. Every bufferless schedule is a wormhole schedule (MODEL.md), so it
// bounds both models.

import (
	"sort"

	"github.com/wormlab/wormlab/model"
)

// pairIntervals returns, for every pair i < j that shares an edge, the merged
// intervals of forbidden start differences s_j - s_i.
func pairIntervals(in *model.Instance) map[[2]int][]interval {
	out := map[[2]int][]interval{}
	for _, rs := range byPair(runs(in)) {
		out[[2]int{rs[0].I, rs[0].J}] = forbidden(in, rs)
	}
	return out
}

// greedyStarts places the messages in the given order, each at the least start
// s >= 0 whose holdings clash with no message placed before. Cost O(n * sum of the
// placed neighbours' intervals * log).
func greedyStarts(in *model.Instance, ivs map[[2]int][]interval, order []int) []int {
	n := len(in.Messages)
	starts := make([]int, n)
	placed := make([]bool, n)
	for _, j := range order {
		var block []interval // forbidden values of s_j
		for i := 0; i < n; i++ {
			if !placed[i] || i == j {
				continue
			}
			if i < j {
				for _, iv := range ivs[[2]int{i, j}] { // s_j - s_i in iv
					block = append(block, interval{starts[i] + iv.lo, starts[i] + iv.hi})
				}
			} else {
				for _, iv := range ivs[[2]int{j, i}] { // s_i - s_j in iv
					block = append(block, interval{starts[i] - iv.hi, starts[i] - iv.lo})
				}
			}
		}
		sort.Slice(block, func(a, b int) bool { return block[a].lo < block[b].lo })
		s := 0
		for _, b := range block {
			if b.lo > s {
				break
			}
			if b.hi >= s {
				s = b.hi + 1
			}
		}
		starts[j] = s
		placed[j] = true
	}
	return starts
}

// Greedy returns the best of a few greedy bufferless schedules (input order, longest
// d + L first, most conflicting first). It is a legal schedule in both models.
func Greedy(in *model.Instance) *model.Schedule {
	ivs := pairIntervals(in)
	n := len(in.Messages)
	deg := make([]int, n)
	for k := range ivs {
		deg[k[0]]++
		deg[k[1]]++
	}
	byIndex := make([]int, n)
	for i := range byIndex {
		byIndex[i] = i
	}
	long := append([]int(nil), byIndex...)
	sort.SliceStable(long, func(a, b int) bool {
		ma, mb := &in.Messages[long[a]], &in.Messages[long[b]]
		return len(ma.Path)+ma.L > len(mb.Path)+mb.L
	})
	busy := append([]int(nil), byIndex...)
	sort.SliceStable(busy, func(a, b int) bool { return deg[busy[a]] > deg[busy[b]] })
	var best *model.Schedule
	for _, order := range [][]int{byIndex, long, busy} {
		s := model.FromStarts(in, greedyStarts(in, ivs, order))
		if best == nil || s.Makespan < best.Makespan {
			best = s
		}
	}
	return best
}
