package sim_test

import (
	"context"

	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// testCtx bounds a test's simulations (package testctx): a broken simulator that
// would run forever fails after two minutes of CPU time, or when the package's
// tests have used six (an hour with WORMLAB_LONG=1), instead of hanging the suite.
func testCtx(t interface{ Cleanup(func()) }) context.Context { return testctx.For(t) }

// allocated is the bytes the runtime allocates while f runs.
func allocated(f func()) int64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return int64(b.TotalAlloc - a.TotalAlloc)
}

// EngineBytes is an estimate to plan with: across tori, meshes and fat-trees, VC
// counts and buffers, the bytes a batch of one packet allocates (newEngine's
// tables, the packet, the run) lie between 0.7 and 1.5 times BatchBytes' estimate.
func TestMemoryEstimate(t *testing.T) {
	for _, c := range []struct {
		spec     string
		vcs, buf int
	}{{"torus:16x16", 2, 4}, {"torus:32x32", 4, 8}, {"mesh:8x8x8", 8, 32}, {"torus:64x64", 1, 1}, {"fattree:1024", 4, 16}} {
		net := mustNet(t, c.spec)
		var rt sim.Routing
		name := "dor"
		if strings.HasPrefix(c.spec, "fattree") {
			name = "updown"
		}
		alg, err := routing.Lookup(name)
		require.NoError(t, err)
		rt, err = alg.New(net, c.vcs)
		require.NoError(t, err)
		cfg := sim.Config{Net: net, Routing: rt, VCs: c.vcs, Buf: c.buf, Pipeline: sim.BookSim(net), Seed: 1}
		est := sim.BatchBytes(&cfg, 1, 0)
		got := allocated(func() {
			_, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 1, Flits: 1}}, sim.BatchOptions{})
			require.NoError(t, err)
		})
		ratio := float64(got) / float64(est)
		t.Logf("%s vcs %d buf %d: estimate %s, allocated %s (%.2f)", c.spec, c.vcs, c.buf, sim.Bytes(est), sim.Bytes(got), ratio)
		require.True(t, ratio > 0.7 && ratio < 1.5, "%s: allocated %d, estimated %d", c.spec, got, est)
	}
}

// A run above Config.MaxMemory is refused with a *MemoryError naming the size and
// the budget, before it allocates: a buffer of a billion flits per VC (5 TB)
// costs nothing.
func TestMemoryRefused(t *testing.T) {
	cfg := dorConfig(t, "torus:8x8", 2, 1_000_000_000, sim.BookSim(mustNet(t, "torus:8x8")))
	cfg.MaxMemory = 1 << 30
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	var runErr error
	got := allocated(func() {
		_, runErr = sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Fixed(4)}, sim.Measure{})
	})
	var me *sim.MemoryError
	require.ErrorAs(t, runErr, &me)
	require.Equal(t, int64(1<<30), me.Budget)
	require.Greater(t, me.Need, int64(2)<<40) // 64 routers x 5 inputs x 2 VCs x 10^9 flits x 4 B
	require.Contains(t, runErr.Error(), "1.0 GiB")
	require.Less(t, got, int64(1<<20), "the refusal allocated")
	_, err = sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 1, Flits: 1}}, sim.BatchOptions{})
	require.ErrorAs(t, err, &me)
	// the open loop's own growth is counted: a budget of cycles that could
	// record more deliveries than the budget holds is refused too
	cfg.Buf = 8
	_, err = sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.5, Sizes: sim.Fixed(1)}, sim.Measure{MaxCycles: 1 << 40})
	require.ErrorAs(t, err, &me)
}

// The context is looked at by work, not by cycles (issue 26: a 128x128 torus
// asked to stop after 5 s ran 205 s, one look every 1,024 long cycles): once a
// thousand routers or sources are busy, every cycle is followed by a look, so a
// run cancelled during cycle c does not start cycle c+2. On a small idle network
// the looks are at most 1,024 cycles apart.
func TestContextByWork(t *testing.T) {
	for _, c := range []struct {
		spec  string
		rate  float64
		after int64 // cycles the run may start after the cancellation's
	}{{"torus:32x32", 0.9, 1}, {"torus:4x4", 0.01, 1024}} {
		cfg := dorConfig(t, c.spec, 2, 4, sim.BookSim(mustNet(t, c.spec)))
		ctx, cancel := context.WithCancel(context.Background())
		const at = 400
		last := int64(-1)
		cfg.Trace = func(e sim.Event) {
			if e.Kind == sim.Tick {
				last = e.Cycle
				if e.Cycle == at {
					cancel()
				}
			}
		}
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
		require.NoError(t, err)
		res, err := sim.RunOpen(ctx, cfg, sim.Workload{Pattern: pat, Rate: c.rate, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 1 << 20, MaxCycles: 1 << 20})
		require.ErrorIs(t, err, context.Canceled)
		require.NotNil(t, res)
		require.LessOrEqual(t, last, at+c.after, c.spec)
		require.Greater(t, last, int64(at-1), c.spec)
	}
}

