package steady

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// mserDirect is the MSER definition computed straight from its formula, O(m^2).
func mserDirect(xs []float64, b int) int {
	m := len(xs) / b
	if m < 2 {
		return 0
	}
	z := make([]float64, m)
	for j := range m {
		for i := range b {
			z[j] += xs[j*b+i]
		}
		z[j] /= float64(b)
	}
	best, bestStat := 0, math.Inf(1)
	for d := 0; d <= m/2; d++ {
		mean := 0.0
		for _, v := range z[d:] {
			mean += v
		}
		mean /= float64(m - d)
		ss := 0.0
		for _, v := range z[d:] {
			ss += (v - mean) * (v - mean)
		}
		stat := ss / float64((m-d)*(m-d))
		if d == 0 || stat < bestStat*(1-1e-9) {
			best, bestStat = d, stat
		}
	}
	return b * best
}

func TestMSER5Small(t *testing.T) {
	// Batches 10, 0, 0, 0: MSER(0) = 75/16, MSER(1) = MSER(2) = 0: cut one batch.
	xs := make([]float64, 20)
	for i := range 5 {
		xs[i] = 10
	}
	assert.Equal(t, 5, MSER5(xs))
	// Batch means 9, 1, 5, 3, 4, 4 (n = 31: the last observation is unused).
	// MSER(0..3) = 40/36, 10/25, 2.75/16, 2/3 / 9: the minimum is d = 3 = m/2.
	xs = nil
	for _, z := range []float64{9, 1, 5, 3, 4, 4} {
		xs = append(xs, z-2, z+2, z, z-1, z+1)
	}
	xs = append(xs, 1000)
	w, atLimit := MSER(xs, 5)
	assert.Equal(t, 15, w)
	assert.True(t, atLimit)
	// Constant series: every cut has statistic 0; the smallest, none, is taken.
	assert.Equal(t, 0, MSER5([]float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}))
	// Too short to batch twice.
	assert.Equal(t, 0, MSER5([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}))
	assert.Equal(t, 0, MSER5(nil))
}

// Lemma (definition): MSER returns b*d* with d* the smallest minimiser of
// sum_{j>d}(Z_j - Zbar_d)^2/(m-d)^2 over 0 <= d <= m/2, so b*d* <= n/2; the streaming
// computation agrees with the formula evaluated directly.
func TestMSERMatchesDefinition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.IntRange(1, 6).Draw(t, "b")
		xs := rapid.SliceOfN(rapid.Float64Range(-50, 50), 0, 120).Draw(t, "xs")
		got, _ := MSER(xs, b)
		if want := mserDirect(xs, b); got != want {
			t.Fatalf("MSER(b=%d) = %d, direct %d", b, got, want)
		}
		if got%b != 0 || got > len(xs)/2 {
			t.Fatalf("cut %d not a multiple of %d within the first half of %d", got, b, len(xs))
		}
	})
}

// Lemma: a series that starts with a transient of T observations shifted by H, then
// is i.i.d. with standard deviation sigma, with H >= 20 sigma and T <= n/4, is cut at
// or past the transient by MSER-5 (a batch carrying any of the shift raises the
// remaining mean-square error by far more than the noise can lower it).
func TestMSER5CutsPastTransient(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(100, 2000).Draw(t, "n")
		T := rapid.IntRange(1, n/4).Draw(t, "T")
		sigma := rapid.Float64Range(0.1, 10).Draw(t, "sigma")
		h := sigma * rapid.Float64Range(20, 100).Draw(t, "H/sigma")
		if rapid.Bool().Draw(t, "below") {
			h = -h
		}
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1))
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 100 + sigma*rng.NormFloat64()
			if i < T {
				xs[i] += h
			}
		}
		if w := MSER5(xs); w < T {
			t.Fatalf("cut %d before the transient of %d", w, T)
		}
	})
}

// Lemma: an exponentially decaying transient x_i = mu + A exp(-i/tau) + noise (A =
// 50 sigma, tau <= n/40) is cut where the remaining bias is small: the mean of the
// observations kept lies within 5 standard errors of mu.
func TestMSER5RemovesDecayBias(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(400, 4000).Draw(t, "n")
		tau := rapid.Float64Range(2, float64(n)/40).Draw(t, "tau")
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 2))
		const mu, sigma = 50.0, 1.0
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mu + 50*sigma*math.Exp(-float64(i)/tau) + sigma*rng.NormFloat64()
		}
		w := MSER5(xs)
		kept := xs[w:]
		se := sigma / math.Sqrt(float64(len(kept)))
		if d := math.Abs(plainMean(kept) - mu); d > 5*se {
			t.Fatalf("kept mean off by %g (%g standard errors) after cutting %d", d, d/se, w)
		}
	})
}

// On i.i.d. data there is nothing to cut: MSER-5 rarely reaches the end of its
// range. Measured here: the fraction of 2000 i.i.d. normal series of 1000 whose cut
// is at the limit stays below 2%.
func TestMSER5RarelyAtLimitOnIID(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	at := 0
	xs := make([]float64, 1000)
	const reps = 2000
	for range reps {
		for i := range xs {
			xs[i] = rng.NormFloat64()
		}
		if _, lim := MSER(xs, 5); lim {
			at++
		}
	}
	assert.Less(t, float64(at)/reps, 0.02, "%d of %d at the limit", at, reps)
}
