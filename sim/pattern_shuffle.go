package sim

import "math/rand/v2"

// Shuffle sends terminal s to s rotated left by one bit (the perfect shuffle).
type Shuffle struct{ Bits int }

var _ Pattern = Shuffle{}

func init() {
	RegisterPattern("shuffle", func(p PatternParams) (Pattern, error) {
		b, err := bitsOf("shuffle", terminalCount(p))
		return Shuffle{b}, err
	})
}

func (s Shuffle) Dest(src int, _ *rand.Rand) int {
	m := 1<<s.Bits - 1
	return (src<<1 | src>>(s.Bits-1)) & m
}
