// Arbitration by input edge: seed 000 (Greenberg, Oh), section II, the fixed-order
// input scan FO: the head arriving on the input edge of smallest index wins; heads
// still at their source come last.

package engine

import "math/rand/v2"

// InputOrder lets the head on the input edge of smallest index win.
type InputOrder struct{}

var _ Policy = InputOrder{}
var _ Arbiter = inputArbiter{}

func init() {
	Register(ArbInput, "the input edge of smallest index wins, sources last (seed 000's FO)", InputOrder{})
}

func (InputOrder) Arbiter(int, *rand.Rand) Arbiter { return inputArbiter{} }
func (InputOrder) QueueBefore(a, b Queued) bool    { return byMessage(a, b) }

type inputArbiter struct{ noGrant }

func inputKey(r Request) int64 {
	if r.In < 0 {
		return 1 << 40
	}
	return int64(r.In)
}

func (inputArbiter) Pick(_ int, reqs []Request, _ int32) int {
	return pickBy(reqs, func(x, y Request) bool { return inputKey(x) < inputKey(y) })
}
