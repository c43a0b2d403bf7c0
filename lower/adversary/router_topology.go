package adversary

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/instances"
)

// TopologyRouter routes with one of the routings of the generated topology the
// network came from (dimension order, one-bend, random shortest, unique paths...).
type TopologyRouter struct {
	T       *instances.Topology
	Routing string
}

var _ Router = TopologyRouter{}

// Name is the routing's name.
func (t TopologyRouter) Name() string { return t.Routing }

// Route calls the topology's router.
func (t TopologyRouter) Route(_ *Space, src, dst int, r *rand.Rand) ([]int, bool) {
	p, err := t.T.Path(src, dst, t.Routing, r)
	return p, err == nil && len(p) > 0
}
