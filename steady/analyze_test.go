package steady

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func TestAnalyzeSmall(t *testing.T) {
	// 20 observations of 100, then 200 observations cycling 1..10: MSER-5 cuts the
	// 20 (four batches of 100), leaving 200 = 20 batches of 10 each with mean 5.5.
	var xs []float64
	for range 20 {
		xs = append(xs, 100)
	}
	for i := range 200 {
		xs = append(xs, float64(i%10+1))
	}
	e := Analyze(xs, 0.95)
	assert.Equal(t, 220, e.N)
	assert.Equal(t, 20, e.Warmup)
	assert.Equal(t, 20, e.Batches)
	assert.Equal(t, 10, e.BatchSize)
	assert.InDelta(t, 5.5, e.Mean, 1e-12)
	assert.InDelta(t, 0, e.HalfWidth, 1e-12)
	assert.Equal(t, 5.0, e.P50)
	assert.Equal(t, 10.0, e.P99)
	assert.Equal(t, 10.0, e.Max)
	assert.True(t, e.Enough)
	assert.False(t, e.WarmupAtLimit)
	assert.True(t, e.Precise(0.01))

	// Too short: 30 observations give at most 6 batches.
	e = Analyze(xs[20:50], 0.95)
	assert.False(t, e.Enough)
	assert.False(t, e.Precise(1))
	// Empty.
	e = Analyze(nil, 0.95)
	assert.False(t, e.Enough)
	assert.True(t, math.IsNaN(e.Mean))
	assert.True(t, math.IsNaN(e.Max))
	assert.True(t, math.IsInf(e.RelativeHalfWidth(), 1))
}

// A series that only grows (its transient never ends) makes MSER-5 cut at its
// limit: not enough, however many observations.
func TestAnalyzeGrowingNotEnough(t *testing.T) {
	xs := make([]float64, 5000)
	for i := range xs {
		xs[i] = float64(i)
	}
	e := Analyze(xs, 0.95)
	assert.True(t, e.WarmupAtLimit)
	assert.False(t, e.Enough)
}

// Lemma: for a series made of a transient of T observations shifted by H >= 20 sigma
// followed by i.i.d. normal(mu, sigma) observations, T <= n/4, Analyze cuts at or
// past T, the statistics describe the kept observations, and the interval covers mu
// (checked at level 1-1e-6, so that a correct implementation fails about once in a
// million draws; the coverage at nominal levels is batch_test.go's).
func TestAnalyzeTransientThenSteady(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(200, 3000).Draw(t, "n")
		T := rapid.IntRange(0, n/4).Draw(t, "T")
		mu := rapid.Float64Range(10, 1000).Draw(t, "mu")
		sigma := rapid.Float64Range(0.1, 5).Draw(t, "sigma")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 4))
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mu + sigma*rng.NormFloat64()
			if i < T {
				xs[i] += 30 * sigma
			}
		}
		e := Analyze(xs, 0.999999)
		require.GreaterOrEqual(t, e.Warmup, T)
		require.Equal(t, n, e.N)
		require.LessOrEqual(t, e.Batches*e.BatchSize, n-e.Warmup)
		require.LessOrEqual(t, math.Abs(e.Mean-mu), e.HalfWidth, "interval %g +- %g misses %g", e.Mean, e.HalfWidth, mu)
		require.LessOrEqual(t, e.P50, e.P99)
		require.LessOrEqual(t, e.P99, e.Max)
		require.Equal(t, Quantile(xs[e.Warmup:], 1), e.Max)
		if e.Enough != (e.Batches >= MinBatches && !e.WarmupAtLimit) {
			t.Fatalf("Enough %v with %d batches, at limit %v", e.Enough, e.Batches, e.WarmupAtLimit)
		}
	})
}
