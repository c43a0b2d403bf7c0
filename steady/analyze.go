package steady

import (
	"math"
	"slices"
)

// DefaultBatches is the number of batches Analyze uses when it has data for them
// (Schmeiser 1982: 10 to 30 batches). MinBatches is the fewest it accepts as
// enough, each of at least MSERBatch observations.
const (
	DefaultBatches = 20
	MinBatches     = 10
)

// Estimate is the steady-state summary of a series.
type Estimate struct {
	// N is the number of observations given; Warmup the number MSER-5 dropped.
	N, Warmup int
	// Batches is the number of batch means behind the interval, BatchSize their
	// length (Batches*BatchSize <= N-Warmup; the oldest remainder is unused).
	Batches, BatchSize int
	// Mean is the grand mean of the batch means; HalfWidth the half-width of its
	// confidence interval at Level (+Inf when there are fewer than two batches).
	Mean, HalfWidth, Level float64
	// P50, P99 and Max are nearest-rank quantiles of the observations after the
	// warm-up (NaN when there are none).
	P50, P99, Max float64
	// WarmupAtLimit reports that MSER-5 cut at the end of its range (half the
	// series): the series may still be in its transient.
	WarmupAtLimit bool
	// Enough reports at least MinBatches batches of at least MSERBatch observations
	// after the warm-up, and a warm-up not at its limit.
	Enough bool
}

// Analyze truncates xs by MSER-5, then estimates the mean by batch means with
// min(DefaultBatches, floor(kept/MSERBatch)) batches at confidence level (in (0,1)),
// and the percentiles of the kept observations. Cost: O(n log n) time, O(n) memory.
func Analyze(xs []float64, level float64) Estimate {
	w, atLimit := MSER(xs, MSERBatch)
	kept := xs[w:]
	e := Estimate{N: len(xs), Warmup: w, Level: level, WarmupAtLimit: atLimit}
	e.Batches = min(DefaultBatches, len(kept)/MSERBatch)
	if e.Batches >= 1 {
		e.BatchSize = len(kept) / e.Batches
	}
	e.Mean, e.HalfWidth = BatchMeans(kept, e.Batches, level)
	s := slices.Clone(kept)
	slices.Sort(s)
	e.P50, e.P99, e.Max = QuantileSorted(s, 0.5), QuantileSorted(s, 0.99), QuantileSorted(s, 1)
	e.Enough = e.Batches >= MinBatches && !atLimit
	return e
}

// RelativeHalfWidth is HalfWidth/|Mean| (+Inf for a zero or undefined mean).
func (e Estimate) RelativeHalfWidth() float64 {
	if e.Mean == 0 || math.IsNaN(e.Mean) {
		return math.Inf(1)
	}
	return e.HalfWidth / math.Abs(e.Mean)
}

// Precise is the stop rule by relative precision (Law and Kelton 9.5.3's sequential
// procedure): the data are enough and the interval's half-width is at most rel
// times the mean. A simulator runs until Precise or its cycle budget is spent.
func (e Estimate) Precise(rel float64) bool {
	return e.Enough && e.RelativeHalfWidth() <= rel
}
