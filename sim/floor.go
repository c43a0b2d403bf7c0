package sim

import "github.com/wormlab/wormlab/topology"

// NetworkFloor is a floor on EngineBytes for a network of size sz (topology.SizeOf,
// counted from its spec before it is built) with vcs VCs of buf flits: EngineBytes
// of the fewest ports such a network has (its own, one injection queue a router,
// one ejection port a router or a terminal), one partition of a block of one
// cycle, no event wheels and flat arbitration. A run whose floor is above its
// budget is refused without building the network. O(1).
func NetworkFloor(sz topology.Size, vcs, buf int) int64 {
	if vcs < 1 || buf < 1 {
		return 0
	}
	return engineBytes(engineCounts{
		routers: sz.Routers,
		nin:     sz.InPorts + sz.Routers,
		nout:    sz.Ports + max(sz.Routers, sz.Terminals),
		nq:      sz.Routers,
		terms:   sz.Terminals,
		parts:   1,
		span:    1,
	}, vcs, buf)
}
