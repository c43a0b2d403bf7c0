package sim

import "math/rand/v2"

// MostCredits takes the free candidate with the most free slots downstream (the
// least congested next buffer), the first such on a tie.
type MostCredits struct{}

var _ Selector = MostCredits{}

func init() { RegisterSelector("credits", MostCredits{}) }

func (MostCredits) Select(c []Candidate, _ *rand.Rand) int {
	best := 0
	for i := 1; i < len(c); i++ {
		if c[i].Credits > c[best].Credits {
			best = i
		}
	}
	return best
}
