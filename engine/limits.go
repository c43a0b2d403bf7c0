package engine

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/model"
)

// MaxRelease is the latest release time Release accepts. Fewer than 2^31 worms of
// fewer than 2^31 moves each make fewer than 2^62 moves, and a step without a move
// is followed by one or skipped to the next release, so every step of a run stays
// below 2^61 + 2^62 < 2^63: the clock (an int) cannot overflow.
const MaxRelease = 1 << 61

// checkCounts rejects an instance whose message or edge indices do not fit the
// engine's int32 state.
func checkCounts(in *model.Instance) error {
	if n := len(in.Messages); n > math.MaxInt32-1 {
		return fmt.Errorf("engine: %d messages: at most %d", n, math.MaxInt32-1)
	}
	if ne := len(in.Net.Edges); ne > math.MaxInt32-1 {
		return fmt.Errorf("engine: %d edges: at most %d", ne, math.MaxInt32-1)
	}
	return nil
}

// checkLimits is checkCounts plus the wormhole engine's move counter: a worm makes
// h <= d + L moves (doc.go, "State"), held in an int32. The error names the message.
func checkLimits(in *model.Instance) error {
	if err := checkCounts(in); err != nil {
		return err
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		if d := len(m.Path); m.L > math.MaxInt32-d {
			return fmt.Errorf("engine: message %q: d + L = %d + %d exceeds %d", m.ID, d, m.L, math.MaxInt32)
		}
	}
	return nil
}

// checkStoreWork bounds a store-and-forward run's clock. Some packet moves in every
// step in which a released packet is undelivered (a packet waits only for an edge
// another packet is crossing), so the makespan is at most max release + sum_i d_i
// L_i; both must stay below MaxRelease = 2^61 for the clock and the flit counter
// to stay exact. The error names the message at which the sum passes the limit.
func checkStoreWork(in *model.Instance, release []int) error {
	for i, t := range release {
		if t > MaxRelease {
			return fmt.Errorf("engine: store: message %q released at %d, beyond %d", in.Messages[i].ID, t, MaxRelease)
		}
	}
	work := 0
	for i := range in.Messages {
		m := &in.Messages[i]
		if d := len(m.Path); m.L > (MaxRelease-work)/d {
			return fmt.Errorf("engine: store: message %q: the flit hops sum_i d_i L_i pass %d", m.ID, MaxRelease)
		}
		work += len(m.Path) * m.L
	}
	return nil
}
