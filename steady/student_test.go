package steady

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

// Values from a standard Student-t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2),
// given to the table's 3 or 4 decimals.
var tTable = []struct {
	df   int
	p, t float64
}{
	{1, 0.975, 12.706}, {2, 0.975, 4.303}, {3, 0.975, 3.182}, {4, 0.975, 2.776},
	{5, 0.975, 2.571}, {9, 0.975, 2.262}, {10, 0.975, 2.228}, {19, 0.975, 2.093},
	{29, 0.975, 2.045}, {30, 0.975, 2.042}, {60, 0.975, 2.000}, {100, 0.975, 1.984},
	{1, 0.95, 6.314}, {4, 0.95, 2.132}, {10, 0.95, 1.812}, {20, 0.95, 1.725},
	{1, 0.995, 63.657}, {5, 0.995, 4.032}, {10, 0.995, 3.169}, {30, 0.995, 2.750},
	{1, 0.9995, 636.619}, {10, 0.9995, 4.587}, {5, 0.9, 1.476}, {15, 0.8, 0.866},
}

func TestTQuantileTable(t *testing.T) {
	for _, c := range tTable {
		got := TQuantile(c.df, c.p)
		assert.InDelta(t, c.t, got, 0.0006*math.Max(1, c.t), "df=%d p=%g", c.df, c.p)
		assert.InDelta(t, -c.t, TQuantile(c.df, 1-c.p), 0.0006*math.Max(1, c.t), "df=%d p=%g", c.df, 1-c.p)
	}
}

// Closed forms: for 1 degree of freedom (Cauchy) t_p = tan(pi (p - 1/2)); for 2,
// t_p = (2p-1) sqrt(2 / (4p(1-p))).
func TestTQuantileClosedForms(t *testing.T) {
	for _, p := range []float64{0.01, 0.1, 0.3, 0.6, 0.9, 0.975, 0.999} {
		assert.InDelta(t, math.Tan(math.Pi*(p-0.5)), TQuantile(1, p), 1e-8*math.Max(1, math.Abs(math.Tan(math.Pi*(p-0.5)))), "p=%g", p)
		want2 := (2*p - 1) * math.Sqrt(2/(4*p*(1-p)))
		assert.InDelta(t, want2, TQuantile(2, p), 1e-8*math.Max(1, math.Abs(want2)), "p=%g", p)
	}
	// Large df approaches the normal quantile 1.959964.
	assert.InDelta(t, 1.959964, TQuantile(1_000_000, 0.975), 1e-4)
	assert.InDelta(t, 1.962339, TQuantile(1000, 0.975), 1e-5)
}

func TestTQuantileEdges(t *testing.T) {
	assert.True(t, math.IsNaN(TQuantile(0, 0.9)))
	assert.True(t, math.IsNaN(TQuantile(3, -0.1)))
	assert.True(t, math.IsNaN(TQuantile(3, 1.1)))
	assert.True(t, math.IsInf(TQuantile(3, 1), 1))
	assert.True(t, math.IsInf(TQuantile(3, 0), -1))
	assert.Equal(t, 0.0, TQuantile(7, 0.5))
}

// Lemma: TQuantile inverts TCDF (TCDF(df, TQuantile(df, p)) = p), is odd about
// p = 1/2, increasing in p, and for p > 1/2 decreasing in df (heavier tails for
// fewer degrees of freedom).
func TestTQuantileProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		df := rapid.IntRange(1, 500).Draw(t, "df")
		p := rapid.Float64Range(0.001, 0.999).Draw(t, "p")
		q := TQuantile(df, p)
		if got := TCDF(df, q); math.Abs(got-p) > 1e-9 {
			t.Fatalf("TCDF(%d, %g) = %g, want %g", df, q, got, p)
		}
		if s := TQuantile(df, 1-p); math.Abs(s+q) > 1e-9*math.Max(1, math.Abs(q)) {
			t.Fatalf("not odd: %g vs %g", q, s)
		}
		p2 := p + rapid.Float64Range(1e-6, 0.999-p+1e-6).Draw(t, "dp")
		if p2 < 1 && TQuantile(df, p2) <= q {
			t.Fatalf("not increasing in p: t(%g)=%g, t(%g)=%g", p, q, p2, TQuantile(df, p2))
		}
		if p > 0.5 && TQuantile(df+1, p) >= q {
			t.Fatalf("not decreasing in df at p=%g: %g then %g", p, q, TQuantile(df+1, p))
		}
	})
}
