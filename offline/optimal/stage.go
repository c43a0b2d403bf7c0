package optimal

// The bufferless stage of a wormhole solve (issue 27). A bufferless schedule is a
// wormhole schedule (MODEL.md: a worm that never waits is legal in both models),
// so the bufferless optimum is an upper bound on the wormhole optimum, and the
// bufferless search is much the cheaper: one time variable per worm instead of one
// per hop, a formula a third to a half the size. On meshes with random shortest
// paths the two optima are usually equal and equal to a lower bound valid in both
// models, where the bufferless solve proves its optimum 2-12 times faster than the
// wormhole search (issue 27's table). So every wormhole solve runs the bufferless
// solve first, and the wormhole searches start from its schedule; when that
// schedule meets the wormhole lower bound the wormhole search never runs.
//
// The bufferless lower bound is not a wormhole bound (a worm that waits can do
// better), so the stage contributes only its schedule; the wormhole bounds are the
// wormhole model's own.

import (
	"context"
	"time"

	"github.com/wormlab/wormlab/internal/watch"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// StageStats describes the bufferless stage of a wormhole solve.
type StageStats struct {
	Ran      bool
	Makespan int    // of the bufferless schedule
	Lower    int    // the bufferless lower bound (not a wormhole bound)
	Optimal  bool   // the bufferless optimum was proven
	Source   string // the bufferless lower bound's source
	Upper    string // where the bufferless schedule came from (Stats.UpperSource)
	Elapsed  time.Duration
}

// bufferlessStage solves in in the bufferless model with the options of opt (but
// no upper schedule: opt.Upper may wait), and greedy, the wormhole solve's
// verified greedy schedule, so that it is not computed twice, and the wormhole
// lower bound (named source) to start from, valid for bufferless schedules too.
// When ctx has a deadline, or opt.Left reports the time left, the stage gets
// stageShare tenths of it, so that the wormhole bounds and search keep the
// rest. It returns the bufferless result, whose schedule has passed verify.Schedule.
func bufferlessStage(ctx context.Context, in *model.Instance, opt Options, lower int, source string, greedy *model.Schedule) (*Result, error) {
	if d, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(d)*stageShare/10))
		defer cancel()
	}
	if opt.Left != nil {
		var cancel context.CancelFunc
		left, reserve := opt.Left, opt.Left()*(10-stageShare)/10
		ctx, cancel = watch.Context(ctx, func() bool { return left() <= reserve }, context.Canceled)
		defer cancel()
	}
	bopt := opt
	bopt.Model, bopt.Upper, bopt.greedy = model.Bufferless, nil, greedy
	bopt.floor, bopt.floorSource = lower, source
	if p := opt.Progress; p != nil {
		bopt.Progress = func(q Progress) {
			q.Lower = lower // the wormhole bound, not the bufferless one
			p(q)
		}
	}
	return Solve(ctx, in, bopt)
}

// asWormhole returns the bufferless schedule s as a schedule of the wormhole model
// (the same crossing times), verified.
func asWormhole(in *model.Instance, s *model.Schedule) (*model.Schedule, error) {
	idx := in.Index()
	cross := make([][]int, len(in.Messages))
	for _, t := range s.Messages {
		cross[idx[t.ID]] = append([]int(nil), t.Cross...)
	}
	w := model.NewSchedule(in, model.Wormhole, cross)
	if err := verify.Schedule(in, w); err != nil {
		return nil, err
	}
	return w, nil
}

// stageShare is the bufferless stage's share, in tenths, of the time left
// (Options.Left, or the context's deadline) when a wormhole solve starts: the
// rest is left to the wormhole search after it. On issue 27's family the
// stage answers every wormhole solve it proves, in up to 14.3 s of CPU out
// of 20 (docs/solver.md), so it gets most of the time; what is left is enough
// for the wormhole edge-set bound (2^20 nodes at most).
const stageShare = 9
