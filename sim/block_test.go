package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// mustRouting is the registered routing name on net with vcs VCs.
func mustRouting(t testing.TB, net topology.Network, name string, vcs int) sim.Routing {
	alg, err := routing.Lookup(name)
	require.NoError(t, err)
	rt, err := alg.New(net, vcs)
	require.NoError(t, err)
	return rt
}

// A run in blocks of cycles, word by word (block.go), is the run cycle by cycle:
// the same Result field for field (latencies in delivery order, per-node
// statistics, channel counts), the same error; on the torus (blocks of two
// cycles: credits take two), the dragonfly (ten: its local channels), with random
// arbitration and selection, sizes and arrivals drawn (Poisson: several packets a
// cycle), a stop rule looked at every 999 cycles, a source queue bound passed
// (arrivals generated ahead then rechecked cycle by cycle), and a deadlock.
// blockCase holds a block test case's optional settings: a pipeline, arbiter, selector,
// traffic pattern (uniform when empty), arrival process, and measure.
type blockCase struct {
	pipe                       *sim.Pipeline
	arb, sel, pattern, process string
	m                          sim.Measure
}

// apply sets the case's options on cfg and w and returns its measure (def when m.MaxCycles
// is 0) with per-node results on.
func (c blockCase) apply(t *testing.T, cfg *sim.Config, w *sim.Workload, def sim.Measure) sim.Measure {
	t.Helper()
	var err error
	if c.pipe != nil {
		cfg.Pipeline = *c.pipe
	}
	if c.arb != "" {
		cfg.Arbiter, err = sim.LookupArbitration(c.arb)
		require.NoError(t, err)
	}
	if c.sel != "" {
		cfg.Select, err = sim.LookupSelector(c.sel)
		require.NoError(t, err)
	}
	pattern := c.pattern
	if pattern == "" {
		pattern = "uniform"
	}
	w.Pattern, err = sim.NewPattern(pattern, sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	if c.process != "" {
		w.Process, err = sim.LookupProcess(c.process)
		require.NoError(t, err)
	}
	m := c.m
	if m.MaxCycles == 0 {
		m = def
	}
	m.Nodes = true
	return m
}

func TestBlocksSameRun(t *testing.T) {
	for _, c := range []struct {
		name, topo, routing string
		vcs, buf            int
		rate                float64
		arb, sel, process   string
		pipe                *sim.Pipeline
		m                   sim.Measure
		// recheck: the run passes its queue bound (arrivals rechecked);
		// deadlock: it ends in one
		recheck, deadlock bool
		// large: blocks without ForceBlocks (blockFrom)
		large bool
	}{
		{name: "torus dor-booksim", topo: "torus:8x8", routing: "dor-booksim", vcs: 4, buf: 8, rate: 0.3},
		{name: "torus duato random poisson", topo: "torus:8x8", routing: "duato", vcs: 4, buf: 4, rate: 0.35,
			arb: "random", sel: "random", process: "poisson"},
		{name: "mesh minadapt link 3", topo: "mesh:6x6", routing: "minadapt", vcs: 3, buf: 4, rate: 0.3,
			sel: "credits", pipe: &sim.Pipeline{Route: 1, VCAlloc: 1, SwAlloc: 1, Traverse: 1, Link: 3, Credit: 3, Inject: 1, Eject: 0}},
		{name: "dragonfly df-min", topo: "dragonfly:p=2", routing: "df-min", vcs: 2, buf: 32, rate: 0.3},
		{name: "dragonfly df-valiant random", topo: "dragonfly:p=2", routing: "df-valiant", vcs: 3, buf: 16, rate: 0.2,
			arb: "random", sel: "random"},
		{name: "torus stop rule", topo: "torus:8x8", routing: "dor-booksim", vcs: 4, buf: 8, rate: 0.2,
			m: sim.Measure{MinCycles: 3000, MaxCycles: 40000, Period: 999}},
		{name: "torus queue bound", topo: "torus:8x8", routing: "dor-booksim", vcs: 2, buf: 4, rate: 0.9,
			m: sim.Measure{MinCycles: 20000, MaxCycles: 20000, Period: 2000, MaxQueue: 30}, recheck: true},
		// large enough to take blocks by itself (blockFrom)
		{name: "torus 48x48", topo: "torus:48x48", routing: "dor-booksim", vcs: 4, buf: 8, rate: 0.1,
			m: sim.Measure{MinCycles: 300, MaxCycles: 300, Period: 100}, large: true},
		{name: "torus deadlock", topo: "torus:4x4", routing: "dor", vcs: 1, buf: 2, rate: 0.9,
			pipe: &sim.Pipeline{Link: 2, Credit: 2}, m: sim.Measure{MaxCycles: 50000, MaxQueue: 1 << 20}, deadlock: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			net := mustNet(t, c.topo)
			rt := mustRouting(t, net, c.routing, c.vcs)
			cfg := sim.Config{Net: net, Routing: rt, VCs: c.vcs, Buf: c.buf, Pipeline: sim.BookSim(net), Seed: 5, DeadlockCycles: 300, Threads: 1}
			w := sim.Workload{Rate: c.rate, Sizes: sim.Sizes{Flits: []int{2, 9}, Weight: []float64{1, 2}}}
			m := blockCase{pipe: c.pipe, arb: c.arb, sel: c.sel, process: c.process, m: c.m}.apply(t, &cfg, &w,
				sim.Measure{MinCycles: 4000, MaxCycles: 4000, Period: 1000})
			got, gotErr, s := runBothIn(t, testCtx(t), cfg, w, m, !c.large)
			require.Positive(t, s.Blocks(), "no block ran")
			if c.deadlock {
				var dl *sim.DeadlockError
				require.ErrorAs(t, gotErr, &dl)
				return
			}
			require.NoError(t, gotErr)
			require.Greater(t, got.PacketsDelivered, int64(300))
			if c.recheck {
				require.True(t, got.Saturated)
				require.Contains(t, got.Reason, "passed 30 packets")
				require.Positive(t, s.Rechecked(), "no arrivals rechecked")
			}
		})
	}
}
