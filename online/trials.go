package online

import (
	"context"
	"math"

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

// Summary is the outcome of repeated runs with seeds Seed, Seed+1, ...
type Summary struct {
	Algo       string `json:"algo"`
	Arb        string `json:"arb"`
	Trials     int    `json:"trials"`
	FirstSeed  uint64 `json:"first_seed"`
	LowerBound int    `json:"lower_bound"`
	Makespan   Stat   `json:"makespan"`
	// Ratio is makespan / lower bound.
	Ratio Stat `json:"ratio"`
	Meet  Meet `json:"meet"`
}

// t975 holds the 0.975 quantiles of Student's t for 1..30 degrees of freedom.
var t975 = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// Describe returns the mean, its 95% interval and the extremes of xs (one value:
// the interval is the point).
func Describe(xs []float64) Stat {
	n := float64(len(xs))
	if len(xs) == 0 {
		return Stat{}
	}
	s := Stat{Min: xs[0], Max: xs[0]}
	for _, x := range xs {
		s.Mean += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean /= n
	if len(xs) == 1 {
		s.Lo, s.Hi = s.Mean, s.Mean
		return s
	}
	var ss float64
	for _, x := range xs {
		ss += (x - s.Mean) * (x - s.Mean)
	}
	s.StdDev = math.Sqrt(ss / (n - 1))
	q := 1.96
	if df := len(xs) - 1; df <= len(t975) {
		q = t975[df-1]
	}
	h := q * s.StdDev / math.Sqrt(n)
	s.Lo, s.Hi = s.Mean-h, s.Mean+h
	return s
}

// Trials runs cfg n times with seeds cfg.Seed, cfg.Seed+1, ... and summarises the
// makespans and their ratios to the instance's lower bound (computed once, like
// MeetRuns). The first error (a deadlock, say) stops it.
func Trials(ctx context.Context, in *model.Instance, cfg Config, n int) (*Summary, error) {
	var ms, rs []float64
	sum := &Summary{Algo: cfg.Algo, Arb: cfg.Arb, Trials: n, FirstSeed: cfg.Seed}
	var lower int
	var meet Meet
	if n > 0 {
		if err := checkRun(in, cfg); err != nil {
			return nil, err
		}
		lower, meet = in.LowerBound().Value, MeetRuns(in)
	}
	for k := 0; k < n; k++ {
		c := cfg
		c.Seed = cfg.Seed + uint64(k)
		r, err := run(ctx, in, c, lower, meet)
		if err != nil {
			return nil, err
		}
		sum.LowerBound, sum.Meet, sum.Arb = r.LowerBound, r.Meet, r.Arb
		ms = append(ms, float64(r.Makespan))
		rs = append(rs, float64(r.Makespan)/float64(max(1, r.LowerBound)))
	}
	sum.Makespan, sum.Ratio = Describe(ms), Describe(rs)
	return sum, nil
}
