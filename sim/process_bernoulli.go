package sim

import (
	"math"
	"math/rand/v2"
)

// Bernoulli generates a packet in each cycle with probability rate, independently
// (BookSim2's bernoulli): the gaps are geometric on 1, 2, ..., drawn directly, so a
// quiet source costs nothing per cycle.
type Bernoulli struct{}

var _ Process = Bernoulli{}

func init() { RegisterProcess("bernoulli", Bernoulli{}) }

func (Bernoulli) MaxRate() float64 { return 1 }

func (Bernoulli) Next(now, rate float64, r *rand.Rand) float64 {
	now = math.Floor(now)
	if rate >= 1 {
		return now + 1
	}
	u := 1 - r.Float64() // (0, 1]
	return now + 1 + math.Floor(math.Log(u)/math.Log1p(-rate))
}
