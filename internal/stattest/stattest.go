// Package stattest holds the statistical tests wormlab's tests use to check the
// random parts of its algorithms and the probabilistic claims of the papers: the
// chi-square goodness-of-fit test of uniformity and the exact one-sided binomial
// test. Only tests import it.
//
// A test at level a rejects a true hypothesis with probability at most a (its
// false-alarm rate); with fixed seeds a test is deterministic, so a run either always
// passes or always fails, and a is the chance that a correct implementation would
// have failed for the seeds chosen. The tests using this package state their level.
//
// The p-values are computed from the regularized incomplete gamma function (series
// for x < a + 1, Lentz's continued fraction otherwise) and from the binomial
// probabilities summed in log space: relative error about 1e-12, cost O(iterations)
// and O(n - k) respectively.
package stattest

import (
	"fmt"
	"math"
)

// ChiSquareP returns P[X >= x] for X chi-square distributed with df degrees of
// freedom (df >= 1).
func ChiSquareP(x float64, df int) float64 {
	if x <= 0 {
		return 1
	}
	return gammaQ(float64(df)/2, x/2)
}

// Uniform is the chi-square test that counts[j] are draws from the uniform
// distribution over len(counts) values: the statistic sum_j (o_j - e)^2 / e with e
// the mean count, its degrees of freedom len(counts) - 1 and its p-value.
type Uniform struct {
	Stat float64
	DF   int
	P    float64
	// Expected is the count each cell should hold; the approximation wants it at
	// least 5.
	Expected float64
}

// UniformChiSquare runs the chi-square test of uniformity on counts (at least two
// cells, at least one draw).
func UniformChiSquare(counts []int) Uniform {
	n := 0
	for _, c := range counts {
		n += c
	}
	e := float64(n) / float64(len(counts))
	u := Uniform{DF: len(counts) - 1, Expected: e}
	for _, c := range counts {
		d := float64(c) - e
		u.Stat += d * d / e
	}
	u.P = ChiSquareP(u.Stat, u.DF)
	return u
}

func (u Uniform) String() string {
	return fmt.Sprintf("chi-square %.1f on %d degrees of freedom, p = %.3g, %.1f expected per cell", u.Stat, u.DF, u.P, u.Expected)
}

// BinomialUpper returns P[X >= k] for X binomial with n trials of success
// probability p.
func BinomialUpper(n, k int, p float64) float64 {
	switch {
	case k <= 0:
		return 1
	case k > n:
		return 0
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	ln, _ := math.Lgamma(float64(n + 1))
	sum := 0.0
	for j := k; j <= n; j++ {
		a, _ := math.Lgamma(float64(j + 1))
		b, _ := math.Lgamma(float64(n - j + 1))
		t := math.Exp(ln - a - b + float64(j)*lp + float64(n-j)*lq)
		sum += t
		if t < sum*1e-17 && float64(j) > float64(n)*p {
			break
		}
	}
	return math.Min(1, sum)
}

// AtMost is the exact one-sided binomial test of the hypothesis that an event has
// probability at most P0, having happened K times in N independent trials: it
// rejects at level a when PValue = P[Bin(N, P0) >= K] < a.
type AtMost struct {
	N, K   int
	P0     float64
	PValue float64
}

// EventAtMost runs the test.
func EventAtMost(n, k int, p0 float64) AtMost {
	return AtMost{N: n, K: k, P0: p0, PValue: BinomialUpper(n, k, p0)}
}

func (a AtMost) String() string {
	return fmt.Sprintf("%d of %d trials (%.3g) against at most %.3g: p = %.3g", a.K, a.N, float64(a.K)/float64(max(a.N, 1)), a.P0, a.PValue)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x), a > 0, x > 0.
func gammaQ(a, x float64) float64 {
	lg, _ := math.Lgamma(a)
	front := math.Exp(-x + a*math.Log(x) - lg)
	if x < a+1 {
		// P(a, x) = front * sum_n x^n / (a (a+1) ... (a+n)).
		term := 1 / a
		sum := term
		for n := 1; n < 100000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-15 {
				break
			}
		}
		return math.Max(0, 1-front*sum)
	}
	// Q(a, x) = front / (x + 1 - a - 1 (1 - a) / (x + 3 - a - ...)), Lentz.
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 100000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return front * h
}

// Critical returns the smallest count k with P[Bin(n, p0) >= k] < level: the
// binomial test of "probability at most p0" rejects from k events on (n + 1 when it
// never can).
func Critical(n int, p0, level float64) int {
	for k := 0; k <= n; k++ {
		if BinomialUpper(n, k, p0) < level {
			return k
		}
	}
	return n + 1
}

// Detectable returns the smallest probability p1 (to 1e-4 relative) at which n
// trials reach Critical(n, p0, level) events with probability at least power: a
// true probability of p1 or more is rejected at least that often. It is 1 when no
// probability is.
func Detectable(n int, p0, level, power float64) float64 {
	k := Critical(n, p0, level)
	if k > n {
		return 1
	}
	lo, hi := p0, 1.0
	for hi-lo > 1e-4*hi {
		mid := (lo + hi) / 2
		if BinomialUpper(n, k, mid) >= power {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}
