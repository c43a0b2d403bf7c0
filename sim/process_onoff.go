package sim

// BookSim2's on/off (bursty) injection process (booksim2 src/injection.cpp,
// OnOffInjectionProcess): every source is a two-state Markov chain stepped once a
// cycle, off -> on with probability Alpha, on -> off with probability Beta, and an
// "on" source generates a packet with probability R1 in each cycle it is on after
// the step. The long-run fraction of cycles on is Alpha/(Alpha+Beta), so the rate is
// R1 Alpha/(Alpha+Beta) packets per node per cycle; as in BookSim one of the three
// is left unset (negative) and derived from the other two and the rate, and each
// source starts on or off with probability 1/2.

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// OnOff is the on/off process with its parameters; a negative one is derived.
// BookSim2's defaults are Alpha = Beta = 0.5 with R1 derived (R1 = 2 rate).
type OnOff struct {
	Alpha, Beta, R1 float64
}

var _ Process = OnOff{}

func init() { RegisterProcess("onoff", OnOff{Alpha: 0.5, Beta: 0.5, R1: -1}) }

// Params returns the three probabilities for rate packets per node per cycle: the
// given two and the derived one, each in (0, 1], or an error saying which does not
// fit.
func (o OnOff) Params(rate float64) (alpha, beta, r1 float64, err error) {
	alpha, beta, r1 = o.Alpha, o.Beta, o.R1
	neg := 0
	for _, x := range []float64{alpha, beta, r1} {
		if x < 0 {
			neg++
		}
	}
	if neg != 1 {
		return 0, 0, 0, fmt.Errorf("onoff: give two of alpha, beta and r1 (the third, negative, is derived from the rate), got %g, %g, %g", alpha, beta, r1)
	}
	switch {
	case alpha < 0:
		alpha = beta * rate / (r1 - rate)
	case beta < 0:
		beta = alpha * (r1 - rate) / rate
	default:
		r1 = rate * (alpha + beta) / alpha
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", alpha}, {"beta", beta}, {"r1", r1}} {
		if !(p.v > 0 && p.v <= 1) {
			return alpha, beta, r1, fmt.Errorf("onoff: at %g packets/node/cycle %s is %.4g, outside (0, 1]", rate, p.name, p.v)
		}
	}
	return alpha, beta, r1, nil
}

// MaxRate is the largest rate the parameters allow: R1 Alpha/(Alpha+Beta) with R1
// at most 1, Alpha at most 1, or R1 itself.
func (o OnOff) MaxRate() float64 {
	switch {
	case o.Alpha < 0 && o.R1 > 0:
		return o.R1 / (1 + o.Beta)
	case o.Beta < 0 && o.R1 > 0:
		return o.R1
	case o.R1 < 0 && o.Alpha > 0:
		return o.Alpha / (o.Alpha + o.Beta)
	}
	return 0
}

// Next steps the chain from the cycle of the last packet (the source is on then)
// or, for the first packet (now < 0), from a state drawn on or off with
// probability 1/2, jumping over quiet cycles by geometric draws.
func (o OnOff) Next(now, rate float64, r *rand.Rand) float64 {
	alpha, beta, r1, _ := o.Params(rate)
	alpha, beta, r1 = clamp01(alpha), clamp01(beta), clamp01(r1)
	on := true
	t := math.Floor(now)
	if now < 0 {
		t = -1
		on = r.IntN(2) == 1
	}
	for {
		if !on {
			t += geometric(alpha, r) // the cycle the source turns on
			on = true
			if r.Float64() < r1 {
				return t
			}
		}
		// on: each cycle, off with probability beta, else a packet with r1
		p := beta + (1-beta)*r1
		t += geometric(p, r)
		if r.Float64()*p < (1-beta)*r1 {
			return t
		}
		on = false
	}
}

// geometric is the number of trials up to and including the first success of
// probability p > 0.
func geometric(p float64, r *rand.Rand) float64 {
	if p >= 1 {
		return 1
	}
	u := 1 - r.Float64() // (0, 1]
	return 1 + math.Floor(math.Log(u)/math.Log1p(-p))
}

func clamp01(x float64) float64 {
	if !(x > 0) {
		return 1e-12
	}
	return min(x, 1)
}