// A source queue is bounded (Measure.MaxQueue): far beyond saturation the run
// stops in the cycle a queue passes the bound, saturated, saying so; with a memory
// budget the packets of all queues are bounded by it; a stable point at 60% of its
// saturation throughput never comes near the default bound.
func TestSourceQueueBound(t *testing.T) {
	// every node sends to node 0, whose sink takes one flit a cycle: 16 nodes
	// offering 0.5 flits each overload it eightfold
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.BookSim(mustNet(t, "torus:4x4")))
	hot, err := sim.NewPattern("hotspot", sim.PatternParams{Net: cfg.Net, HotFraction: 1})
	require.NoError(t, err)
	res, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: hot, Rate: 0.5, Sizes: sim.Fixed(1)}, sim.Measure{MaxQueue: 100, MinCycles: 1 << 30, MaxCycles: 1 << 30})
	require.NoError(t, err)
	require.True(t, res.Saturated)
	require.Contains(t, res.Reason, "source queue")
	require.Contains(t, res.Reason, "passed 100 packets")
	require.Less(t, res.Cycles, int64(1000), "the bound stops the run at once")
	require.Less(t, res.PacketsLeft, int64(16*102+16*4), "at most the bound per source plus the network's buffers")

	// with a memory budget the whole packet table is bounded as well: a budget
	// 64 KiB above the run's estimate stops the overloaded point when its packets
	// would pass it, whatever the bound per queue
	w := sim.Workload{Pattern: hot, Rate: 0.5, Sizes: sim.Fixed(1)}
	m := sim.Measure{MinCycles: 1 << 30, MaxCycles: 1 << 30}
	cfg.MaxMemory = sim.OpenBytes(&cfg, w, m) + 64<<10
	res, err = sim.RunOpen(testCtx(t), cfg, w, m)
	require.NoError(t, err)
	require.True(t, res.Saturated)
	require.Contains(t, res.Reason, "memory budget")
	require.Less(t, res.PacketsLeft, int64(16*2+(64<<10)/100), "the allowance plus what the budget leaves")
	cfg.MaxMemory = 0

	uni, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	res, err = sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: uni, Rate: 0.3, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 50000, MaxCycles: 50000})
	require.NoError(t, err)
	require.False(t, res.Saturated, res.Reason)
	require.Equal(t, int64(50000), res.Cycles)
}

// The saturation verdict against points of known fate (issue 26: the test's
// threshold changed from 2% to 20% passed every test). All 16 nodes of a 4x4
// torus send every packet to node 0, whose sink takes one flit per cycle; the
// network carries it, so the point's accepted load is min(1, offered total).
// Offered 0.85 of the sink: stable for every seed; offered 1.06: accepted falls
// 5.7% behind generated, which rule (a), 2%, declares saturated early (three
// looks in a row), with the accepted-load reason.
func TestSaturationVerdict(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 2, 8, sim.BookSim(mustNet(t, "torus:4x4")))
	hot, err := sim.NewPattern("hotspot", sim.PatternParams{Net: cfg.Net, HotFraction: 1})
	require.NoError(t, err)
	for seed := uint64(1); seed <= 4; seed++ {
		cfg.Seed = seed
		stable, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: hot, Rate: 0.85 / 16, Sizes: sim.Fixed(4)}, sim.Measure{MaxCycles: 100000})
		require.NoError(t, err)
		require.False(t, stable.Saturated, "seed %d: %s", seed, stable.Reason)
		over, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: hot, Rate: 1.06 / 16, Sizes: sim.Fixed(4)}, sim.Measure{MaxCycles: 100000})
		require.NoError(t, err)
		require.True(t, over.Saturated, "seed %d", seed)
		require.True(t, strings.HasPrefix(over.Reason, "accepted"), "seed %d: %s", seed, over.Reason)
		require.Less(t, over.Cycles, int64(100000), "seed %d: rule (a) stops the run early", seed)
		require.InDelta(t, 1/16.0, over.Accepted, 0.004, "seed %d: the sink's capacity", seed)
	}
}

