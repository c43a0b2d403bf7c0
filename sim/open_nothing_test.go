package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
)

// A run shorter than a packet's zero-load latency delivers nothing, and that
// alone is no saturation: the accepted-load test's lemma (TestOpenShortRunsInFlightExact)
// with no delivery. Below saturation the flits generated and not delivered are
// those in flight at the end, those of each source's next packet, and those
// random arrivals queue behind it; so a point is saturated with nothing delivered
// only when the queues behind the next packets hold more than the 2% the test
// allows and more than randomQueue, the quantile of what random arrivals queue at
// sources whose network keeps up with them (TestOpenShortRunsNotSaturated).
// wormlab sim --topology torus:8x8 --rate 0.1 --max-cycles 30 (16-flit packets,
// zero-load latency above 30 cycles) said "saturated: nothing delivered". At 1
// flit/node/cycle for 20 cycles the queues hold no more than random arrivals do:
// too short to tell, not saturated.
func TestOpenNothingDeliveredYet(t *testing.T) {
	for _, c := range []struct {
		rate   float64
		cycles int64
		seed   uint64
	}{{0.1, 30, 1}, {0.1, 10, 2}, {0.3, 30, 1}, {0.02, 20, 3}, {1, 20, 1}} {
		r, err := uniformRun(t, "torus:8x8", c.rate, c.seed, sim.Measure{MinCycles: c.cycles, MaxCycles: c.cycles})
		require.NoError(t, err)
		require.Zero(t, r.PacketsDelivered, "the run is shorter than any latency")
		require.Positive(t, r.PacketsGenerated)
		require.False(t, r.Saturated, "rate %g, %d cycles, seed %d: %s", c.rate, c.cycles, c.seed, r.Reason)
		require.False(t, r.Precise)
		require.Nil(t, r.Latency)
	}
}

// The lemma behind randomQueue (sim/open.go): below saturation every source's
// network keeps up with its arrivals, so the flits queued behind the sources'
// next packets at the end of a run of t cycles are those random arrivals queue at
// a stable source, no more than randomQueue's quantile of the slowest stable
// source's random walk except with a small probability; with the accepted-load
// test's allowance for the flits in flight and the next packets (behind), no run
// below saturation is declared saturated, however short. Checked where the reader
// of 95baf03 found it false: torus:8x8 at 0.1-0.3 flits/node/cycle (saturation
// near 0.45 with these defaults), runs of 10-60 cycles, seeds 1-20 (at 0.3, 30
// cycles, 8 of 20 were "saturated: nothing delivered"); and at 0.35-0.4, which
// are stable too, over runs of 100-2,000 cycles that deliver some packets. The
// converse, that saturation is still found once the queues outgrow random
// arrivals: at 1 flit/node/cycle a 2,000-cycle run is saturated on every seed.
func TestOpenShortRunsNotSaturated(t *testing.T) {
	bad := 0
	for _, rate := range []float64{0.1, 0.2, 0.3} {
		for cycles := int64(10); cycles <= 60; cycles += 10 {
			for seed := uint64(1); seed <= 20; seed++ {
				r, err := uniformRun(t, "torus:8x8", rate, seed, sim.Measure{MinCycles: cycles, MaxCycles: cycles})
				require.NoError(t, err)
				if r.Saturated {
					bad++
					t.Errorf("rate %g, %d cycles, seed %d: saturated: %s", rate, cycles, seed, r.Reason)
				}
				if r.Reason != "" { // too short to tell: no latency
					require.Nil(t, r.Latency, "rate %g, %d cycles, seed %d: %s", rate, cycles, seed, r.Reason)
				}
			}
		}
	}
	for _, rate := range []float64{0.35, 0.4} {
		for _, cycles := range []int64{100, 300, 1000, 2000} {
			for seed := uint64(1); seed <= 10; seed++ {
				r, err := uniformRun(t, "torus:8x8", rate, seed, sim.Measure{MinCycles: cycles, MaxCycles: cycles})
				require.NoError(t, err)
				if r.Saturated {
					bad++
					t.Errorf("rate %g, %d cycles, seed %d: saturated: %s", rate, cycles, seed, r.Reason)
				}
			}
		}
	}
	require.Zero(t, bad, "false saturation verdicts below saturation")
	for seed := uint64(1); seed <= 5; seed++ {
		r, err := uniformRun(t, "torus:8x8", 1, seed, sim.Measure{MinCycles: 2000, MaxCycles: 2000})
		require.NoError(t, err)
		require.True(t, r.Saturated, "rate 1, 2000 cycles, seed %d", seed)
		require.Contains(t, r.Reason, "behind generated")
	}
}
