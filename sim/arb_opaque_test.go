package sim

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/topology"
)

// opaque hides the rule of a flat arbitration (flatArbitration): the engine
// then arbitrates through the Arbiters it makes, Pick and Granted, with a
// Request a head.
type opaque struct{ Arbitration }

// A flat arbitration's run is the run of its Arbiters (arb_flat.go's contract,
// TestPropertyFlatEqualsArbiter, carried to the engine): VC allocation by masks
// of IDs and pickAt on routers of at most 64 input VCs, by requests and
// pickVCArb on larger ones, and switch allocation by states and masks, give for
// round-robin, fixed and random the same result as every output VC and port
// arbitrated by Pick and Granted. Nothing else compared the flat paths with the
// Arbiters in a run. A round-robin VC arbiter whose pointer stays put in the
// masks' path (mutant vc-rr-pointer-kept) fails here on 4 VCs, one that takes
// the first ID above the pointer instead of at it in pickVCArb on 16.
func TestFlatArbitrationEqualsArbiters(t *testing.T) {
	for _, c := range []struct {
		topo string
		vcs  int // mesh:4x4 has 5 input ports a router: 20 input VCs, 80 with 16 VCs
		rate float64
	}{{"mesh:4x4", 4, 0.35}, {"mesh:4x4", 16, 0.5}} {
		net, err := topology.Parse(c.topo)
		require.NoError(t, err)
		pat, err := NewPattern("uniform", PatternParams{Net: net})
		require.NoError(t, err)
		for _, arb := range []Arbitration{RoundRobin{}, FixedOrder{}, Random{}} {
			run := func(a Arbitration) *Result {
				cfg := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: c.vcs, Buf: 2, Pipeline: BookSim(net),
					Arbiter: a, Seed: 5}
				res, err := RunOpen(context.Background(), cfg, Workload{Pattern: pat, Rate: c.rate, Sizes: Fixed(4)},
					Measure{MinCycles: 2000, MaxCycles: 2000, Period: 500})
				require.NoError(t, err)
				return res
			}
			flat, general := run(arb), run(opaque{arb})
			require.Greater(t, flat.PacketsDelivered, int64(500), "%s, %d VCs, %T", c.topo, c.vcs, arb)
			require.Equal(t, general, flat, "%s, %d VCs, %T: the flat run differs from its Arbiters'", c.topo, c.vcs, arb)
		}
	}
}
