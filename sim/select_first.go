package sim

import "math/rand/v2"

// FirstFree takes the first free candidate in the routing's order.
type FirstFree struct{}

var _ Selector = FirstFree{}

func init() { RegisterSelector("first", FirstFree{}) }

func (FirstFree) Select([]Candidate, *rand.Rand) int { return 0 }
