package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// naiveOnOff steps BookSim2's chain cycle by cycle (injection.cpp's test(): the
// state moves, then an "on" source makes a packet with probability r1) and returns
// the cycles of the first n packets: the reference that OnOff.Next's geometric
// jumps must match in distribution.
func naiveOnOff(alpha, beta, r1 float64, n int, r *rand.Rand) []int64 {
	on := r.IntN(2) == 1
	var out []int64
	for t := int64(0); len(out) < n; t++ {
		if on {
			on = r.Float64() >= beta
		} else {
			on = r.Float64() < alpha
		}
		if on && r.Float64() < r1 {
			out = append(out, t)
		}
	}
	return out
}

func gapStats(ts []int64) (mean, one, cv float64) {
	var s, s2 float64
	ones := 0
	for i := 1; i < len(ts); i++ {
		g := float64(ts[i] - ts[i-1])
		s += g
		s2 += g * g
		if g == 1 {
			ones++
		}
	}
	n := float64(len(ts) - 1)
	mean = s / n
	return mean, float64(ones) / n, math.Sqrt(s2/n-mean*mean) / mean
}

// The on/off process's packets come at the rate asked for, and its gaps have the
// distribution of BookSim2's per-cycle chain: the same mean, the same share of
// back-to-back packets and the same coefficient of variation (above a Bernoulli
// process's, the burstiness), for the three ways of giving the parameters.
func TestOnOffMatchesBookSimChain(t *testing.T) {
	const n = 200000
	for _, c := range []struct {
		name string
		o    OnOff
		rate float64
	}{
		{"defaults", OnOff{0.5, 0.5, -1}, 0.2},
		{"r1 derived, long bursts", OnOff{0.01, 0.05, -1}, 0.1},
		{"alpha derived", OnOff{-1, 0.1, 0.8}, 0.3},
		{"beta derived", OnOff{0.05, -1, 0.5}, 0.2},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b, r1, err := c.o.Params(c.rate)
			require.NoError(t, err)
			require.InDelta(t, c.rate, r1*a/(a+b), 1e-12, "the stationary rate")
			r := rand.New(rand.NewPCG(1, 2))
			got := make([]int64, 0, n)
			x := c.o.Next(-1, c.rate, r)
			for len(got) < n {
				got = append(got, int64(x))
				nx := c.o.Next(x, c.rate, r)
				require.Greater(t, nx, x)
				x = nx
			}
			ref := naiveOnOff(a, b, r1, n, rand.New(rand.NewPCG(3, 4)))
			m1, one1, cv1 := gapStats(got)
			m2, one2, cv2 := gapStats(ref)
			require.InDelta(t, 1/c.rate, m1, 0.03/c.rate, "mean gap against 1/rate")
			require.InDelta(t, m2, m1, 0.03*m2, "mean gap")
			require.InDelta(t, one2, one1, 0.01, "share of gaps of one cycle")
			require.InDelta(t, cv2, cv1, 0.05*cv2, "coefficient of variation of the gaps")
		})
	}
}

// Parameters that cannot make the rate are refused, naming the one out of range.
func TestOnOffParams(t *testing.T) {
	_, _, _, err := OnOff{0.5, 0.5, -1}.Params(0.6) // r1 would be 1.2
	require.ErrorContains(t, err, "r1 is 1.2")
	_, _, _, err = OnOff{0.5, 0.5, 0.5}.Params(0.1)
	require.ErrorContains(t, err, "give two of")
	require.InDelta(t, 0.5, OnOff{0.5, 0.5, -1}.MaxRate(), 1e-12)
	require.InDelta(t, 0.4, OnOff{-1, 0.25, 0.5}.MaxRate(), 1e-12)
}
