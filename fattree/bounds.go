package fattree

import (
	"context"
	"time"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// FPBounds are the figures of one FP run's MODEL.md instance (FPInstance): its
// congestion c, dilation d, the most flits on one link c_L, wormlab's best lower
// bound on any wormhole schedule's makespan (lower.Best) and, when asked, the SAT
// optimum (offline/optimal, wormhole model) with whether it was proven.
// In JSON (wormlab fattree --json's per_run) the keys are spelled as the
// means' beside them (c, d, c_l, lower_bound, optimum, proven); SolverTime, in
// seconds, only where the solver ran.
type FPBounds struct {
	C          int     `json:"c"`
	D          int     `json:"d"`
	CL         int     `json:"c_l"`
	Lower      int     `json:"lower_bound"`
	LowerName  string  `json:"lower_name"`
	Optimum    int     `json:"optimum,omitempty"`
	Proven     bool    `json:"proven,omitempty"`
	SolverTime float64 `json:"solver_s,omitempty"`
}

// Bounds computes FPBounds for run; with solve it runs the SAT solver for at most
// limit (Optimum is then the best makespan found, Proven whether it is optimal).
func Bounds(ctx context.Context, run *Run, solve bool, limit time.Duration) (FPBounds, error) {
	in := FPInstance(run)
	ms := in.Measure()
	b := lower.Best(in)
	fb := FPBounds{C: ms.C, D: ms.D, CL: ms.CL, Lower: b.Value, LowerName: b.Name}
	if !solve || len(in.Messages) == 0 {
		return fb, nil
	}
	sctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	start := time.Now()
	res, err := optimal.Solve(sctx, in, optimal.Options{Model: model.Wormhole})
	if err != nil {
		return fb, err
	}
	fb.Optimum, fb.Proven, fb.SolverTime = res.Schedule.Makespan, res.Optimal, time.Since(start).Seconds()
	return fb, nil
}
