package sim_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
	"pgregory.net/rapid"
)

// runBoth runs cfg, w, m cycle by cycle and in blocks forced (block.go) and
// requires the same Result field for field and the same error; it returns the
// blocked run's and the count of its blocks.
func runBoth(t *testing.T, cfg sim.Config, w sim.Workload, m sim.Measure) (*sim.Result, error, *sim.BlockStats) {
	t.Helper()
	return runBothIn(t, testCtx(t), cfg, w, m, true)
}

// runBothIn is runBoth under ctx, failing t (a rapid.T too), with blocks
// forced whatever the network's size (blockFrom) or not.
func runBothIn(t interface {
	require.TestingT
	Helper()
}, ctx context.Context, cfg sim.Config, w sim.Workload, m sim.Measure, force bool) (*sim.Result, error, *sim.BlockStats) {
	t.Helper()
	run := func(blocks bool) (*sim.Result, error, *sim.BlockStats) {
		cfg := cfg
		var s sim.BlockStats
		sim.CountBlocks(&cfg, &s)
		if force {
			sim.ForceBlocks(&cfg)
		}
		if !blocks {
			sim.WithoutBlocks(&cfg)
		}
		res, err := sim.RunOpen(ctx, cfg, w, m)
		return res, err, &s
	}
	want, wantErr, s0 := run(false)
	got, gotErr, s := run(true)
	require.Zero(t, s0.Blocks())
	require.Equal(t, wantErr, gotErr)
	require.Equal(t, want, got)
	return got, gotErr, s
}

// columnPattern sends every packet to another node of its column of a k x k
// grid (node row*k + col): under DOR each column is a ring of its own, and on
// a torus of 16 columns a ring crosses the four words of routers.
type columnPattern struct{ k int }

func (p columnPattern) Dest(src int, r *rand.Rand) int {
	row, col := src/p.k, src%p.k
	return (row+1+r.IntN(p.k-1))%p.k*p.k + col
}

// A deadlock on a network of several words of routers is declared in the same
// cycle, with the same idle time, blocked or not. A move sets its partition's
// last move to its cycle, and a block runs word after word its cycles: the
// block's last move is the latest of any word's, not the last word's. Before
// block.go kept the latest, seed 13 was declared at cycle 2235 blocked and
// 2240 cycle by cycle (a worm's last flits moving in a lower word a few cycles
// after the last move of a higher one).
func TestBlocksDeadlockManyWords(t *testing.T) {
	net := mustNet(t, "torus:16x16")
	w := sim.Workload{Rate: 0.3, Sizes: sim.Sizes{Flits: []int{4, 12}, Weight: []float64{1, 1}}, Pattern: columnPattern{16}}
	m := sim.Measure{MaxCycles: 50000, MaxQueue: 1 << 20}
	for seed := uint64(10); seed <= 16; seed++ {
		// on several threads too: each partition's last move its own
		for _, threads := range []int{1, 2, 3} {
			cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "dor", 1), VCs: 1, Buf: 2,
				Pipeline: sim.Pipeline{Link: 12, Credit: 12}, Seed: seed, DeadlockCycles: 40, Threads: threads}
			_, err, s := runBoth(t, cfg, w, m)
			var dl *sim.DeadlockError
			require.ErrorAs(t, err, &dl, "seed %d, %d threads", seed, threads)
			require.Positive(t, s.Blocks())
		}
	}
}

// failing is a routing that has no choice for a head at a router of a word
// after the first having crossed hops links: a routing error in the middle of
// a run, in a word that runs a block's cycles after the first word.
type failing struct {
	sim.Routing
	hops int32
}

func (f failing) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if at >= 64 && h.Hops >= f.hops {
		return out
	}
	return f.Routing.Route(at, h, out)
}

// A routing error ends a blocked run as it ends a run cycle by cycle: the same
// error, and the same Result so far (cycles, deliveries, channel counts), though
// the words before the one that met it have run the block's later cycles.
func TestBlocksRoutingError(t *testing.T) {
	net := mustNet(t, "torus:16x16")
	w := sim.Workload{Rate: 0.3, Sizes: sim.Sizes{Flits: []int{4}, Weight: []float64{1}}}
	var err error
	w.Pattern, err = sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	m := sim.Measure{MaxCycles: 20000, Nodes: true}
	for _, hops := range []int32{6, 9, 12} {
		// on several threads too: the partitions' first errors compared
		for _, threads := range []int{1, 2, 3} {
			cfg := sim.Config{Net: net, Routing: failing{mustRouting(t, net, "dor-booksim", 2), hops}, VCs: 2, Buf: 4,
				Pipeline: sim.BookSim(net), Seed: 3, DeadlockCycles: 300, Threads: threads}
			_, err, s := runBoth(t, cfg, w, m)
			var re *sim.RoutingError
			require.ErrorAs(t, err, &re, "hops %d, %d threads", hops, threads)
			require.Positive(t, s.Blocks())
		}
	}
}

