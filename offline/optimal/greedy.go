package optimal

// The upper bound Solve starts below: the greedy colouring of Ranade, Schleimer and
// Wilkerson (FOCS 1994, seed 002, section 4.2) with the contiguous colours of
// section 4.5, run by package offline (offline.Greedy, the one implementation in
// wormlab) over a few orders. Every bufferless schedule is a wormhole schedule
// (MODEL.md), so it bounds both models.

import (
	"context"
	"fmt"
	"sort"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

// greedy returns the best of offline.Greedy's schedules for three orders: input
// order, longest d + L first, most edge-sharing neighbours first. It is a legal
// schedule in both models. Its error is offline's (an instance whose steps do not
// fit in 32 bits), wrapped.
//
// Once ctx is done only the input order's schedule is made (the schedule a
// cut solve returns, never nil): the other orders are skipped or, begun, given up
// at the next look of offline.GreedyContext (every 4096 hops placed), and the
// count of neighbours looks at ctx every checkWork units of work (a message met
// on an edge). The count was the pairs of package optimal's runs, which took 12.6 s
// of the 20,000 worms of gen mesh:50x50 --messages 20000 --flits 4 --seed 1
// and never looked at ctx (solve --timeout 3s ran 55 s).
func greedy(ctx context.Context, in *model.Instance) (*model.Schedule, error) {
	n := len(in.Messages)
	byIndex := make([]int, n)
	for i := range byIndex {
		byIndex[i] = i
	}
	var best *model.Schedule
	// try makes order's schedule, within ctx for every order but the first
	// (best is nil until it is made); false once ctx is done.
	try := func(order []int) (bool, error) {
		var starts []int
		var err error
		if best == nil {
			starts, err = offline.Greedy(in, order)
		} else if starts, err = offline.GreedyContext(ctx, in, order); err != nil && ctx.Err() != nil {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("optimal: greedy upper bound: %w", err)
		}
		if s := model.FromStarts(in, starts); best == nil || s.Makespan < best.Makespan {
			best = s
		}
		return true, nil
	}
	if _, err := try(byIndex); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return best, nil
	}
	long := append([]int(nil), byIndex...)
	sort.SliceStable(long, func(a, b int) bool {
		ma, mb := &in.Messages[long[a]], &in.Messages[long[b]]
		return len(ma.Path)+ma.L > len(mb.Path)+mb.L
	})
	if ok, err := try(long); err != nil {
		return nil, err
	} else if !ok {
		return best, nil
	}
	deg := neighbours(ctx, in)
	if deg == nil {
		return best, nil
	}
	busy := append([]int(nil), byIndex...)
	sort.SliceStable(busy, func(a, b int) bool { return deg[busy[a]] > deg[busy[b]] })
	if _, err := try(busy); err != nil {
		return nil, err
	}
	return best, nil
}

// checkWork is how many units of work the count of neighbours does between two
// looks at the context.
const checkWork = 1 << 20

// stopEvery returns a function that counts units of work and reports whether
// ctx is done, looking at it each time the units counted since its last look
// reach every: a search too long to look at ctx at each step (cliquesWithin,
// neighbours) ends within that much work of the context's end.
func stopEvery(ctx context.Context, every int) func(units int) bool {
	work := 0
	return func(units int) bool {
		if work += units; work < every {
			return false
		}
		work = 0
		return ctx.Err() != nil
	}
}

// neighbours returns, for each message, how many other messages share an edge
// with it, or nil once ctx is done (looked at every checkWork messages met on
// an edge). Cost O(sum over edges of users^2).
func neighbours(ctx context.Context, in *model.Instance) []int {
	users := in.Users()
	deg := make([]int, len(in.Messages))
	mark := make([]int, len(in.Messages)) // mark[j] = i+1: j counted for i
	stop := stopEvery(ctx, checkWork)
	for i := range in.Messages {
		for _, e := range in.Messages[i].Path {
			for _, u := range users[e] {
				if j := u.Msg; j != i && mark[j] != i+1 {
					mark[j] = i + 1
					deg[i]++
				}
			}
			if stop(len(users[e])) {
				return nil
			}
		}
	}
	return deg
}
