package sim

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/topology"
)

// NetworkFloor, made from a spec's size before the network is built, is a floor
// on EngineBytes, the estimate made of the built network, for every kind whose
// size follows from its spec, VCs from 1 to 16 and buffers from 1 to 64 flits, with
// one injection port a router and one an output port; and, with one a router
// (the default), it is close enough to refuse what will not fit: at least a third
// of EngineBytes on every kind (what it leaves out is the extra injection queues
// of concentrated routers and the event wheels of long links), at least 95% on the
// tori and meshes.
func TestNetworkFloorBelowEngineBytes(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "mesh:4x6", "torus:4x4x4", "cmesh:4x4,c=4", "fattree:64",
		"dragonfly:p=2", "dragonfly:a=4,p=3,h=2,g=5", "fly:k=2,n=4", "hyperx:3x4,k=2x1,t=2", "flatfly:k=4,n=3"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err, spec)
		sz, ok := topology.SizeOf(spec)
		require.True(t, ok, spec)
		for _, vcs := range []int{1, 2, 3, 8, 16} {
			for _, buf := range []int{1, 4, 8, 20, 64} {
				for _, perPort := range []bool{false, true} {
					cfg := &Config{Net: net, VCs: vcs, Buf: buf, InjectPerPort: perPort}
					floor, est := NetworkFloor(sz, vcs, buf), EngineBytes(cfg)
					require.Positive(t, floor, spec)
					require.LessOrEqual(t, floor, est, "%s, %d VCs of %d flits, per port %v", spec, vcs, buf, perPort)
					if perPort {
						continue
					}
					require.GreaterOrEqual(t, 3*floor, est, "%s, %d VCs of %d flits", spec, vcs, buf)
					if strings.HasPrefix(spec, "torus") || strings.HasPrefix(spec, "mesh") {
						require.GreaterOrEqual(t, float64(floor), 0.95*float64(est), "%s, %d VCs of %d flits", spec, vcs, buf)
					}
				}
			}
		}
	}
}
