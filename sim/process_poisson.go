package sim

import "math/rand/v2"

// Poisson generates packets at the points of a Poisson process of intensity rate:
// exponential gaps in continuous time, so a cycle may see several packets (their
// count is Poisson(rate)) and the gaps between cycles with packets are geometric.
// Seed 004 (Quaglia et al.) injects this way.
type Poisson struct{}

var _ Process = Poisson{}

func init() { RegisterProcess("poisson", Poisson{}) }

func (Poisson) MaxRate() float64 { return 1 }

func (Poisson) Next(now, rate float64, r *rand.Rand) float64 {
	if now < 0 {
		now = 0
	}
	return now + r.ExpFloat64()/rate
}
