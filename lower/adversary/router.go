package adversary

import (
	"math/rand/v2"

	"github.com/wormlab/wormlab/instances"
)

// Router draws a path (edge indices) from node src to node dst != src of the
// space's network; false when it finds none. Routers are values: the topology's own
// routings (TopologyRouter), random simple paths (SimpleRouter) and uniform paths
// of a levelled network (LevelledRouter), one file each.
type Router interface {
	Name() string
	Route(sp *Space, src, dst int, r *rand.Rand) ([]int, bool)
}

// TopologyRouters returns the routings of a generated topology as routers.
func TopologyRouters(t *instances.Topology) []Router {
	var rs []Router
	for _, name := range t.Routings {
		rs = append(rs, TopologyRouter{t, name})
	}
	return rs
}
