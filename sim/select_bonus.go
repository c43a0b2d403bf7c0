package sim

import "math/rand/v2"

// SpendBonus is a selection for negative-hop routing with bonus cards (NBC;
// Boppana and Chalasani, seed 003, section 2): a message with bonus cards may take
// any of several VC classes on a hop, while a message without cards has exactly one
// class, usually a low one. Taking the highest free class spends the cards early
// and leaves the low classes to the messages that can use nothing else, which is
// how NBC spreads load over its classes. Among free candidates it takes the one of
// the highest VC, on a tie the one with the most credits, then the first.
type SpendBonus struct{}

var _ Selector = SpendBonus{}

func init() { RegisterSelector("bonus", SpendBonus{}) }

func (SpendBonus) Select(c []Candidate, _ *rand.Rand) int {
	best := 0
	for i := 1; i < len(c); i++ {
		if c[i].VC > c[best].VC || (c[i].VC == c[best].VC && c[i].Credits > c[best].Credits) {
			best = i
		}
	}
	return best
}
