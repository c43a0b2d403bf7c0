package sim

import "math/rand/v2"

// RandomFree takes a free candidate uniformly at random.
type RandomFree struct{}

var _ Selector = RandomFree{}

func init() { RegisterSelector("random", RandomFree{}) }

func (RandomFree) Select(c []Candidate, r *rand.Rand) int { return r.IntN(len(c)) }
