package instances

// A routing given by a function: the one routing of a topology whose paths are
// determined by its structure (trees, butterflies: Unique) or drawn one way only
// (levelled networks: RandomShortest).

import "math/rand/v2"

// funcRouting is a named routing computed by a function of the topology.
type funcRouting struct {
	name string
	path func(src, dst int, r *rand.Rand) ([]int, error)
}

var _ Routing = funcRouting{}

func (f funcRouting) Name() string { return f.name }

func (f funcRouting) Path(src, dst int, r *rand.Rand) ([]int, error) { return f.path(src, dst, r) }
