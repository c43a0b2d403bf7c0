package sim_test

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// A buffer above MaxBuf is refused (ConfigError buf) before anything is
// allocated, whatever the memory budget: a ring's slot numbers are 32-bit, and
// a buffer of 2^63-1 flits overflowed the memory estimate (its ring's length,
// rounded up to whole cache lines) to a negative size that passed the budget, so
// that newEngine panicked (makeslice: len out of range) in `wormlab sim --buf
// 9223372036854775807` and in the deadlock command's replay. MaxBuf itself is
// refused only by a budget (of 4 GiB here).
func TestBufAboveMaxRefused(t *testing.T) {
	net := mustNet(t, "torus:4x4")
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	for _, buf := range []int{sim.MaxBuf + 1, math.MaxInt32, math.MaxInt64 / 16, math.MaxInt64} {
		cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "dor", 2), VCs: 2, Buf: buf, Pipeline: sim.BookSim(net), Seed: 1, MaxMemory: math.MaxInt64}
		var ce *sim.ConfigError
		require.True(t, errors.As(cfg.Validate(), &ce), "buf %d", buf)
		require.Equal(t, "buf", ce.Field)
		_, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 100, MaxCycles: 100})
		require.True(t, errors.As(err, &ce), "buf %d: %v", buf, err)
		_, err = sim.RunBatch(context.Background(), cfg, []sim.Packet{{Src: 0, Dst: 5, Flits: 2}}, sim.BatchOptions{})
		require.True(t, errors.As(err, &ce), "buf %d: %v", buf, err)
	}
	cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "dor", 2), VCs: 2, Buf: sim.MaxBuf, Pipeline: sim.BookSim(net), Seed: 1, MaxMemory: 1 << 32}
	require.NoError(t, cfg.Validate())
	_, err = sim.RunBatch(context.Background(), cfg, []sim.Packet{{Src: 0, Dst: 5, Flits: 2}}, sim.BatchOptions{})
	var me *sim.MemoryError
	require.True(t, errors.As(err, &me), "%v", err)
}
