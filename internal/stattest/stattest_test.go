package stattest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The chi-square tail against closed forms (df = 2: e^{-x/2}; df = 1: erfc(sqrt(x/2)))
// and the tables' 5% and 0.1% points.
func TestChiSquareP(t *testing.T) {
	for _, x := range []float64{0.01, 0.5, 1, 3, 7.5, 20, 80} {
		require.InDelta(t, math.Exp(-x/2), ChiSquareP(x, 2), 1e-12)
		require.InDelta(t, math.Erfc(math.Sqrt(x/2)), ChiSquareP(x, 1), 1e-12)
	}
	for _, c := range []struct {
		x  float64
		df int
		p  float64
	}{{3.841459, 1, 0.05}, {18.307038, 10, 0.05}, {29.588298, 10, 0.001}, {124.342113, 100, 0.05}} {
		require.InDelta(t, c.p, ChiSquareP(c.x, c.df), c.p*1e-5)
	}
	require.Equal(t, 1.0, ChiSquareP(0, 3))
}

// The binomial tail against a direct sum, and its edge cases.
func TestBinomialUpper(t *testing.T) {
	choose := func(n, k int) float64 {
		r := 1.0
		for j := 1; j <= k; j++ {
			r = r * float64(n-k+j) / float64(j)
		}
		return r
	}
	for _, n := range []int{1, 5, 30} {
		for _, p := range []float64{0.01, 0.3, 0.5, 0.9} {
			for k := 0; k <= n+1; k++ {
				want := 0.0
				for j := k; j <= n; j++ {
					want += choose(n, j) * math.Pow(p, float64(j)) * math.Pow(1-p, float64(n-j))
				}
				require.InDelta(t, math.Min(1, want), BinomialUpper(n, k, p), 1e-12, "n %d k %d p %g", n, k, p)
			}
		}
	}
	require.Equal(t, 0.0, BinomialUpper(10, 1, 0))
	require.Equal(t, 1.0, BinomialUpper(10, 10, 1))
}

// The uniformity test accepts uniform draws and rejects draws from half the range;
// the binomial test rejects a rate four times its hypothesis.
func TestPower(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fair, half := make([]int, 40), make([]int, 40)
	for range 4000 {
		fair[r.IntN(40)]++
		half[r.IntN(20)]++
	}
	require.Greater(t, UniformChiSquare(fair).P, 1e-3)
	require.Less(t, UniformChiSquare(half).P, 1e-100)
	require.Less(t, EventAtMost(1000, 40, 0.01).PValue, 1e-6)
	require.Greater(t, EventAtMost(1000, 12, 0.01).PValue, 1e-3)
}

// Critical and Detectable: 200 trials at p0 = 0.001 and level 1e-4 reject from 4
// events on; the power at the detectable probability is at least what was asked and
// just below it less.
func TestCriticalDetectable(t *testing.T) {
	k := Critical(200, 0.001, 1e-4)
	require.Equal(t, 4, k)
	require.Less(t, BinomialUpper(200, k, 0.001), 1e-4)
	require.GreaterOrEqual(t, BinomialUpper(200, k-1, 0.001), 1e-4)
	p1 := Detectable(200, 0.001, 1e-4, 0.99)
	require.GreaterOrEqual(t, BinomialUpper(200, k, p1), 0.99)
	require.Less(t, BinomialUpper(200, k, p1*0.99), 0.99)
	require.Equal(t, 1.0, Detectable(3, 0.5, 1e-4, 0.99))
}
