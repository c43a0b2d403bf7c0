package routing

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
)

// The routings of issue 25 whose choices depend only on a routing table's key
// (router, destination, input port, input VC) are written as tables and read back
// with the same choice at every reachable state, so that a network from a file is
// proved (wormlab deadlock --routing table:FILE) and run (sim) through one file:
// shortest paths with a VC per hop (the input VC is the hop count less one),
// up*/down* (the input port says whether the packet has gone down), HyperX
// dimension order and butterfly destination tags.
func TestTopologyRoutingTables(t *testing.T) {
	for _, c := range []struct {
		spec, name string
		vcs        int
	}{
		{"file:../topology/testdata/ring4.json", "any-min", 2},
		{"file:../topology/testdata/ring4.json", "any-updown", 1},
		{"anynet:../topology/testdata/tree.anynet", "any-updown", 2},
		{"torus:4x3", "any-min", 3},
		{"hyperx:3x3,k=2,t=2", "hx-dor", 1},
		{"fly:k=2,n=3", "fly-tag", 1},
	} {
		tab, r, net := tableOf(t, c.spec, c.name, c.vcs)
		states := 0
		walkStates(t, net, r, c.vcs, func(at int, h sim.Header) {
			states++
			require.ElementsMatch(t, r.Route(at, &h, nil), tab.Routing().Route(at, &h, nil), "%s %s at %d, %+v", c.name, c.spec, at, h)
		})
		require.Positive(t, states, c.spec)
	}
}
