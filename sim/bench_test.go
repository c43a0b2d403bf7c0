package sim_test

// Speed and memory of the simulator on issue 11's configuration (DOR with BookSim2's
// classes, 4 VCs of 8 flits, 16-flit packets, uniform Bernoulli traffic, the
// booksim pipeline). cycles/s is simulated cycles per second of the benchmark's
// (CPU-bound, single-goroutine) run; docs/booksim.md compares it with BookSim2's
// on the same configuration.
//
//	go test -run '^$' -bench . -benchtime 5x ./sim

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// benchCycles is the length of one benchmark iteration: a run from an empty
// network, long enough that the transient is a small part of it.
const benchCycles = 20000

func benchRun(b *testing.B, spec string, rate float64, cycles int64) {
	benchThreads(b, spec, rate, cycles, 1)
}

// benchThreads is benchRun on threads threads; besides cycles/s it reports the
// nanoseconds of the run per flit-hop (a flit crossing a channel: a link or into
// its sink, so (hops+1) per flit delivered).
func benchThreads(b *testing.B, spec string, rate float64, cycles int64, threads int) {
	net, err := topology.Parse(spec)
	require.NoError(b, err)
	r, err := routing.NewDORBookSim(net, 4)
	require.NoError(b, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(b, err)
	var total, hops int64
	seed := uint64(0)
	var blocks sim.BlockStats
	blocks.TimeBlocks(threadNanos)
	cpu0 := cpuNanos()
	for b.Loop() {
		seed++
		cfg := sim.Config{Net: net, Routing: r, VCs: 4, Buf: 8, Pipeline: sim.BookSim(net), Seed: seed, Threads: threads}
		sim.CountBlocks(&cfg, &blocks)
		res, err := sim.RunOpen(context.Background(), cfg,
			sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(16)},
			sim.Measure{MinCycles: cycles, MaxCycles: cycles, Period: min(cycles, 2000)})
		if err != nil {
			b.Fatal(err)
		}
		total += res.Cycles
		hops += res.FlitHops
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "cycles/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(hops), "ns/flit-hop")
	// the work itself, for instruction counts (callgrind) per flit-hop
	b.ReportMetric(float64(hops)/float64(b.N), "flit-hops/op")
	// CPU time of every thread: on two threads, what the partitions and their
	// barriers cost beyond one thread's work (a loaded machine inflates it less
	// than the elapsed time).
	cpu := cpuNanos() - cpu0
	b.ReportMetric(float64(cpu)/float64(hops), "cpu-ns/flit-hop")
	// the CPU time of the run's critical path: what is not in a partition's
	// part of a block, plus the longest part of each block (blockStats), each
	// timed on its thread: about the elapsed time on idle cores. Since a
	// block's threads share its words (claims), a thread kept from running
	// leaves its words to the other, whose part then grows: under load crit-ns
	// grows towards cpu-ns.
	b.ReportMetric(float64(cpu-blocks.Work()+blocks.Crit())/float64(hops), "crit-ns/flit-hop")
	// the CPU time of the threads in blocks (work-ns) and out of them (serial,
	// setup and the waiters' spins: cpu-ns less work-ns): on one thread
	// cpu-ns over serial-ns plus two threads' work-ns over two is the speed-up
	// two idle cores would give with blocks shared evenly (claims), less the
	// barriers' wake-ups, whatever the load (but for what it does to caches).
	b.ReportMetric(float64(blocks.Work())/float64(hops), "work-ns/flit-hop")
	// the barrier's spins (barrier.go) a block, and the share of them that
	// saw their partner arrive before sleeping
	if spins, won := blocks.Spins(); threads > 1 && blocks.Blocks() > 0 {
		b.ReportMetric(float64(spins)/float64(blocks.Blocks()), "spins/block")
		b.ReportMetric(float64(won)/float64(max(spins, 1)), "spin-won")
		// the words a block's threads ran past an even split (claims): a
		// thread slowed or kept from running leaves words to the other
		b.ReportMetric(float64(blocks.Stolen())/float64(blocks.Blocks()), "stolen/block")
	}
}

// threadNanos is the calling thread's CPU time (0 where it is not known: a
// run's crit-ns/flit-hop is then its CPU time).
func threadNanos() int64 {
	d, _ := cputime.Thread()
	return int64(d)
}

func BenchmarkTorus8x8Rate01(b *testing.B)   { benchRun(b, "torus:8x8", 0.1, benchCycles) }
func BenchmarkTorus8x8Rate04(b *testing.B)   { benchRun(b, "torus:8x8", 0.4, benchCycles) }
func BenchmarkTorus16x16Rate01(b *testing.B) { benchRun(b, "torus:16x16", 0.1, benchCycles) }
func BenchmarkTorus16x16Rate04(b *testing.B) { benchRun(b, "torus:16x16", 0.4, benchCycles) }

// BenchmarkSizeRule runs issue 24's size rule: tori from 8x8 to 128x128 at the
// same per-node load below saturation (0.02 flits a node a cycle; a k x k torus
// under uniform traffic and dimension order loads its channels with k/8 times
// that, 0.32 on 128x128), each run of 200,000 x 64 / k^2 cycles and at least
// 3,000 (a 128x128 torus's packets take some 400 cycles to cross it), the
// run's set-up included as in scripts/booksim-compare.sh speed-large. The rule:
// cpu-ns/flit-hop of each size at most twice the 8x8 torus's. Its 128x128 run
// takes about ten seconds of CPU time an iteration, so -short leaves the 64x64
// and 128x128 runs out.
//
//	GOMAXPROCS=1 go test -run '^$' -bench SizeRule -benchtime 3x ./sim
func BenchmarkSizeRule(b *testing.B) {
	for _, k := range []int{8, 16, 32, 64, 128} {
		spec := fmt.Sprintf("torus:%dx%d", k, k)
		b.Run(spec, func(b *testing.B) {
			if k >= 64 && testing.Short() {
				b.Skip("-short: the 64x64 and 128x128 runs take seconds")
			}
			benchRun(b, spec, 0.02, max(3000, int64(200000*64/(k*k))))
		})
	}
}

// BenchmarkMemoryPerRouter reports the bytes allocated by a run of one cycle
// period on an idle-to-light network (the engine's buffers, VC and port tables,
// arbiters, event wheel and the run's records) per router, on the 8x8 and 16x16
// tori: the per-router memory of the simulator's state.
func BenchmarkMemoryPerRouter(b *testing.B) {
	for _, spec := range []string{"torus:8x8", "torus:16x16"} {
		b.Run(spec, func(b *testing.B) {
			net, err := topology.Parse(spec)
			require.NoError(b, err)
			r, err := routing.NewDORBookSim(net, 4)
			require.NoError(b, err)
			pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
			require.NoError(b, err)
			var ms0, ms1 runtime.MemStats
			runtime.ReadMemStats(&ms0)
			runs := 0
			for b.Loop() {
				cfg := sim.Config{Net: net, Routing: r, VCs: 4, Buf: 8, Pipeline: sim.BookSim(net), Seed: 1}
				_, err := sim.RunOpen(context.Background(), cfg,
					sim.Workload{Pattern: pat, Rate: 0.01, Sizes: sim.Fixed(16)},
					sim.Measure{MinCycles: 100, MaxCycles: 100, Period: 100})
				if err != nil {
					b.Fatal(err)
				}
				runs++
			}
			runtime.ReadMemStats(&ms1)
			b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(runs)/float64(net.Nodes()), "B/router")
		})
	}
}

// BenchmarkThreads runs tori from 16x16 to 128x128 routers (from 24x24 to 48x48
// about where two threads start to pay, sim.ParallelRouters) at load 0.1 on one
// thread and on two (results are the same whatever the threads): the ratio of the
// two ns/flit-hop is the speedup on an idle machine, that of the two
// cpu-ns/flit-hop the cost of the partitions; docs/booksim.md's threads table is
// the command's (scripts/booksim-compare.sh threads), which takes two threads from
// sim.ParallelRouters routers on, and its crossover table these runs' (the same
// command).
func BenchmarkThreads(b *testing.B) {
	for _, spec := range []string{"torus:16x16", "torus:24x24", "torus:32x32", "torus:40x40", "torus:48x48", "torus:64x64", "torus:128x128"} {
		for _, threads := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/threads=%d", spec, threads), func(b *testing.B) {
				benchThreads(b, spec, 0.1, 2000, threads)
			})
		}
	}
}
