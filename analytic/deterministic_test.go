package analytic

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The deterministic model at vanishing load is the adaptive model's zero-load
// latency, L + 2K k/(k+1) (both count one cycle per channel and L for the data
// trail); its latency rises with the rate until a utilisation reaches 1; the
// waits are never negative; and a bad point is refused naming the field.
func TestDeterministic(t *testing.T) {
	for _, k := range []int{4, 8, 12, 16, 32} {
		for _, L := range []int{1, 12, 64} {
			r, err := SolveDeterministic(Params{K: k, L: L, Rate: 1e-12}, Paper)
			require.NoError(t, err)
			require.False(t, r.Saturated)
			require.InDelta(t, ZeroLoad(k, L), r.Latency, 1e-6, "k %d L %d", k, L)
			prev := r.Latency
			for rate := 0.0005; rate < 1; rate += 0.0005 {
				r, err := SolveDeterministic(Params{K: k, L: L, Rate: rate}, Paper)
				require.NoError(t, err)
				if r.Saturated {
					require.NotEmpty(t, r.Reason)
					break
				}
				require.Greater(t, r.Latency, prev, "k %d L %d rate %g", k, L, rate)
				for _, w := range []float64{r.WX0, r.WXX, r.WXY, r.WYY, r.WY0} {
					require.GreaterOrEqual(t, w, 0.0)
				}
				require.Less(t, r.RhoX, 1.0)
				prev = r.Latency
			}
		}
	}
	_, err := SolveDeterministic(Params{K: 6, L: 12, Rate: 0.01}, Paper)
	require.ErrorContains(t, err, "k")
	require.InDelta(t, 2*2*8.0/9, Hops(8), 1e-12)
	require.InDelta(t, 1.0, Blocking(ZeroLoad(8, 12)+Hops(8), 8, 12), 1e-12)
}

// The rate factor: at 12/11 the 4x4 and 8x8 columns are met to 0.05% and 0.3%
// (at 1: 0.60% and 2.77%), and the best factor differs between tori (so it is not
// a unit of the rate).
func TestRateFactor(t *testing.T) {
	m4, _ := FactorScore(4, Paper, 12.0/11)
	m8, _ := FactorScore(8, Paper, 12.0/11)
	require.Less(t, m4, 0.06)
	require.Less(t, m8, 0.3)
	f4, _ := BestFactor(4, Paper, 1, 1.4, 0.001)
	f12, _ := BestFactor(12, Paper, 1, 1.4, 0.001)
	require.InDelta(t, 12.0/11, f4, 0.005)
	require.Greater(t, f12-f4, 0.1)
}
