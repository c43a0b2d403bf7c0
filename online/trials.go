package online

import (
	"context"
	"math"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// Stat is a sample's mean with a 95% confidence interval for it (Student's t with
// n - 1 degrees of freedom; the normal 1.96 beyond 30), and its extremes.
type Stat struct {
	Mean   float64 `json:"mean"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	StdDev float64 `json:"stddev"`
}

// Summary is the outcome of repeated runs with seeds FirstSeed, FirstSeed+1, ...
type Summary struct {
	Algo string `json:"algo"`
	Arb  string `json:"arb"`
	// Trials is the number asked for, Done the number run (fewer when interrupted).
	Trials      int    `json:"trials"`
	Done        int    `json:"done"`
	Interrupted bool   `json:"interrupted,omitempty"`
	FirstSeed   uint64 `json:"first_seed"`
	LowerBound  int    `json:"lower_bound"`
	Makespan    Stat   `json:"makespan"`
	// Ratio is makespan / lower bound.
	Ratio Stat `json:"ratio"`
	Meet  Meet `json:"meet"`
}

// Running accumulates a sample's count, mean, variance (Welford's update) and
// extremes in O(1) memory, so that a run of 2*10^9 trials keeps no list.
type Running struct {
	n        int
	mean, m2 float64
	min, max float64
}

// Add adds x to the sample.
func (r *Running) Add(x float64) {
	r.n++
	if r.n == 1 {
		r.min, r.max = x, x
	}
	r.min, r.max = min(r.min, x), max(r.max, x)
	d := x - r.mean
	r.mean += d / float64(r.n)
	r.m2 += d * (x - r.mean)
}

// N returns the sample size.
func (r *Running) N() int { return r.n }

// Stat returns the mean, its 95% interval and the extremes (as Describe).
func (r *Running) Stat() Stat {
	if r.n == 0 {
		return Stat{}
	}
	s := Stat{Mean: r.mean, Min: r.min, Max: r.max, Lo: r.mean, Hi: r.mean}
	if r.n == 1 {
		return s
	}
	s.StdDev = math.Sqrt(r.m2 / float64(r.n-1))
	h := t975q(r.n-1) * s.StdDev / math.Sqrt(float64(r.n))
	s.Lo, s.Hi = s.Mean-h, s.Mean+h
	return s
}

// t975q is the 0.975 quantile of Student's t with df degrees of freedom (the normal
// 1.96 beyond 30).
func t975q(df int) float64 {
	if df <= len(t975) {
		return t975[df-1]
	}
	return 1.96
}

// t975 holds the 0.975 quantiles of Student's t for 1..30 degrees of freedom.
var t975 = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// Describe returns the mean, its 95% interval and the extremes of xs (one value:
// the interval is the point).
func Describe(xs []float64) Stat {
	var r Running
	for _, x := range xs {
		r.Add(x)
	}
	return r.Stat()
}

// Trials runs alg n times under opt with seeds opt.Seed, opt.Seed+1, ... and
// summarises the makespans and their ratios to the instance's lower bound (computed
// once, like MeetRuns) in O(1) memory. The first error (a deadlock, say) stops it;
// when ctx is cancelled it returns the summary of the trials done with Interrupted
// set, and no error.
func Trials(ctx context.Context, in *model.Instance, alg Algorithm, opt Options, n int) (*Summary, error) {
	var ms, rs Running
	sum := &Summary{Algo: alg.Name(), Arb: opt.Arb, Trials: n, FirstSeed: opt.Seed}
	if sum.Arb == "" {
		sum.Arb = engine.ArbMessage
	}
	if n > 0 {
		if err := checkRun(in, opt); err != nil {
			return nil, err
		}
		sum.LowerBound, sum.Meet = in.LowerBound().Value, meetWithin(in, opt.MeetBudget)
	}
	for k := 0; k < n; k++ {
		if ctx.Err() != nil {
			sum.Interrupted = true
			break
		}
		o := opt
		o.Seed = opt.Seed + uint64(k)
		r, err := run(ctx, in, alg, o, sum.LowerBound, sum.Meet)
		if err != nil {
			if ctx.Err() != nil {
				sum.Interrupted = true
				break
			}
			return nil, err
		}
		ms.Add(float64(r.Makespan))
		rs.Add(float64(r.Makespan) / float64(max(1, r.LowerBound)))
	}
	sum.Done = ms.N()
	sum.Makespan, sum.Ratio = ms.Stat(), rs.Stat()
	return sum, nil
}
