package sim_test

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// A run is the same, result for result, whatever its threads (part.go): the
// partitions only exchange events at least a cycle ahead, join in router order, and
// every router draws from its own streams. Checked on 1 to 4 threads (256 routers:
// 4 partitions of 64) with deterministic and random selection and arbitration,
// adaptive routings, an injection limit (receiving its own section), sinks without
// delay (deliveries inside the switch phase), size mixes, and terminals apart
// from routers with links of 10 and 100 cycles (a concentrated mesh, the
// 1,056-terminal dragonfly: 264 routers, 5 words), and routings that read the
// network's state (UGAL-G, PAR: Sensing). On 2 to 4 threads both cycle by cycle
// and in blocks (block.go: a block's partitions run its cycles at once, a
// barrier per block), where the case takes blocks. The runs on several threads
// warm each word's state ahead of its cycle (engine.warm, on large networks
// only otherwise), which reads the events other partitions put for the word:
// the race run (.ci/run) sees those reads.
func TestThreadsSameRun(t *testing.T) {
	for _, c := range []struct {
		name, topo, routing string
		vcs                 int
		rate                float64
		arb, sel            string
		limit               int
		ideal               bool
		// blocks: runs with blocks allowed must take them (block.go)
		blocks bool
	}{
		{"torus dor-booksim", "torus:16x16", "dor-booksim", 4, 0.3, "round-robin", "first", 0, false, true},
		{"torus duato random", "torus:16x16", "duato", 4, 0.3, "random", "random", 0, false, true},
		{"mesh minadapt credits", "mesh:16x16", "minadapt", 3, 0.25, "fixed", "credits", 0, false, false},
		{"torus pn limit", "torus:16x16", "pn", 6, 0.3, "round-robin", "credits", 4, false, false},
		{"mesh westfirst ideal", "mesh:16x16", "westfirst", 2, 0.3, "random", "first", 0, true, false},
		// terminals apart from routers (4 a router) and links of 10 and 100 cycles
		{"cmesh dor", "cmesh:16x16,c=4", "dor", 2, 0.1, "round-robin", "first", 0, false, false},
		{"dragonfly df-valiant", "dragonfly:p=4", "df-valiant", 3, 0.2, "random", "random", 0, false, true},
		// routings that read the network's state: UGAL-G other routers' queues,
		// PAR its own (a cycle phase by phase: part.go), with an injection limit
		{"dragonfly df-ugal-g", "dragonfly:p=4", "df-ugal-g", 3, 0.2, "round-robin", "first", 0, false, false},
		{"dragonfly df-par limit", "dragonfly:p=4", "df-par", 4, 0.3, "random", "credits", 4, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, pat := threadsConfig(t, c.topo, c.routing, c.vcs, c.arb, c.sel)
			base.Seed = 3
			if c.ideal {
				base.Pipeline = sim.Pipeline{Link: 1, Credit: 1}
			}
			var first *sim.Result
			for _, run := range []struct {
				threads int
				blocks  bool
			}{{1, false}, {2, false}, {3, false}, {4, false}, {2, true}, {3, true}, {4, true}} {
				cfg := base
				cfg.Threads = run.threads
				if run.threads > 1 {
					sim.ForceWarm(&cfg) // warm reads other partitions' wheels (warmHeads)
				}
				var s sim.BlockStats
				sim.CountBlocks(&cfg, &s)
				if run.blocks {
					sim.ForceBlocks(&cfg)
				} else {
					sim.WithoutBlocks(&cfg)
				}
				res := threadsRun(t, cfg, pat, c.rate, c.limit)
				if run.blocks && c.blocks {
					require.Positive(t, s.Blocks(), "%d threads: no block", run.threads)
				}
				if first == nil {
					first = res
					require.Greater(t, res.PacketsDelivered, int64(1000))
					continue
				}
				require.Equal(t, first, res, "%d threads, blocks %v", run.threads, run.blocks)
			}
		})
	}
}

// threadsCycles is the length of a run of the threads tests: 1,000 cycles
// (TestThreadsSameRun's 63 runs took 11 CPU-s at 2,000, the most of the sim
// tests but the BookSim2 agreement), 2,000 with WORMLAB_LONG=1. Past its first
// few hundred cycles a run repeats the kinds of exchange between partitions
// and blocks it has had, with other packets.
func threadsCycles() int64 {
	if os.Getenv("WORMLAB_LONG") == "1" {
		return 2000
	}
	return 1000
}

// threadsRun is a run of the threads tests on cfg: pat's traffic of 2- and
// 8-flit packets at rate, with an injection limit of limit (0: none), for
// threadsCycles cycles; it must end without error.
func threadsRun(t *testing.T, cfg sim.Config, pat sim.Pattern, rate float64, limit int) *sim.Result {
	t.Helper()
	res, err := sim.RunOpen(context.Background(), cfg,
		sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Sizes{Flits: []int{2, 8}, Weight: []float64{1, 1}}, InjectLimit: limit},
		sim.Measure{MinCycles: threadsCycles(), MaxCycles: threadsCycles(), Period: 500, Nodes: true})
	require.NoError(t, err)
	return res
}

