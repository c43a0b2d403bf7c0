package sim

import "math/rand/v2"

// BitComplement sends terminal s to its bitwise complement.
type BitComplement struct{ Bits int }

var _ Pattern = BitComplement{}

func init() {
	RegisterPattern("bitcomp", func(p PatternParams) (Pattern, error) {
		b, err := bitsOf("bitcomp", terminalCount(p))
		return BitComplement{b}, err
	})
}

func (b BitComplement) Dest(src int, _ *rand.Rand) int { return ^src & (1<<b.Bits - 1) }
