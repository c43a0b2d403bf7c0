package routing

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// docs/dragonfly.md reports on two cycles of the deadlock checker in open-loop
// runs of the simulator, each run to its end however long its source queues grow
// (Measure.MaxQueue out of reach: with the default bound a saturated run stops
// early, and earlier runs that stopped so were read as not reaching the cycle):
//
//   - PAR (df-par) on 3 VCs (the checker's cycle of six channels on VC 2) on
//     dragonfly:a=2,p=1,h=1: offered 0.9 and 1.0, worst-case and uniform traffic,
//     8- and 32-flit packets, buffers of 2 and 8 flits, both pipelines, seeds 1-4,
//     50,000 cycles: 3 of the 128 runs deadlock, on a wait cycle through VC 2
//     (sim.TestSimulatorReachesPARDeadlock reaches it with a closed batch), one
//     of them (worst-case, seed 2) a deadlock of part of the network, which
//     the simulator reports since it looks for those (sim/deadlock.go);
//   - BookSim2's UGAL (DFUGALBookSim, its VC 0 cycle) on 3 VCs on
//     dragonfly:a=2,p=2,h=1: offered 1.0, worst-case and uniform traffic, 4-flit
//     packets, buffers of 16 and 64 flits, BookSim2's pipeline, seeds 1-8, 20,000
//     cycles: none deadlocks (runs, not a proof).

// openRun is one open-loop run to its end, however long the source queues grow (no
// stop at saturation): whether it deadlocked, and the wait cycle's VCs. The run is
// bounded by the test's context (testctx), as the package's other simulations.
func openRun(t *testing.T, net topology.Network, r sim.Routing, vcs, buf int, p sim.Pipeline, traffic string, rate float64, flits int, seed uint64, cycles int64) (bool, []int) {
	t.Helper()
	pat, err := sim.NewPattern(traffic, sim.PatternParams{Net: net})
	require.NoError(t, err)
	cfg := sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: p, Seed: seed}
	res, err := sim.RunOpen(testctx.For(t), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(flits)},
		sim.Measure{MinCycles: cycles, MaxCycles: cycles, MaxQueue: 1 << 40})
	var dl *sim.DeadlockError
	if errors.As(err, &dl) {
		var vs []int
		for _, w := range dl.Cycle {
			vs = append(vs, w.VC)
		}
		return true, vs
	}
	require.NoError(t, err)
	require.Equal(t, cycles, res.Cycles, "the run's length")
	return false, nil
}

func TestPARThreeVCsOpenLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("128 runs of up to 50,000 cycles")
	}
	net, err := topology.Parse("dragonfly:a=2,p=1,h=1")
	require.NoError(t, err)
	alg, err := Lookup("df-par")
	require.NoError(t, err)
	n, dead := 0, []string(nil)
	for pi, p := range []sim.Pipeline{sim.Ideal(), sim.BookSim(net)} {
		for _, traffic := range []string{"worstcase", "uniform"} {
			for _, rate := range []float64{0.9, 1.0} {
				for _, flits := range []int{8, 32} {
					for _, buf := range []int{2, 8} {
						for seed := uint64(1); seed <= 4; seed++ {
							r, err := alg.New(net, 3)
							require.NoError(t, err)
							n++
							d, vcs := openRun(t, net, r, 3, buf, p, traffic, rate, flits, seed, 50000)
							if d {
								dead = append(dead, fmt.Sprintf("%s pipeline, %s at %.1f, %d-flit packets, %d-flit buffers, seed %d", []string{"ideal", "booksim"}[pi], traffic, rate, flits, buf, seed))
								require.Contains(t, vcs, 2, "a wait cycle without VC 2, the checker's")
							}
						}
					}
				}
			}
		}
	}
	require.Equal(t, []string{
		"ideal pipeline, worstcase at 1.0, 32-flit packets, 8-flit buffers, seed 2",
		"ideal pipeline, uniform at 0.9, 8-flit packets, 2-flit buffers, seed 1",
		"booksim pipeline, uniform at 0.9, 8-flit packets, 2-flit buffers, seed 1",
	}, dead, "the runs of %d that docs/dragonfly.md says deadlock", n)
}

func TestBookSimUGALOpenLoopNotReached(t *testing.T) {
	if testing.Short() {
		t.Skip("32 runs of 20,000 cycles")
	}
	net, err := topology.Parse("dragonfly:a=2,p=2,h=1")
	require.NoError(t, err)
	for _, traffic := range []string{"worstcase", "uniform"} {
		for _, buf := range []int{16, 64} {
			for seed := uint64(1); seed <= 8; seed++ {
				r, err := NewDFUGALBookSim(net, 3)
				require.NoError(t, err)
				d, _ := openRun(t, net, r, 3, buf, sim.BookSim(net), traffic, 1.0, 4, seed, 20000)
				require.False(t, d, "%s, buffers of %d, seed %d: the doc says no deadlock was reached", traffic, buf, seed)
			}
		}
	}
}
