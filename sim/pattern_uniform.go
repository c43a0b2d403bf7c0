package sim

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// Uniform sends to a terminal drawn uniformly, the source included (as BookSim2's
// uniform traffic: such a packet crosses no link).
type Uniform struct{ T int }

var _ Pattern = Uniform{}

func init() {
	RegisterPattern("uniform", func(p PatternParams) (Pattern, error) {
		return Uniform{topology.TerminalsOf(p.Net).Len()}, nil
	})
}

func (u Uniform) Dest(_ int, r *rand.Rand) int { return r.IntN(u.T) }
