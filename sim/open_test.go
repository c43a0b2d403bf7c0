package sim_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
)

func uniformRun(t *testing.T, spec string, rate float64, seed uint64, m sim.Measure) (*sim.Result, error) {
	cfg := dorConfig(t, spec, 4, 8, sim.BookSim(mustNet(t, spec)))
	cfg.Seed = seed
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	return sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(16)}, m)
}

// Determinism: the same seed gives the same result bit for bit; another seed
// another one.
func TestOpenDeterministic(t *testing.T) {
	m := sim.Measure{MinCycles: 3000, MaxCycles: 3000}
	a, err := uniformRun(t, "torus:4x4", 0.3, 7, m)
	require.NoError(t, err)
	b, err := uniformRun(t, "torus:4x4", 0.3, 7, m)
	require.NoError(t, err)
	require.Equal(t, a, b)
	c, err := uniformRun(t, "torus:4x4", 0.3, 8, m)
	require.NoError(t, err)
	require.NotEqual(t, a.PacketsGenerated, c.PacketsGenerated)
}

// Below saturation the point is steady: accepted equals offered within noise, the
// stop rule is met, the latency is at least the zero-load latency of the mean
// distance and its interval is reported; far beyond saturation the point is
// declared saturated with a reason and prints no latency.
func TestOpenSteadyAndSaturated(t *testing.T) {
	low, err := uniformRun(t, "torus:8x8", 0.1, 1, sim.Measure{})
	require.NoError(t, err)
	require.False(t, low.Saturated, low.Reason)
	require.True(t, low.Precise)
	require.InDelta(t, 0.1, low.Accepted, 0.01)
	require.NotNil(t, low.Latency)
	require.NotNil(t, low.LatencyCI)
	// uniform on the 8x8 torus, source included: mean distance 4
	require.Greater(t, *low.Latency, float64(sim.BookSim(mustNet(t, "torus:8x8")).ZeroLoad(4, 16)))
	require.LessOrEqual(t, *low.LatencyCI, 0.02**low.Latency)
	sat, err := uniformRun(t, "torus:8x8", 0.8, 1, sim.Measure{MaxCycles: 30000})
	require.NoError(t, err)
	require.True(t, sat.Saturated)
	require.NotEmpty(t, sat.Reason)
	require.Nil(t, sat.Latency)
	require.Less(t, sat.Accepted, 0.6)
}

// Per-hop-class latencies increase with the hop count at low load, by about the
// per-hop delay (Route+VCAlloc+SwAlloc+Traverse+Link = 6 cycles with BookSim's
// pipeline on a torus).
func TestOpenHopClasses(t *testing.T) {
	r, err := uniformRun(t, "torus:8x8", 0.05, 2, sim.Measure{})
	require.NoError(t, err)
	require.Len(t, r.HopClasses, 9)
	for i := 1; i < len(r.HopClasses); i++ {
		d := r.HopClasses[i].Latency - r.HopClasses[i-1].Latency
		require.InDelta(t, 6, d, 1.5, "hops %d", i)
	}
}

// The context ends a run: the result so far comes back with the context's error.
func TestOpenCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(testCtx(t))
	cancel()
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
	pat, _ := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	res, err := sim.RunOpen(ctx, cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Fixed(4)}, sim.Measure{})
	require.True(t, errors.Is(err, context.Canceled))
	require.NotNil(t, res)
}

// Injection limitation (one packet per node in the network) lowers the accepted
// load past saturation: each node waits for its packet's delivery before the next.
func TestOpenInjectLimit(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.BookSim(mustNet(t, "torus:4x4")))
	pat, _ := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	m := sim.Measure{MinCycles: 4000, MaxCycles: 4000}
	free, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.9, Sizes: sim.Fixed(4)}, m)
	require.NoError(t, err)
	lim, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.9, Sizes: sim.Fixed(4), InjectLimit: 1}, m)
	require.NoError(t, err)
	require.Less(t, lim.Accepted, free.Accepted)
	require.True(t, lim.Saturated && free.Saturated)
}

// Bad workloads are ConfigErrors naming the field.
func TestOpenBadInput(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
	pat, _ := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	for _, w := range []sim.Workload{
		{Pattern: pat, Rate: 1.5, Sizes: sim.Fixed(1)},
		{Pattern: pat, Rate: -1, Sizes: sim.Fixed(1)},
		{Pattern: pat, Sizes: sim.Fixed(1)},
		{Pattern: pat, Rate: 0.1},
		{Rate: 0.1, Sizes: sim.Fixed(1)},
	} {
		_, err := sim.RunOpen(testCtx(t), cfg, w, sim.Measure{})
		var ce *sim.ConfigError
		require.True(t, errors.As(err, &ce), "%+v: %v", w, err)
	}
	cfg.Buf = 0
	_, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Fixed(1)}, sim.Measure{})
	var ce *sim.ConfigError
	require.True(t, errors.As(err, &ce))
	require.Equal(t, "buf", ce.Field)
}

