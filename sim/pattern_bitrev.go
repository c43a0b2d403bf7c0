package sim

import "math/rand/v2"

// BitReverse sends terminal s to the terminal whose b-bit number is s reversed.
type BitReverse struct{ Bits int }

var _ Pattern = BitReverse{}

func init() {
	RegisterPattern("bitrev", func(p PatternParams) (Pattern, error) {
		b, err := bitsOf("bitrev", terminalCount(p))
		return BitReverse{b}, err
	})
}

func (b BitReverse) Dest(src int, _ *rand.Rand) int {
	d := 0
	for i := range b.Bits {
		d |= (src >> i & 1) << (b.Bits - 1 - i)
	}
	return d
}
