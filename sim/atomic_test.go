package sim_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Duato's theorem (IEEE TPDS 6(10), 1995) proves an adaptive routing deadlock-free
// for routers whose VC queues never hold flits of two packets; `wormlab deadlock`
// proves Duato's condition for "duato" on this torus. With VCs reallocated as soon
// as a tail leaves (BookSim2's rule) the simulator finds a deadlock deep in
// saturation; with atomic allocation the same run has none.
func TestAtomicVCDuato(t *testing.T) {
	net, err := topology.Parse("torus:8x8")
	require.NoError(t, err)
	alg, err := routing.Lookup("duato")
	require.NoError(t, err)
	r, err := alg.New(net, 4)
	require.NoError(t, err)
	proc, err := sim.LookupProcess("poisson")
	require.NoError(t, err)
	w := sim.Workload{Pattern: sim.Uniform{T: 64}, Process: proc, MsgRate: 0.21, Sizes: sim.Fixed(4)}
	m := sim.Measure{MinCycles: 6000, MaxCycles: 6000}
	cfg := sim.Config{Net: net, Routing: r, VCs: 4, Buf: 8, Pipeline: sim.Ideal(), Seed: 1}
	_, err = sim.RunOpen(testCtx(t), cfg, w, m)
	var de *sim.DeadlockError
	require.True(t, errors.As(err, &de), "want the reallocation deadlock, got %v", err)
	for seed := uint64(1); seed <= 4; seed++ {
		cfg.Seed, cfg.AtomicVC = seed, true
		_, err := sim.RunOpen(testCtx(t), cfg, w, m)
		require.NoError(t, err, "seed %d", seed)
	}
}
