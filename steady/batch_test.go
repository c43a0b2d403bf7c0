package steady

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestBatchMeansSmall(t *testing.T) {
	// 1..10 in 5 batches: means 1.5, 3.5, 5.5, 7.5, 9.5; s^2 = 40/4 = 10;
	// half = t_{4,.975} sqrt(10)/sqrt(5) = 2.776445 * sqrt(2).
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	m, h := BatchMeans(xs, 5, 0.95)
	assert.InDelta(t, 5.5, m, 1e-12)
	assert.InDelta(t, 2.776445*math.Sqrt2, h, 1e-5)
	// 0..10 in 5 batches: the oldest observation (0) is unused; same answer.
	m2, h2 := BatchMeans(append([]float64{0}, xs...), 5, 0.95)
	assert.InDelta(t, m, m2, 1e-12)
	assert.InDelta(t, h, h2, 1e-12)
	// 90%: t_{4,.95} = 2.131847.
	_, h = BatchMeans(xs, 5, 0.90)
	assert.InDelta(t, 2.131847*math.Sqrt2, h, 1e-5)
	// Equal batch means: zero width.
	_, h = BatchMeans([]float64{1, 3, 2, 2, 3, 1}, 3, 0.95)
	assert.Equal(t, 0.0, h)
	// Too few batches or data.
	m, h = BatchMeans([]float64{1, 2, 3}, 1, 0.95)
	assert.InDelta(t, 2, m, 1e-12)
	assert.True(t, math.IsInf(h, 1))
	_, h = BatchMeans([]float64{1, 2, 3}, 4, 0.95)
	assert.True(t, math.IsInf(h, 1))
	_, h = BatchMeans(xs, 5, 1)
	assert.True(t, math.IsNaN(h))
}

// Lemma (batch means on i.i.d. normal data): the batch means are then exactly i.i.d.
// normal, so the interval mean +- t_{k-1,(1+level)/2} s/sqrt(k) covers the true mean
// with probability exactly level. Over R independent replications the coverage count
// is Binomial(R, level); the test accepts within 4.5 binomial standard deviations.
func TestBatchMeansCoverageIID(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		level := rapid.SampledFrom([]float64{0.8, 0.9, 0.95, 0.99}).Draw(t, "level")
		k := rapid.IntRange(2, 30).Draw(t, "batches")
		size := rapid.IntRange(1, 8).Draw(t, "batch size")
		mu := rapid.Float64Range(-100, 100).Draw(t, "mu")
		sigma := rapid.Float64Range(0.01, 20).Draw(t, "sigma")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		const reps = 1500
		xs := make([]float64, k*size)
		cover := 0
		for range reps {
			for i := range xs {
				xs[i] = mu + sigma*rng.NormFloat64()
			}
			m, h := BatchMeans(xs, k, level)
			if math.Abs(m-mu) <= h {
				cover++
			}
		}
		sd := math.Sqrt(reps * level * (1 - level))
		if d := math.Abs(float64(cover) - reps*level); d > 4.5*sd {
			t.Fatalf("covered %d of %d, expected %.0f +- %.1f", cover, reps, reps*level, 4.5*sd)
		}
	})
}

// Lemma (batch means on correlated data): for a stationary AR(1) series with
// coefficient phi = 0.9 the batch means of batches much longer than the correlation
// time 1/(1-phi) are nearly independent, and 20 batches of 500 cover the mean at
// close to the nominal 95% (accepted: 91% to 98% over 1000 replications), where
// treating the observations as independent would cover far less often (checked too:
// the naive interval mean +- 1.96 s/sqrt(n) covers under 60%).
func TestBatchMeansCoverageAR1(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const reps, n, phi = 1000, 10000, 0.9
	xs := make([]float64, n)
	cover, naive := 0, 0
	for range reps {
		x := rng.NormFloat64() / math.Sqrt(1-phi*phi)
		for i := range xs {
			x = phi*x + rng.NormFloat64()
			xs[i] = x
		}
		m, h := BatchMeans(xs, 20, 0.95)
		if math.Abs(m) <= h {
			cover++
		}
		mean, ss := plainMean(xs), 0.0
		for _, v := range xs {
			ss += (v - mean) * (v - mean)
		}
		if math.Abs(mean) <= 1.96*math.Sqrt(ss/(n-1)/n) {
			naive++
		}
	}
	assert.InDelta(t, 0.945, float64(cover)/reps, 0.035, "batch means covered %d of %d", cover, reps)
	assert.Less(t, float64(naive)/reps, 0.6, "naive interval covered %d of %d", naive, reps)
}
