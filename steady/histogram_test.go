package steady

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Lemma (bins): bin(v) is the unique bin with low(bin) <= v < low(bin+1), the bins
// are consecutive and increasing, a bin below 2^HistExact holds one value, and a
// bin's width is at most HistRelErr times its lower end.
func TestHistogramBins(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := rapid.Int64Range(0, math.MaxInt64>>1).Draw(t, "v")
		if rapid.Bool().Draw(t, "small") {
			v = rapid.Int64Range(0, 1<<14).Draw(t, "small v")
		}
		i := histBin(v)
		lo, hi := histLow(i), histLow(i+1)
		require.LessOrEqual(t, lo, v)
		require.Less(t, v, hi)
		if v < 1<<HistExact {
			require.Equal(t, v, lo)
			require.Equal(t, v+1, hi)
		} else {
			require.LessOrEqual(t, float64(hi-lo), HistRelErr*float64(lo))
		}
	})
}

// Lemma (quantiles): for any integer data, the histogram's q-quantile is at most
// the exact nearest-rank quantile and above it divided by 1 + HistRelErr, equal to
// it below 2^HistExact; the maximum is exact; merging two histograms gives the
// histogram of the union.
func TestHistogramQuantile(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 400).Draw(t, "n")
		scale := rapid.SampledFrom([]int64{100, 1 << HistExact, 1 << 16, 1 << 40}).Draw(t, "scale")
		xs := make([]float64, n)
		var a, b, all Histogram
		for i := range xs {
			v := rapid.Int64Range(0, scale).Draw(t, "x")
			xs[i] = float64(v)
			all.Add(v)
			if i%2 == 0 {
				a.Add(v)
			} else {
				b.Add(v)
			}
		}
		a.Merge(&b)
		require.Equal(t, all, a, "merge")
		for _, q := range []float64{0, 0.01, 0.5, 0.9, 0.99, 1} {
			exact := Quantile(xs, q)
			got := all.Quantile(q)
			require.LessOrEqual(t, got, exact, "q %g", q)
			require.Greater(t, got, exact/(1+HistRelErr)-1e-9, "q %g", q)
			if exact < 1<<HistExact || q == 1 {
				require.Equal(t, exact, got, "q %g", q)
			}
		}
	})
	var h Histogram
	require.True(t, math.IsNaN(h.Quantile(0.5)))
}
