package steady

// A regression test for trend in batch means: ordinary least squares of the batch
// means on time with the usual t interval on the slope (e.g. Law and Kelton 9.5.3 on
// batch means as nearly independent observations; Draper and Smith, Applied
// Regression Analysis, 1.4, for the slope interval).

import "math"

// TrendFit is the least-squares line through a series' batch means against time.
type TrendFit struct {
	// Slope is the fitted change per observation (the x axis is the index of the
	// observation at each batch's centre); HalfWidth is the half-width of its level
	// confidence interval (t with batches-2 degrees of freedom), +Inf with fewer
	// than three batches.
	Slope, HalfWidth float64
	// Rise is the fitted change over the whole series divided by the absolute mean
	// of the batch means: how much the series grew, relative to its level.
	Rise float64
	// Batches is the number of batches fitted.
	Batches int
}

// Growing reports a slope significantly above zero: the lower end of the interval
// is positive, a one-sided test at level (1+level)/2. For a stationary series whose
// batch means are nearly independent it errs with probability about (1-level)/2;
// for a series that grows linearly (latency past saturation, where the queues at the
// sources grow with time) it is true once the run is long enough for the growth to
// exceed the noise.
func (f TrendFit) Growing() bool { return f.Slope-f.HalfWidth > 0 }

// Trend cuts xs into batches as BatchMeans does and fits the batch means by least
// squares against time. level must lie in (0, 1). Cost: O(n) time, O(1) memory.
func Trend(xs []float64, batches int, level float64) TrendFit {
	n := len(xs)
	if batches < 1 || n < batches {
		return TrendFit{HalfWidth: math.Inf(1)}
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
	return TrendMeans(z, size, start, level)
}

// TrendMeans is Trend on the batch means z themselves: batch j holds observations
// start+j*size .. start+(j+1)*size-1 of the series. Cost: O(len(z)) time.
func TrendMeans(z []float64, size, start int, level float64) TrendFit {
	batches := len(z)
	if batches < 1 {
		return TrendFit{HalfWidth: math.Inf(1)}
	}
	// Running means and co-moments over (t_j, z_j), Welford style.
	var mt, mz, stt, stz, szz float64
	for j, zj := range z {
		t := float64(start+j*size) + float64(size-1)/2
		k := float64(j + 1)
		dt, dz := t-mt, zj-mz
		mt += dt / k
		mz += dz / k
		stt += dt * (t - mt)
		stz += dt * (zj - mz)
		szz += dz * (zj - mz)
	}
	fit := TrendFit{Batches: batches, HalfWidth: math.Inf(1)}
	if batches < 2 {
		return fit
	}
	fit.Slope = stz / stt
	if mz != 0 {
		fit.Rise = fit.Slope * float64(size*(batches-1)) / math.Abs(mz)
	}
	if batches < 3 || !(level > 0 && level < 1) {
		if !(level > 0 && level < 1) {
			fit.HalfWidth = math.NaN()
		}
		return fit
	}
	resid := szz - fit.Slope*stz
	if resid < 0 {
		resid = 0
	}
	se := math.Sqrt(resid / float64(batches-2) / stt)
	fit.HalfWidth = TQuantile(batches-2, (1+level)/2) * se
	return fit
}
