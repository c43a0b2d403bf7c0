package sim

import "math/rand/v2"

// FixedOrder always grants the requester of the lowest ID (a static priority:
// lower-numbered ports and VCs first; it can starve the others).
type FixedOrder struct{}

var _ Arbitration = FixedOrder{}

func init() { RegisterArbitration("fixed", FixedOrder{}) }

func (FixedOrder) NewArbiter(int, *rand.Rand) Arbiter { return fixedOrder{} }

type fixedOrder struct{}

func (fixedOrder) Pick([]Request) int { return 0 }
func (fixedOrder) Granted(int32)      {}
