package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// roundTicks marks a linear axis at round numbers: a step of 1, 2 or 5 times a
// power of ten giving 3 to 7 labelled ticks, labels with no more decimals than the
// step has, and unlabelled minor ticks between (halves, or fifths of a step of 1
// or 5... of the step's first digit).
type roundTicks struct{}

var _ plot.Ticker = roundTicks{}

// niceStep is the round step for a range of width w: the smallest of 1, 2, 5
// times a power of ten that gives at most 6 intervals.
func niceStep(w float64) float64 {
	if !(w > 0) || math.IsInf(w, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(w/6)))
	for _, m := range []float64{1, 2, 5, 10} {
		if w/(m*p) <= 6 {
			return m * p
		}
	}
	return 10 * p
}

// decimals is the number of decimals a label of a multiple of step needs.
func decimals(step float64) int {
	d := 0
	for step*math.Pow(10, float64(d)) < 0.999999 || math.Abs(step*math.Pow(10, float64(d))-math.Round(step*math.Pow(10, float64(d)))) > 1e-6 {
		d++
		if d > 12 {
			break
		}
	}
	return d
}

func (roundTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := niceStep(max - min)
	minor := step / 2
	if first := step / math.Pow(10, math.Floor(math.Log10(step))); math.Abs(first-2) > 1e-9 {
		minor = step / 5
	}
	dec := decimals(step)
	var ts []plot.Tick
	for i := math.Ceil(min/minor - 1e-9); i*minor <= max+1e-9*step; i++ {
		v := i * minor
		if math.Abs(v) < 1e-12*step {
			v = 0
		}
		label := ""
		if k := v / step; math.Abs(k-math.Round(k)) < 1e-6 {
			label = strconv.FormatFloat(v, 'f', dec, 64)
			switch {
			case v == 0:
				label = "0"
			case step >= 1e15:
				// beyond 15 digits 'f' writes the float's noise (a
				// label of 309 digits near 1e308): the digits down to
				// the step's, with an exponent
				digits := math.Max(1, math.Floor(math.Log10(math.Abs(v)))-math.Floor(math.Log10(step))+1)
				label = strconv.FormatFloat(v, 'g', int(digits), 64)
			}
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// logRoundTicks marks a log axis at 1, 2 and 5 times powers of ten (labelled)
// when it spans less than three decades, and at powers of ten (labelled) with
// 2..9 times them unlabelled beyond.
type logRoundTicks struct{}

var _ plot.Ticker = logRoundTicks{}

func (logRoundTicks) Ticks(min, max float64) []plot.Tick {
	if !(min > 0) || !(max > min) {
		return plot.LogTicks{Prec: -1}.Ticks(min, max)
	}
	few := max/min < 1000
	var ts []plot.Tick
	for e := math.Floor(math.Log10(min)); e <= math.Ceil(math.Log10(max)); e++ {
		p := math.Pow(10, e)
		for m := 1.0; m <= 9; m++ {
			v := m * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			label := ""
			if m == 1 || (few && (m == 2 || m == 5)) {
				label = strconv.FormatFloat(v, 'g', -1, 64)
				if e >= 21 || e < -4 {
					// written with an exponent: one digit, m, not the
					// noise of math.Pow (1.0000000000000006e+300)
					label = strconv.FormatFloat(v, 'g', 1, 64)
				}
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	labelled := 0
	for _, t := range ts {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 { // a narrow axis: round linear ticks read better
		return roundTicks{}.Ticks(min, max)
	}
	return ts
}