// One VC of DOR on a torus deadlocks under load (the dateline is what prevents
// it), and the simulator reports the wait cycle instead of hanging.
func TestOpenDeadlockOneVC(t *testing.T) {
	net := mustNet(t, "torus:4x4")
	rt, err := routing.NewDOR(net, 1)
	require.NoError(t, err)
	cfg := sim.Config{Net: net, Routing: rt, VCs: 1, Buf: 2, Pipeline: sim.Ideal(), Seed: 1, DeadlockCycles: 200}
	pat, _ := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	_, err = sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.9, Sizes: sim.Fixed(8)}, sim.Measure{MaxCycles: 50000})
	var dl *sim.DeadlockError
	require.True(t, errors.As(err, &dl), "%v", err)
	require.NotEmpty(t, dl.Cycle)
	require.Equal(t, int64(200), dl.Idle)
}

// The accepted-load test allows for the flits actually in flight at the end (in
// the network, or left of a packet whose injection has begun), not only for
// Little's estimate of them, whose latency is that of the packets delivered
// early: on a dragonfly with 100-cycle global channels a 2,000-cycle run has
// delivered the short (one-group) routes first, so the estimate fell short and a
// point at 0.01 of a saturation near 0.08 was declared saturated (adversarial
// tester, session 10: dragonfly:a=4,p=1,h=2, df-min, 8-flit buffers, 16-flit
// packets, seeds 1 and 3, "accepted 0.008 behind generated 0.009778"). Lemma:
// below saturation the source queues do not grow, so the flits generated in the
// window and not delivered are those in flight at the end, less those in flight
// at its start, plus a queue of a steady state's size. Past saturation (0.3, the
// network full) the queues do grow, and the test still fires.
func TestOpenShortRunsInFlightExact(t *testing.T) {
	net := mustNet(t, "dragonfly:a=4,p=1,h=2")
	a, err := routing.Lookup("df-min")
	require.NoError(t, err)
	rt, err := a.New(net, 4)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	m := sim.Measure{MinCycles: 2000, MaxCycles: 2000}
	for _, c := range []struct {
		rate float64
		seed uint64
	}{{0.01, 1}, {0.01, 3}, {0.02, 1}, {0.04, 2}} {
		cfg := sim.Config{Net: net, Routing: rt, VCs: 4, Buf: 8, Pipeline: sim.BookSim(net), Seed: c.seed}
		r, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: c.rate, Sizes: sim.Fixed(16)}, m)
		require.NoError(t, err)
		require.False(t, r.Saturated, "rate %g seed %d: %s", c.rate, c.seed, r.Reason)
	}
	cfg := sim.Config{Net: net, Routing: rt, VCs: 4, Buf: 8, Pipeline: sim.BookSim(net), Seed: 1}
	r, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.3, Sizes: sim.Fixed(16)}, m)
	require.NoError(t, err)
	require.True(t, r.Saturated)
	require.True(t, strings.HasPrefix(r.Reason, "accepted"), r.Reason)
}

// A short run that starts from an empty network ends with a steady state's packets
// still in flight: the accepted-load test allows for them (issue 24: a 6,000-cycle
// run on a 32x32 torus at 0.05 fell 2.2% behind and was declared saturated, as was
// every 2,000-cycle run at 0.01), and still declares saturated short runs past
// saturation.
func TestOpenShortRunsInFlight(t *testing.T) {
	for _, c := range []struct {
		spec   string
		rate   float64
		cycles int64
		seeds  []uint64
	}{
		{"torus:32x32", 0.05, 6000, []uint64{1}},
		{"torus:16x16", 0.01, 2000, []uint64{1, 2, 3}},
		{"torus:8x8", 0.01, 2000, []uint64{1, 2, 3}},
	} {
		for _, s := range c.seeds {
			r, err := uniformRun(t, c.spec, c.rate, s, sim.Measure{MinCycles: c.cycles, MaxCycles: c.cycles})
			require.NoError(t, err)
			require.False(t, r.Saturated, "%s at %g, %d cycles, seed %d: %s", c.spec, c.rate, c.cycles, s, r.Reason)
			if c.rate >= 0.05 {
				require.Greater(t, r.PacketsLeft, int64(100), "packets in flight at the end")
			}
		}
	}
	for _, c := range []struct {
		spec   string
		rate   float64
		cycles int64
	}{
		{"torus:8x8", 0.6, 6000},
		{"torus:8x8", 0.6, 2000},
		{"torus:16x16", 0.5, 2000},
	} {
		r, err := uniformRun(t, c.spec, c.rate, 1, sim.Measure{MinCycles: c.cycles, MaxCycles: c.cycles})
		require.NoError(t, err)
		require.True(t, r.Saturated, "%s at %g, %d cycles", c.spec, c.rate, c.cycles)
	}
}
