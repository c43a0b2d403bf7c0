package draw

import "testing"

// The labelled ticks of a time axis fall on round times, 1, 2 or 5 times a power
// of ten, at least a label's width apart, even on a plot of the whole range of
// int (draw --time 1:9223372036854775807), where tickStep fell back to
// MaxInt / 50 = 184467440737095516 and labelled its multiples.
func TestTickStepRoundOverWholeRange(t *testing.T) {
	gap := 20*charW + 12 // a label of 19 digits, as at the end of the range
	for _, span := range []float64{10, 1e6, 1e12, 4.6e18, 9.2e18} {
		unit := float64(maxPlotW) / span
		step := tickStep(unit, gap)
		m := step
		for m%10 == 0 {
			m /= 10
		}
		if m != 1 && m != 2 && m != 5 {
			t.Errorf("span %g: tick step %d is not 1, 2 or 5 times a power of ten", span, step)
		}
		if float64(step)*unit < gap {
			t.Errorf("span %g: tick step %d puts labels %.1f pixels apart, less than %.1f", span, step, float64(step)*unit, gap)
		}
	}
}
