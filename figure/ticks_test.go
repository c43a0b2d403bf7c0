package figure

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Round ticks: labelled ticks are multiples of 1, 2 or 5 times a power of ten,
// three to seven of them, written with no more decimals than the step; a log axis
// within three decades is labelled at 1, 2 and 5 times powers of ten, wider ones
// at powers of ten.
func TestRoundTicks(t *testing.T) {
	get := func(log bool, lo, hi float64) []string {
		var out []string
		if log {
			for _, x := range (logRoundTicks{}).Ticks(lo, hi) {
				if x.Label != "" {
					out = append(out, x.Label)
				}
			}
		} else {
			for _, x := range (roundTicks{}).Ticks(lo, hi) {
				if x.Label != "" {
					out = append(out, x.Label)
				}
			}
		}
		return out
	}
	require.Equal(t, []string{"0.10", "0.12", "0.14", "0.16", "0.18", "0.20"}, get(false, 0.09, 0.21))
	require.Equal(t, []string{"0", "0.2", "0.4", "0.6"}, get(false, -0.02, 0.63))
	require.Equal(t, []string{"50", "100", "150", "200", "250", "300"}, get(false, 34, 310))
	require.Equal(t, []string{"1000", "2000", "3000", "4000"}, get(false, 600, 4200))
	require.Equal(t, []string{"50", "100", "200"}, get(true, 30, 350))
	require.Equal(t, []string{"10", "100", "1000"}, get(true, 5, 8000))
	// near the largest float64: the step's digits with an exponent, where 'f'
	// wrote 309 digits of noise and math.Pow's powers of ten had 17 digits
	require.Equal(t, []string{"1.6e+308", "1.62e+308", "1.64e+308", "1.66e+308", "1.68e+308", "1.7e+308"}, get(false, 1.596e308, 1.704e308))
	require.Equal(t, []string{"1e+300", "1e+301", "1e+302", "1e+303", "1e+304", "1e+305", "1e+306", "1e+307", "1e+308"}, get(true, 1e300, 1.5e308))
}
