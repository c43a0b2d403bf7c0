package steady

// Non-overlapping batch means: Law and Kelton, Simulation Modeling and Analysis,
// section 9.5.3; Schmeiser (1982) on the number of batches.

import "math"

// BatchMeans cuts xs into batches non-overlapping batches of floor(n/batches)
// observations (the first n mod batches observations, the oldest, are not used),
// and returns the grand mean of the batch means and the half-width of the level
// confidence interval for the steady-state mean,
//
//	half = t_{batches-1, (1+level)/2} * s / sqrt(batches),
//
// s the sample standard deviation of the batch means. The interval is valid when
// the batches are long enough for their means to be nearly independent and normal.
// With batches < 2 or fewer observations than batches, mean is the mean of xs (NaN
// if empty) and half is +Inf. level must lie in (0, 1); otherwise half is NaN.
//
// Cost: O(n) time, O(1) memory.
func BatchMeans(xs []float64, batches int, level float64) (mean, half float64) {
	n := len(xs)
	if batches < 2 || n < batches {
		return plainMean(xs), math.Inf(1)
	}
	size := n / batches
	start := n - size*batches
	z := make([]float64, batches)
	for j := range z {
		s := 0.0
		for _, x := range xs[start+j*size : start+(j+1)*size] {
			s += x
		}
		z[j] = s / float64(size)
	}
	return MeanInterval(z, level)
}

// MeanInterval is BatchMeans on the batch means z themselves (at least two): their
// grand mean and the half-width t_{k-1,(1+level)/2} s/sqrt(k) of its interval, k =
// len(z). Cost: O(k) time.
func MeanInterval(z []float64, level float64) (mean, half float64) {
	k := len(z)
	if k < 2 {
		return plainMean(z), math.Inf(1)
	}
	// Welford over the batch means.
	m, ss := 0.0, 0.0
	for j, x := range z {
		delta := x - m
		m += delta / float64(j+1)
		ss += delta * (x - m)
	}
	if !(level > 0 && level < 1) {
		return m, math.NaN()
	}
	sd := math.Sqrt(ss / float64(k-1))
	return m, TQuantile(k-1, (1+level)/2) * sd / math.Sqrt(float64(k))
}

func plainMean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
