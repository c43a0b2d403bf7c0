package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
)

// A run shorter than a packet's zero-load latency delivers nothing, and that
// alone is no saturation: the accepted-load test's lemma (TestOpenShortRunsInFlightExact)
// with no delivery. Below saturation the flits generated and not delivered are
// those in flight at the end and those of each source's next packet, so a point
// is saturated with nothing delivered only when flits wait in the source queues
// behind the next packet (more than the 2% the test allows). wormlab sim
// --topology torus:8x8 --rate 0.1 --max-cycles 30 (16-flit packets, zero-load
// latency above 30 cycles) said "saturated: nothing delivered". At 1 flit/node/cycle
// the queues grow from the start, and the point is still saturated.
func TestOpenNothingDeliveredYet(t *testing.T) {
	for _, c := range []struct {
		rate   float64
		cycles int64
		seed   uint64
	}{{0.1, 30, 1}, {0.1, 10, 2}, {0.3, 30, 1}, {0.02, 20, 3}} {
		r, err := uniformRun(t, "torus:8x8", c.rate, c.seed, sim.Measure{MinCycles: c.cycles, MaxCycles: c.cycles})
		require.NoError(t, err)
		require.Zero(t, r.PacketsDelivered, "the run is shorter than any latency")
		require.Positive(t, r.PacketsGenerated)
		require.False(t, r.Saturated, "rate %g, %d cycles, seed %d: %s", c.rate, c.cycles, c.seed, r.Reason)
	}
	r, err := uniformRun(t, "torus:8x8", 1, 1, sim.Measure{MinCycles: 20, MaxCycles: 20})
	require.NoError(t, err)
	require.Zero(t, r.PacketsDelivered)
	require.True(t, r.Saturated)
	require.Equal(t, "nothing delivered", r.Reason)
}
