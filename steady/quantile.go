package steady

// Nearest-rank quantiles (Hyndman and Fan, "Sample quantiles in statistical
// packages", 1996, definition 1, the inverse of the empirical distribution function).

import (
	"math"
	"slices"
)

// Quantile returns the nearest-rank q-quantile of xs: the smallest observed x such
// that at least ceil(q*n) observations are <= x (the minimum for q = 0, the maximum
// for q = 1). It returns NaN for an empty xs or q outside [0, 1]. xs is not
// modified; a sorted copy is made (O(n log n)).
func Quantile(xs []float64, q float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return QuantileSorted(s, q)
}

// QuantileSorted is Quantile for xs already sorted in increasing order, in O(1).
func QuantileSorted(sorted []float64, q float64) float64 {
	n := len(sorted)
	if n == 0 || math.IsNaN(q) || q < 0 || q > 1 {
		return math.NaN()
	}
	return sorted[Rank(q, n)-1]
}

// Rank is the rank, from 1, of the nearest-rank q-quantile of n observations
// (n >= 1, q in [0, 1]): ceil(q*n), at least 1. Quantile's, and that of every
// reader of a count of observations by value (Histogram.Quantile).
func Rank(q float64, n int) int {
	return max(int(math.Ceil(q*float64(n))), 1)
}
