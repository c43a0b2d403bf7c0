package deadlock

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// North-last on 2-D tori (seed 003's use): proved deadlock-free at its 4 VCs on
// even, odd and unequal sides (Dally and Seitz's theorem, every packet state
// enumerated), while 3 VCs, which merge two of its wrap classes, leave a cycle
// that crosses a wrap link.
func TestNorthLastTorus(t *testing.T) {
	alg, err := routing.Lookup("northlast")
	require.NoError(t, err)
	for _, spec := range []string{"torus:6x6", "torus:5x7", "torus:4x6"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		v, err := alg.MinVCs(net)
		require.NoError(t, err)
		require.Equal(t, 4, v)
		rep := checkAlg(t, net, alg, v)
		require.True(t, rep.OK(), "%s: %s", spec, rep.CycleString())
		rep = checkAlg(t, net, alg, v-1)
		require.False(t, rep.OK(), "%s with 3 VCs", spec)
		g := net.(*topology.Grid)
		wraps := false
		for i, c := range rep.Cycle {
			next := rep.Cycle[(i+1)%len(rep.Cycle)]
			dim, _ := topology.PortDim(c.Port)
			if d := g.Coord(c.Router, dim) - g.Coord(next.Router, dim); d > 1 || d < -1 {
				wraps = true
			}
		}
		require.True(t, wraps, "%s: the cycle %s takes a wrap link", spec, rep.CycleString())
	}
}