// A blocked run is the run cycle by cycle wherever blocks are taken, on what
// TestBlocksSameRun leaves out: AtomicVC (VC allocation reads credits, and no
// head is passed by on its epoch), adaptive routings with selections reading
// credits or keeping a pointer per input VC (credits, bonus, rotate), the
// class limit (a source reads its router's input VCs), on-off and Poisson
// arrivals, the hotspot and transpose patterns, a budget of cycles that is not
// a multiple of the period, the packet table's memory bound passed (arrivals
// generated ahead rechecked), a fat-tree and a dragonfly with slow links, a
// concentrated mesh (two terminals a router) whose sinks take every flit,
// ejection in the cycle of the switch (Eject 0) and injection behind the
// first hop (Inject past SwAlloc + Traverse + Link). And no block is taken
// where one would be wrong: a Sensing routing (df-ugal-g reads other routers'
// queues), credits back in one cycle (span 1: BookSim2's mesh). On two and
// three threads too (a block's partitions at once, block.go).
func TestBlocksSameRunMore(t *testing.T) {
	slow := &sim.Pipeline{Route: 1, VCAlloc: 1, SwAlloc: 1, Traverse: 1, Link: 4, Credit: 4, Inject: 1, Eject: 1}
	for _, c := range []struct {
		name, topo, routing string
		vcs, buf            int
		rate                float64
		sel, process        string
		pattern             string
		pipe                *sim.Pipeline
		m                   sim.Measure
		atomic, ejectAll    bool
		classLimit, threads int
		// memory: a budget the packet table passes
		memory bool
		// none: no block may be taken
		none bool
	}{
		{name: "atomic duato credits", topo: "torus:9x9", routing: "duato", vcs: 4, buf: 4, rate: 0.4, sel: "credits", atomic: true},
		{name: "atomic minadapt rotate", topo: "mesh:9x9", routing: "minadapt", vcs: 3, buf: 4, rate: 0.35, sel: "rotate", atomic: true, pipe: slow},
		{name: "duato bonus", topo: "torus:9x9", routing: "duato", vcs: 4, buf: 4, rate: 0.4, sel: "bonus"},
		{name: "minadapt credits rotate onoff", topo: "mesh:9x9", routing: "minadapt", vcs: 3, buf: 4, rate: 0.3, sel: "rotate", process: "onoff", pipe: slow},
		{name: "class limit", topo: "torus:9x9", routing: "duato", vcs: 4, buf: 4, rate: 0.5, classLimit: 1, sel: "credits"},
		{name: "hotspot poisson", topo: "torus:9x9", routing: "dor-booksim", vcs: 2, buf: 8, rate: 0.3, pattern: "hotspot", process: "poisson"},
		{name: "transpose budget not a period", topo: "torus:8x8", routing: "dor-booksim", vcs: 2, buf: 8, rate: 0.3, pattern: "transpose",
			m: sim.Measure{MinCycles: 4321, MaxCycles: 4321, Period: 1000}},
		{name: "memory bound", topo: "torus:9x9", routing: "dor-booksim", vcs: 2, buf: 4, rate: 0.9, memory: true,
			m: sim.Measure{MinCycles: 20000, MaxCycles: 20000, Period: 1000, MaxQueue: 1 << 20}},
		{name: "fat-tree slow links", topo: "fattree:64", routing: "updown", vcs: 2, buf: 4, rate: 0.4, pipe: slow},
		{name: "dragonfly df-valiant credits", topo: "dragonfly:p=3", routing: "df-valiant", vcs: 3, buf: 16, rate: 0.3, sel: "credits"},
		{name: "eject 0 inject late", topo: "torus:9x9", routing: "dor-booksim", vcs: 2, buf: 4, rate: 0.4,
			pipe: &sim.Pipeline{Route: 0, VCAlloc: 1, SwAlloc: 1, Traverse: 0, Link: 3, Credit: 2, Inject: 5, Eject: 0}},
		{name: "cmesh eject all", topo: "cmesh:9x9,c=2", routing: "dor", vcs: 2, buf: 4, rate: 0.3, ejectAll: true, pipe: slow},
		{name: "sensing df-ugal-g", topo: "dragonfly:p=2", routing: "df-ugal-g", vcs: 3, buf: 16, rate: 0.3, none: true},
		{name: "sensing df-ugal-l", topo: "dragonfly:p=2", routing: "df-ugal-l", vcs: 3, buf: 16, rate: 0.3, none: true},
		{name: "credits in one cycle", topo: "mesh:9x9", routing: "dor", vcs: 2, buf: 4, rate: 0.3, none: true},
		{name: "two threads", topo: "torus:9x9", routing: "dor-booksim", vcs: 2, buf: 4, rate: 0.3, threads: 2},
		{name: "three threads duato", topo: "torus:16x16", routing: "duato", vcs: 4, buf: 4, rate: 0.4, sel: "credits", atomic: true, threads: 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			net := mustNet(t, c.topo)
			var err error
			cfg := sim.Config{Net: net, Routing: mustRouting(t, net, c.routing, c.vcs), VCs: c.vcs, Buf: c.buf, Pipeline: sim.BookSim(net),
				Seed: 7, DeadlockCycles: 1000, Threads: max(1, c.threads), AtomicVC: c.atomic, EjectAll: c.ejectAll}
			w := sim.Workload{Rate: c.rate, Sizes: sim.Sizes{Flits: []int{1, 6}, Weight: []float64{1, 1}}, ClassLimit: c.classLimit}
			m := blockCase{pipe: c.pipe, sel: c.sel, pattern: c.pattern, process: c.process, m: c.m}.apply(t, &cfg, &w,
				sim.Measure{MinCycles: 3000, MaxCycles: 3000, Period: 1000})
			if c.memory {
				cfg.MaxMemory = sim.OpenBytes(&cfg, w, m) + 1<<20
			}
			got, err, s := runBoth(t, cfg, w, m)
			require.NoError(t, err)
			if c.none {
				require.Zero(t, s.Blocks())
				return
			}
			require.Positive(t, s.Blocks(), "no block ran")
			require.Greater(t, got.PacketsDelivered, int64(300))
			if c.memory {
				require.Contains(t, got.Reason, "memory budget")
				require.Positive(t, s.Rechecked(), "no arrivals rechecked")
			}
		})
	}
}

