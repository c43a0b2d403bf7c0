package sim

import "math/rand/v2"

// Transpose swaps the high and low halves of the terminal number's bits (on a
// 2^b x 2^b torus, node (x, y) sends to (y, x)); 2^(2b) terminals.
type Transpose struct{ Half int }

var _ Pattern = Transpose{}

func init() {
	RegisterPattern("transpose", func(p PatternParams) (Pattern, error) {
		b, err := bitsOf("transpose", terminalCount(p))
		if err != nil {
			return nil, err
		}
		if b%2 != 0 {
			return nil, errOddBits("transpose", b)
		}
		return Transpose{b / 2}, nil
	})
}

func (t Transpose) Dest(src int, _ *rand.Rand) int {
	m := 1<<t.Half - 1
	return (src&m)<<t.Half | src>>t.Half
}
