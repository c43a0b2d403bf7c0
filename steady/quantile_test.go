package steady

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"
)

func TestQuantileSmall(t *testing.T) {
	xs := []float64{7, 1, 5, 3, 9, 2, 8, 4, 6, 10}
	orig := slices.Clone(xs)
	assert.Equal(t, 5.0, Quantile(xs, 0.5))  // ceil(5) = 5th smallest
	assert.Equal(t, 6.0, Quantile(xs, 0.51)) // ceil(5.1) = 6th
	assert.Equal(t, 10.0, Quantile(xs, 0.99))
	assert.Equal(t, 10.0, Quantile(xs, 1))
	assert.Equal(t, 1.0, Quantile(xs, 0))
	assert.Equal(t, 1.0, Quantile(xs, 0.1))
	assert.Equal(t, orig, xs, "input modified")
	assert.True(t, math.IsNaN(Quantile(nil, 0.5)))
	assert.True(t, math.IsNaN(Quantile(xs, 1.5)))
	assert.True(t, math.IsNaN(Quantile(xs, -0.1)))
}

// Lemma (nearest rank): Quantile(xs, q) = x is an element of xs with
// #{x_i <= x} >= ceil(q n) and #{x_i < x} < max(1, ceil(q n)).
func TestQuantileRank(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		xs := rapid.SliceOfN(rapid.Float64Range(-10, 10), 1, 60).Draw(t, "xs")
		if rapid.Bool().Draw(t, "ties") {
			for i := range xs {
				xs[i] = math.Round(xs[i])
			}
		}
		q := rapid.Float64Range(0, 1).Draw(t, "q")
		x := Quantile(xs, q)
		le, lt := 0, 0
		for _, v := range xs {
			if v <= x {
				le++
			}
			if v < x {
				lt++
			}
		}
		r := max(1, int(math.Ceil(q*float64(len(xs)))))
		if !slices.Contains(xs, x) || le < r || lt >= r {
			t.Fatalf("Quantile(%v, %g) = %g: %d <= it, %d < it, rank %d", xs, q, x, le, lt, r)
		}
	})
}