// VC allocation passes by a waiting head from when it found no free output VC
// among its choices until one of them is released (engine.passBy, cleared by
// that release): only a release frees an output VC and a head's choices are fixed
// once it is routed, so trying every waiting head every cycle is the same run,
// field for field. Checked with deterministic and adaptive routings (Duato,
// minimal adaptive, Valiant, UGAL and PAR on the dragonfly, whose choices read
// the network's state when the head is routed), with every selection, with
// AtomicVC (where no head is passed by: a credit may free a VC), with Latch and
// with blocks of cycles.
func TestPassBySameRun(t *testing.T) {
	slow := &sim.Pipeline{Route: 1, VCAlloc: 1, SwAlloc: 1, Traverse: 1, Link: 4, Credit: 4, Inject: 1, Eject: 1}
	for _, c := range []struct {
		name, topo, routing, sel string
		vcs, buf                 int
		rate                     float64
		atomic, latch, blocks    bool
		pipe                     *sim.Pipeline
	}{
		{name: "dor-booksim", topo: "torus:8x8", routing: "dor-booksim", vcs: 4, buf: 4, rate: 0.5},
		{name: "duato credits", topo: "torus:8x8", routing: "duato", sel: "credits", vcs: 4, buf: 4, rate: 0.5},
		{name: "duato random atomic", topo: "torus:8x8", routing: "duato", sel: "random", vcs: 4, buf: 4, rate: 0.45, atomic: true},
		{name: "minadapt rotate", topo: "mesh:8x8", routing: "minadapt", sel: "rotate", vcs: 3, buf: 4, rate: 0.45},
		{name: "minadapt bonus blocks", topo: "mesh:9x9", routing: "minadapt", sel: "bonus", vcs: 3, buf: 4, rate: 0.45, blocks: true, pipe: slow},
		{name: "valiant latch", topo: "torus:8x8", routing: "valiant", vcs: 4, buf: 4, rate: 0.3, latch: true},
		{name: "df-ugal-g credits", topo: "dragonfly:p=2", routing: "df-ugal-g", sel: "credits", vcs: 3, buf: 8, rate: 0.45},
		{name: "df-ugal-l", topo: "dragonfly:p=2", routing: "df-ugal-l", vcs: 3, buf: 8, rate: 0.45},
		{name: "df-par random", topo: "dragonfly:p=2", routing: "df-par", sel: "random", vcs: 4, buf: 8, rate: 0.45},
	} {
		t.Run(c.name, func(t *testing.T) {
			net := mustNet(t, c.topo)
			var err error
			cfg := sim.Config{Net: net, Routing: mustRouting(t, net, c.routing, c.vcs), VCs: c.vcs, Buf: c.buf, Pipeline: sim.BookSim(net),
				Seed: 11, DeadlockCycles: 1000, Threads: 1, AtomicVC: c.atomic, Latch: c.latch}
			if c.pipe != nil {
				cfg.Pipeline = *c.pipe
			}
			if c.sel != "" {
				cfg.Select, err = sim.LookupSelector(c.sel)
				require.NoError(t, err)
			}
			if c.blocks {
				sim.ForceBlocks(&cfg)
			}
			w := sim.Workload{Rate: c.rate, Sizes: sim.Sizes{Flits: []int{1, 8}, Weight: []float64{1, 1}}}
			w.Pattern, err = sim.NewPattern("uniform", sim.PatternParams{Net: net})
			require.NoError(t, err)
			m := sim.Measure{MinCycles: 3000, MaxCycles: 3000, Period: 1000, Nodes: true}
			all := cfg
			sim.WithoutPass(&all)
			want, err := sim.RunOpen(testCtx(t), all, w, m)
			require.NoError(t, err)
			got, err := sim.RunOpen(testCtx(t), cfg, w, m)
			require.NoError(t, err)
			require.Equal(t, want, got)
			require.Greater(t, got.PacketsDelivered, int64(1000))
		})
	}
}

