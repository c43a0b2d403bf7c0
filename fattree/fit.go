package fattree

import "math"

// PowerFit is the least-squares fit of y = k log4(N)^p in log space (seed 000,
// section B.3, Table II: latency / c against k log^p N): ln y = ln k + p ln log4 N.
// Residual is the root mean square of the log-space residuals (0.05: about 5%
// relative error).
type PowerFit struct {
	K, P, Residual float64
}

// FitPower fits y[i] at n[i] processors, using the points with n >= 16 and y > 0;
// false when fewer than two distinct sizes remain.
func FitPower(n []int, y []float64) (PowerFit, bool) {
	var sx, sy, sxx, sxy float64
	m := 0
	for i := range n {
		if n[i] < 16 || y[i] <= 0 {
			continue
		}
		x := math.Log(math.Log(float64(n[i])) / math.Log(4))
		v := math.Log(y[i])
		sx, sy, sxx, sxy = sx+x, sy+v, sxx+x*x, sxy+x*v
		m++
	}
	det := float64(m)*sxx - sx*sx
	if m < 2 || det <= 1e-12 {
		return PowerFit{}, false
	}
	p := (float64(m)*sxy - sx*sy) / det
	lk := (sy - p*sx) / float64(m)
	ss := 0.0
	for i := range n {
		if n[i] < 16 || y[i] <= 0 {
			continue
		}
		x := math.Log(math.Log(float64(n[i])) / math.Log(4))
		r := math.Log(y[i]) - lk - p*x
		ss += r * r
	}
	return PowerFit{K: math.Exp(lk), P: p, Residual: math.Sqrt(ss / float64(m))}, true
}