// threadsConfig is the configuration of a case of the threads tests (BookSim's
// pipeline, buffers of 4, atomic VCs with duato) and uniform traffic on it.
func threadsConfig(t *testing.T, topo, routing string, vcs int, arbName, selName string) (sim.Config, sim.Pattern) {
	net := mustNet(t, topo)
	arb, err := sim.LookupArbitration(arbName)
	require.NoError(t, err)
	sel, err := sim.LookupSelector(selName)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	return sim.Config{Net: net, Routing: mustRouting(t, net, routing, vcs), VCs: vcs, Buf: 4, Pipeline: sim.BookSim(net),
		Arbiter: arb, Select: sel, AtomicVC: routing == "duato"}, pat
}

// A block's words run on whichever thread claims them (claims, block.go): a run
// is the same, result for result, when each thread runs the other partitions'
// words before its own (StealFirst; two threads then claim partitions' words
// too, not the ring, which TestThreadsSameRun's runs on two threads take), so
// that most words run on another thread than their partition's, in an order
// that changes from block to block and run to run. Words of a block depend on no other word's cycles in it (block.go's
// lemma), each word's events are taken from every partition's wheels, and a
// cycle's deliveries reach the run word by word.
func TestThreadsStealSameRun(t *testing.T) {
	for _, c := range []struct {
		name, topo, routing string
		vcs                 int
		arb, sel            string
	}{
		{"torus dor-booksim", "torus:16x16", "dor-booksim", 4, "round-robin", "first"},
		{"torus duato random", "torus:16x16", "duato", 4, "random", "random"},
		{"dragonfly df-valiant", "dragonfly:p=4", "df-valiant", 3, "random", "random"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base, pat := threadsConfig(t, c.topo, c.routing, c.vcs, c.arb, c.sel)
			base.Seed = 5
			var first *sim.Result
			for _, threads := range []int{1, 2, 3, 4} {
				cfg := base
				cfg.Threads = threads
				var s sim.BlockStats
				sim.CountBlocks(&cfg, &s)
				sim.ForceBlocks(&cfg)
				sim.StealFirst(&cfg)
				res := threadsRun(t, cfg, pat, 0.3, 0)
				require.Positive(t, s.Blocks(), "%d threads: no block", threads)
				if first == nil {
					first = res
					require.Greater(t, res.PacketsDelivered, int64(1000))
					continue
				}
				require.Positive(t, s.Stolen(), "%d threads: no word stolen", threads)
				require.Equal(t, first, res, "%d threads", threads)
			}
		})
	}
}

// Two threads share a block's words as a ring (claims, block.go): a thread
// that is not running leaves its half to the other. With GOMAXPROCS 1 the
// caller's thread runs its part of a block before the worker's can start, so
// it claims the whole ring: words run past an even split (Stolen; the test
// fails if a thread keeps to its half), and the run is still the same as on
// one thread (block.go's lemma: whatever the thread a word's cycles run on).
func TestThreadsRingSameRun(t *testing.T) {
	base, pat := threadsConfig(t, "torus:16x16", "dor-booksim", 4, "round-robin", "first")
	base.Seed = 5
	run := func(threads int, s *sim.BlockStats) *sim.Result {
		cfg := base
		cfg.Threads = threads
		sim.CountBlocks(&cfg, s)
		sim.ForceBlocks(&cfg)
		res := threadsRun(t, cfg, pat, 0.3, 0)
		require.Positive(t, s.Blocks(), "%d threads: no block", threads)
		return res
	}
	var one, two sim.BlockStats
	want := run(1, &one)
	old := runtime.GOMAXPROCS(1)
	got := run(2, &two)
	runtime.GOMAXPROCS(old)
	require.Positive(t, two.Stolen(), "two threads: no word run past the even split")
	require.Equal(t, want, got)
}

// A large network takes two threads and blocks of cycles by default
// (ParallelRouters, blockFrom): its result, written as JSON, is the same byte
// for byte on one, two and three threads and with the default choice.
func TestThreadsSameBytesLarge(t *testing.T) {
	net := mustNet(t, "torus:48x48")
	rt := mustRouting(t, net, "dor-booksim", 4)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	var first []byte
	for _, threads := range []int{1, 2, 3, 0} {
		cfg := sim.Config{Net: net, Routing: rt, VCs: 4, Buf: 8, Pipeline: sim.BookSim(net), Seed: 9, Threads: threads}
		var s sim.BlockStats
		sim.CountBlocks(&cfg, &s)
		res, err := sim.RunOpen(context.Background(), cfg,
			sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Sizes{Flits: []int{4, 16}, Weight: []float64{1, 1}}},
			sim.Measure{MinCycles: 400, MaxCycles: 400, Period: 200, Nodes: true})
		require.NoError(t, err)
		require.Positive(t, s.Blocks(), "%d threads: no block", threads)
		b, err := json.Marshal(res)
		require.NoError(t, err)
		if first == nil {
			first = b
			require.Greater(t, res.PacketsDelivered, int64(1000))
			continue
		}
		require.Equal(t, string(first), string(b), "%d threads", threads)
	}
}