// A batch that cannot end fails fast instead of running forever: past
// BatchOptions.MaxCycles it returns a *StallError.
func TestBatchCycleBudget(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
	_, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 10, Flits: 5000}}, sim.BatchOptions{MaxCycles: 1000})
	var se *sim.StallError
	require.ErrorAs(t, err, &se)
	require.Equal(t, 1, se.Left)
	require.Equal(t, int64(1000), se.At)
	res, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 10, Flits: 5000}}, sim.BatchOptions{MaxCycles: 6000})
	require.NoError(t, err)
	require.Equal(t, int64(sim.Ideal().ZeroLoad(4, 5000)), res.Latency[0])
}

// Packet sizes are checked as numbers: weights must be finite (issue 26: "1:Inf"
// reached the rate as NaN) and sizes fit the simulator's 31-bit flit positions.
func TestSizesChecked(t *testing.T) {
	for _, s := range []string{"1:Inf,16:1", "1:NaN", "4:1e400", "1:-1", "0", "2147483648", "1:1e308,2:1e308", ""} {
		_, err := sim.ParseSizes(s)
		require.Error(t, err, s)
	}
	z, err := sim.ParseSizes("1:0.8,16:0.2")
	require.NoError(t, err)
	require.InDelta(t, 4.0, z.Mean(), 1e-12)
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
	_, err = sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 1, Flits: 1 << 31}}, sim.BatchOptions{})
	var ce *sim.ConfigError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "packets[0].flits", ce.Field)
}

// Local traffic's radius must be within the diameter (a larger one was silently
// uniform traffic), and its table is built by searches from each node: a
// 256x256 torus builds in the time of its 4 x 65,536 entries.
func TestLocalRadius(t *testing.T) {
	net := mustNet(t, "torus:6x6")
	_, err := sim.NewPattern("local", sim.PatternParams{Net: net, Radius: 7})
	require.ErrorContains(t, err, "radius 7 outside 1..6")
	_, err = sim.NewPattern("local", sim.PatternParams{Net: net, Radius: -1})
	require.Error(t, err)
	big, err := topology.Parse("torus:256x256")
	require.NoError(t, err)
	p, err := sim.NewPattern("local", sim.PatternParams{Net: big, Radius: 1})
	require.NoError(t, err)
	require.Len(t, p.(sim.Local).Ball[0], 4)
	for r := 1; r <= 6; r++ {
		p, err := sim.NewPattern("local", sim.PatternParams{Net: net, Radius: r})
		require.NoError(t, err)
		g := net.(*topology.Grid)
		for s, ball := range p.(sim.Local).Ball {
			var want []int32
			for d := range g.Nodes() {
				if h := g.Distance(s, d); h >= 1 && h <= r {
					want = append(want, int32(d))
				}
			}
			require.Equal(t, want, ball, fmt.Sprintf("radius %d source %d", r, s))
		}
	}
}

// Measure.MaxCycles is a budget never passed, whatever the period between looks
// (it was rounded up to the next look: a budget of 1 cycle ran 2,000, one of
// 3,000 ran 4,000): the run's last cycle is the budget's, and a stable point run
// to its budget says so in Result.Cycles.
func TestCycleBudgetHonoured(t *testing.T) {
	for _, budget := range []int64{1, 999, 2500, 3000, 4000} {
		cfg := dorConfig(t, "torus:4x4", 2, 4, sim.BookSim(mustNet(t, "torus:4x4")))
		ticks := int64(0)
		cfg.Trace = func(e sim.Event) {
			if e.Kind == sim.Tick {
				ticks++
			}
		}
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
		require.NoError(t, err)
		res, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: budget, MaxCycles: budget})
		require.NoError(t, err)
		require.Equal(t, budget, res.Cycles, "budget %d", budget)
		require.Equal(t, budget, ticks, "budget %d: cycles simulated", budget)
	}
}

// A batch whose context ends before its packets are released returns the context's
// error, with no head arrivals for the packets never made (issue 26's mutation run
// found it: with RecordHops, as the theory model asks, it indexed them and
// panicked; sim --batch --theory --timeout 1ns printed a stack trace).
func TestBatchStoppedBeforeRelease(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := sim.RunBatch(ctx, cfg, []sim.Packet{{Src: 0, Dst: 5, Flits: 2, Release: 3}, {Src: 1, Dst: 6, Flits: 2}}, sim.BatchOptions{RecordHops: true})
	require.ErrorIs(t, err, context.Canceled)
	require.Len(t, res.HeadArrivals, 2)
	require.Nil(t, res.HeadArrivals[0])
}
