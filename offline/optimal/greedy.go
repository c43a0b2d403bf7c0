package optimal

// The upper bound Solve starts below: the greedy colouring of Ranade, Schleimer and
// Wilkerson (FOCS 1994, seed 002, section 4.2) with the contiguous colours of
// section 4.5, run by package offline (offline.Greedy, the one implementation in
// wormlab) over a few orders. Every bufferless schedule is a wormhole schedule
// (MODEL.md), so it bounds both models.

import (
	"fmt"
	"sort"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

// greedy returns the best of offline.Greedy's schedules for three orders: input
// order, longest d + L first, most edge-sharing neighbours first. It is a legal
// schedule in both models. Its error is offline's (an instance whose steps do not
// fit in 32 bits), wrapped.
func greedy(in *model.Instance) (*model.Schedule, error) {
	n := len(in.Messages)
	byIndex := make([]int, n)
	for i := range byIndex {
		byIndex[i] = i
	}
	deg := make([]int, n)
	for _, rs := range byPair(runs(in)) {
		deg[rs[0].I]++
		deg[rs[0].J]++
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
		starts, err := offline.Greedy(in, order)
		if err != nil {
			return nil, fmt.Errorf("optimal: greedy upper bound: %w", err)
		}
		if s := model.FromStarts(in, starts); best == nil || s.Makespan < best.Makespan {
			best = s
		}
	}
	return best, nil
}
