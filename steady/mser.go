package steady

// MSER-5: White (1997), "An effective truncation heuristic for bias reduction in
// simulation output"; the batch size of five from White, Cobb and Spratt (WSC 2000).

// MSERBatch is the batch size of MSER5.
const MSERBatch = 5

// MSER5 returns the number of leading observations of xs to drop as warm-up: a
// multiple of 5, at most len(xs)/2. See MSER.
func MSER5(xs []float64) int {
	d, _ := MSER(xs, MSERBatch)
	return d
}

// MSER returns the MSER truncation point of xs for batch size b (b >= 1), in
// observations, and whether it lies at the end of the range searched.
//
// The first m = floor(n/b) batches of b observations are averaged into Z_1..Z_m (the
// last n mod b observations are not used). For a cut of d batches,
//
//	MSER(d) = sum_{j=d+1..m} (Z_j - Zbar_d)^2 / (m-d)^2,   Zbar_d the mean of Z_{d+1..m},
//
// the squared standard error of the mean that remains; d* minimises it over
// 0 <= d <= floor(m/2) (searching only the first half keeps the statistic from
// being driven by the few batches at the end, as White's and later studies do), the
// smallest d on ties. The result is b*d*. atLimit reports d* = floor(m/2) > 0: the
// series may not have reached steady state within its first half, and a longer run
// is wanted. With m < 2 the result is (0, false).
//
// Cost: O(n) time, O(n/b) memory.
func MSER(xs []float64, b int) (warmup int, atLimit bool) {
	if b < 1 {
		panic("steady: MSER batch size below 1")
	}
	m := len(xs) / b
	if m < 2 {
		return 0, false
	}
	z := make([]float64, m)
	for j := range z {
		s := 0.0
		for _, x := range xs[j*b : (j+1)*b] {
			s += x
		}
		z[j] = s / float64(b)
	}
	d, atLimit := MSERMeans(z)
	return b * d, atLimit
}

// MSERMeans is MSER's search on the batch means z themselves (m = len(z)): the cut
// d* in batches, and whether it is at the end of the range, floor(m/2) > 0. A
// caller that keeps its series as batch sums (sim's streaming statistics) finds
// the cut without the observations. Cost: O(m) time, O(1) memory.
func MSERMeans(z []float64) (d int, atLimit bool) {
	m := len(z)
	if m < 2 {
		return 0, false
	}
	// Welford's update, run from the end so that after adding Z_j the running
	// mean and sum of squared deviations are those of Z_j..Z_m.
	limit := m / 2
	best, bestStat := 0, 0.0
	mean, ss := 0.0, 0.0
	for j := m - 1; j >= 0; j-- {
		cnt := float64(m - j)
		delta := z[j] - mean
		mean += delta / cnt
		ss += delta * (z[j] - mean)
		if j <= limit {
			stat := ss / (cnt * cnt)
			if j == limit || stat <= bestStat {
				best, bestStat = j, stat
			}
		}
	}
	return best, best == limit && best > 0
}
