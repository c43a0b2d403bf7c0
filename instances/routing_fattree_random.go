package instances

// Random up-links on the butterfly fat-tree: seed 000 (Greenberg, Oh), section B.2,
// the fixed-path selection FP: each up-link drawn at random.

import "math/rand/v2"

// FatTreeRandom picks each up-link of a fat-tree path at random.
type FatTreeRandom struct{ f *fatTree }

var _ Routing = FatTreeRandom{}
var _ upChooser = FatTreeRandom{}

func (FatTreeRandom) Name() string { return RandomShortest }

func (FatTreeRandom) up(_, _ int, r *rand.Rand) int { return r.IntN(2) }

func (x FatTreeRandom) Path(src, dst int, r *rand.Rand) ([]int, error) {
	return x.f.path(src, dst, x, r)
}