// Lemma (temporal blocking, block.go): when every event from one router to
// another (a flit over a link, a credit upstream) lands at least d cycles after
// the cycle that schedules it, a word of routers reads in cycles t .. t+d-1
// nothing another word writes in them, so running the words' cycles one word
// after the other, from either end, is the run cycle by cycle: the same Result
// field for field and the same error (a deadlock, a source queue or memory
// bound passed). Drawn: the network (several words of routers) and its
// routing, the pipeline (links and credits of 1 to 8 cycles: blocks of 1 to
// 8), arbitration, selection, switch input stage, arrival process, pattern,
// sizes, load, the deadlock detector's patience, the queue bound, the
// injection and class limits, and Sensing routings (df-ugal-g, df-par: no
// block is taken under them or an injection limit). A traced run, whose sweep
// goes router after router where an untraced one goes phase after phase over
// a word's routers (a router's phases touch its own state alone), is the same
// run too, and so are a run on two threads (cycle by cycle and in blocks) and
// one whose switch allocation takes its general path instead of the flat one.
func TestPropertyBlocksSameRun(t *testing.T) {
	nets := []struct {
		topo, routing string
		vcs           int
	}{
		{"torus:9x9", "dor-booksim", 2}, {"torus:10x10", "duato", 4}, {"torus:9x9", "dor", 1}, {"torus:9x9", "valiant", 4},
		{"mesh:10x10", "minadapt", 3}, {"mesh:9x9", "dor", 2}, {"fattree:256", "updown", 2},
		{"dragonfly:p=3", "df-min", 2}, {"dragonfly:p=3", "df-valiant", 3}, {"cmesh:9x9,c=2", "dor", 2},
		{"dragonfly:p=3", "df-ugal-g", 3}, {"dragonfly:p=3", "df-par", 4},
	}
	built := make([]topology.Network, len(nets))
	routings := make([]sim.Routing, len(nets))
	for k, n := range nets {
		built[k] = mustNet(t, n.topo)
		routings[k] = mustRouting(t, built[k], n.routing, n.vcs)
	}
	var blocks, twoBlocks int64
	// no deadline: a run is bounded by its 800 cycles, and one cut by the
	// test's deadline would stop at another cycle blocked than not
	ctx := context.Background()
	rapid.Check(t, func(rt *rapid.T) {
		k := rapid.IntRange(0, len(nets)-1).Draw(rt, "net")
		n, net, rtg := nets[k], built[k], routings[k]
		pipe := sim.Pipeline{Route: rapid.IntRange(0, 1).Draw(rt, "route"), VCAlloc: rapid.IntRange(0, 1).Draw(rt, "vcalloc"),
			SwAlloc: 1, Traverse: rapid.IntRange(0, 1).Draw(rt, "traverse"), Link: rapid.IntRange(1, 8).Draw(rt, "link"),
			Credit: rapid.IntRange(1, 8).Draw(rt, "credit"), Inject: rapid.IntRange(0, 3).Draw(rt, "inject"), Eject: rapid.IntRange(0, 1).Draw(rt, "eject")}
		cfg := sim.Config{Net: net, Routing: rtg, VCs: n.vcs, Buf: rapid.IntRange(1, 8).Draw(rt, "buf"),
			Pipeline: pipe, Seed: rapid.Uint64().Draw(rt, "seed"), DeadlockCycles: rapid.IntRange(40, 300).Draw(rt, "deadlock"), Threads: 1,
			AtomicVC: rapid.Bool().Draw(rt, "atomic")}
		var err error
		cfg.Arbiter, err = sim.LookupArbitration(rapid.SampledFrom(sim.ArbitrationNames()).Draw(rt, "arbitration"))
		require.NoError(rt, err)
		cfg.Select, err = sim.LookupSelector(rapid.SampledFrom(sim.SelectorNames()).Draw(rt, "select"))
		require.NoError(rt, err)
		input := rapid.SampledFrom(append([]string{""}, sim.SwitchInputNames()...)).Draw(rt, "input")
		if input != "" {
			cfg.SwitchInput, err = sim.LookupSwitchInput(input)
			require.NoError(rt, err)
		}
		w := sim.Workload{Rate: rapid.Float64Range(0.02, 0.7).Draw(rt, "rate"),
			InjectLimit: rapid.SampledFrom([]int{0, 0, 2}).Draw(rt, "injectlimit"), ClassLimit: rapid.SampledFrom([]int{0, 0, 1}).Draw(rt, "classlimit"),
			Sizes: sim.Sizes{Flits: []int{rapid.IntRange(1, 4).Draw(rt, "short"), rapid.IntRange(1, 16).Draw(rt, "long")}, Weight: []float64{1, 1}}}
		w.Pattern, err = sim.NewPattern(rapid.SampledFrom([]string{"uniform", "hotspot"}).Draw(rt, "pattern"), sim.PatternParams{Net: net})
		require.NoError(rt, err)
		w.Process, err = sim.LookupProcess(rapid.SampledFrom(sim.ProcessNames()).Draw(rt, "process"))
		require.NoError(rt, err)
		m := sim.Measure{MinCycles: 800, MaxCycles: 800, Period: rapid.Int64Range(100, 800).Draw(rt, "period"),
			MaxQueue: rapid.Int64Range(4, 1000).Draw(rt, "maxqueue"), Nodes: true}
		// (a rate past the process's bound is refused alike both ways)
		got, gotErr, s := runBothIn(rt, ctx, cfg, w, m, true)
		blocks += s.Blocks()
		// traced: router after router (sweep), one thread, no blocks
		events := 0
		cfg.Trace = func(sim.Event) { events++ }
		traced, tracedErr := sim.RunOpen(ctx, cfg, w, m)
		require.Equal(rt, gotErr, tracedErr)
		require.Equal(rt, got, traced)
		if got != nil && got.PacketsDelivered > 0 {
			require.Positive(rt, events)
		}
		// two threads: two partitions, cycle by cycle and in blocks (each
		// partition runs a block's cycles over its words at once with the
		// other; without WithoutBlocks a run on two threads takes blocks too)
		cfg.Trace, cfg.Threads = nil, 2
		two, twoErr, s2 := runBothIn(rt, ctx, cfg, w, m, true)
		twoBlocks += s2.Blocks()
		require.Equal(rt, gotErr, twoErr)
		require.Equal(rt, got, two)
		// switch allocation's general path (allocRouter) in place of the flat
		// one (allocFlat: choices by conditional moves, 3ad9506); the general
		// path has wormlab's input stage alone
		if input != "" && input != "vc" {
			return
		}
		cfg.Threads = 1
		sim.SlowSwitch(&cfg)
		slow, slowErr := sim.RunOpen(ctx, cfg, w, m)
		require.Equal(rt, gotErr, slowErr)
		require.Equal(rt, got, slow)
	})
	require.Positive(t, blocks, "no block ran in any case")
	require.Positive(t, twoBlocks, "no block ran on two threads in any case")
}
