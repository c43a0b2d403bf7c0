package instances

// Deterministic up-links on the butterfly fat-tree: each up-link chosen by a digit
// of the destination's address, so that messages to one destination share their
// up-links (the deterministic selection of seed 000's simulations).

import "math/rand/v2"

// FatTreeDeterministic picks the up-link of level l by bit l-1 of the destination
// processor's address.
type FatTreeDeterministic struct{ f *fatTree }

var _ Routing = FatTreeDeterministic{}
var _ upChooser = FatTreeDeterministic{}

func (FatTreeDeterministic) Name() string { return Deterministic }

func (x FatTreeDeterministic) up(u, d int, _ *rand.Rand) int { return d >> (x.f.coords[u][0] - 1) & 1 }

func (x FatTreeDeterministic) Path(src, dst int, r *rand.Rand) ([]int, error) {
	return x.f.path(src, dst, x, r)
}
