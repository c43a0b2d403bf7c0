package sim

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// RandPerm sends every terminal to its image under one random permutation, drawn
// from the params' seed.
type RandPerm struct{ Perm []int }

var _ Pattern = RandPerm{}

func init() {
	RegisterPattern("randperm", func(p PatternParams) (Pattern, error) {
		t := topology.TerminalsOf(p.Net).Len()
		r := rand.New(rand.NewPCG(p.Seed, 0x7065726d))
		return RandPerm{r.Perm(t)}, nil
	})
}

func (p RandPerm) Dest(src int, _ *rand.Rand) int { return p.Perm[src] }
