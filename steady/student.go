package steady

// The Student-t distribution function through the regularized incomplete beta
// function (Abramowitz and Stegun 26.7.1: for t >= 0, 1 - F(t) = I_x(df/2, 1/2)/2
// with x = df/(df+t^2)), the continued fraction of A&S 26.5.8 evaluated by the
// modified Lentz method, and the quantile by bisection.

import "math"

// TQuantile returns the p-quantile of Student's t distribution with df degrees of
// freedom: the t with P(T <= t) = p. It returns NaN for df < 1 or p outside [0, 1],
// -Inf at p = 0 and +Inf at p = 1. The result is accurate to about 1e-10 relative.
func TQuantile(df int, p float64) float64 {
	switch {
	case df < 1 || math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	case p < 0.5:
		return -TQuantile(df, 1-p)
	}
	// Upper tail wanted: q = 1-p = I_x(df/2,1/2)/2, decreasing in t.
	q := 1 - p
	lo, hi := 0.0, 1.0
	for tTail(df, hi) > q {
		lo, hi = hi, 2*hi
		if math.IsInf(hi, 1) {
			return hi
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if tTail(df, mid) > q {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return (lo + hi) / 2
}

// TCDF returns P(T <= t) for Student's t with df >= 1 degrees of freedom.
func TCDF(df int, t float64) float64 {
	if t >= 0 {
		return 1 - tTail(df, t)
	}
	return tTail(df, -t)
}

// tTail is P(T > t) for t >= 0.
func tTail(df int, t float64) float64 {
	v := float64(df)
	return incBeta(v/(v+t*t), v/2, 0.5) / 2
}

// incBeta is the regularized incomplete beta function I_x(a, b), a, b > 0.
func incBeta(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	// The continued fraction converges fast for x < (a+1)/(a+b+2); use the
	// symmetry I_x(a,b) = 1 - I_{1-x}(b,a) on the other side.
	if x > (a+1)/(a+b+2) {
		return 1 - incBeta(1-x, b, a)
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(a*math.Log(x)+b*math.Log1p(-x)+lgab-lga-lgb) / a
	return front / betaFraction(x, a, b)
}

// betaFraction evaluates 1 + d1/(1 + d2/(1 + ...)) of A&S 26.5.8,
//
//	d_{2k+1} = -(a+k)(a+b+k) x / ((a+2k)(a+2k+1)),  d_{2k} = k(b-k) x / ((a+2k-1)(a+2k)),
//
// by the modified Lentz method.
func betaFraction(x, a, b float64) float64 {
	const tiny = 1e-300
	f, c, d := 1.0, 1.0, 0.0
	for j := 1; j <= 10000; j++ {
		k := float64(j / 2)
		var dj float64
		if j%2 == 1 {
			dj = -(a + k) * (a + b + k) * x / ((a + 2*k) * (a + 2*k + 1))
		} else {
			dj = k * (b - k) * x / ((a + 2*k - 1) * (a + 2*k))
		}
		d = 1 + dj*d
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + dj/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := c * d
		f *= delta
		if math.Abs(delta-1) < 1e-15 {
			break
		}
	}
	return f
}
