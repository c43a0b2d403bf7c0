package fattree

import "math"

// tQuantile995 is Student's t at 0.995 (a two-sided 99% interval) by degrees of
// freedom; beyond the table the value of the largest tabulated df at or below is
// used (conservative), 2.576 beyond 120.
var tQuantile995 = []struct {
	df int
	t  float64
}{{1, 63.657}, {2, 9.925}, {3, 5.841}, {4, 4.604}, {5, 4.032}, {6, 3.707}, {7, 3.499},
	{8, 3.355}, {9, 3.250}, {10, 3.169}, {11, 3.106}, {12, 3.055}, {13, 3.012}, {14, 2.977},
	{15, 2.947}, {16, 2.921}, {17, 2.898}, {18, 2.878}, {19, 2.861}, {20, 2.845}, {25, 2.787},
	{30, 2.750}, {40, 2.704}, {60, 2.660}, {120, 2.617}}

// MeanCI99 is the mean of xs and the half-width of its 99% confidence interval
// (Student's t; 0 for fewer than two values).
func MeanCI99(xs []float64) (mean, half float64) {
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	if n < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	t := 2.576
	if n-1 <= 120 {
		for _, e := range tQuantile995 {
			if e.df <= n-1 {
				t = e.t
			}
		}
	}
	return mean, t * math.Sqrt(ss/float64(n-1)/float64(n))
}
