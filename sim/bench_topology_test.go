package sim_test

// The cost of a flit-hop on a 1,056-terminal dragonfly (issue 25: within 1.5x of a
// 16x16 torus's), against the 16x16 torus of issue 11's configuration, at a light
// and a heavier load each:
//
//	go test -run '^$' -bench FlitHop -benchtime 3x ./sim
//
// A flit-hop is the project's unit of a run's work (Result.FlitHops, which the
// torus benchmarks of bench_test.go and docs/booksim.md's speed table divide by):
// a flit crossing a channel out of a router, a link to another router or its
// ejection channel into its sink, so one a router a flit passes (BookSim2 counts
// its hops the same way: one per switch traversal, iq_router.cpp). Until session
// 8 this benchmark counted the router-to-router links alone, which leaves out each
// packet's last router, a larger share of a packet's router passes on the
// dragonfly (fewer links a packet) than on the torus, so it charged the dragonfly
// more routers per unit (docs/dragonfly.md, "The unit", whose figures
// TestFlitHopDocFigures checks); it still reports that count as link-hops.
//
// ns/flit-hop is the benchmark's time per iteration over the run's flit-hops,
// cpu-ns/flit-hop the same with the process's CPU time (user and system,
// getrusage), which a loaded machine inflates less; cpu-ns/link-hop the CPU time
// over the router-to-router link crossings alone, counted once beforehand from the
// trace of the same run (runs are deterministic: the timed runs have no trace).

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/cputime"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

const flitHopCycles = 10000

// flitHopRun returns a run of the flit-hop configuration (with trace, when given;
// it returns the run's flit-hops, Result.FlitHops) and its network.
func flitHopRun(t testing.TB, spec, alg string, vcs, buf, flits int, rate float64) (topology.Network, func(trace func(sim.Event)) int64) {
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	a, err := routing.Lookup(alg)
	require.NoError(t, err)
	r, err := a.New(net, vcs)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	return net, func(trace func(sim.Event)) int64 {
		cfg := sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: sim.BookSim(net), Seed: 1, Trace: trace}
		res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(flits)},
			sim.Measure{MinCycles: flitHopCycles, MaxCycles: flitHopCycles, Period: 2000})
		require.NoError(t, err)
		return res.FlitHops
	}
}

// linkHops counts the flits crossing router-to-router links in a run.
func linkHops(net topology.Network, run func(trace func(sim.Event)) int64) int64 {
	var hops int64
	run(func(e sim.Event) {
		if e.Kind == sim.Send && int(e.Port) < net.Ports(int(e.Node)) {
			hops++
		}
	})
	return hops
}

// flitHopConfigs are the benchmark's two networks at the light load.
var flitHopConfigs = map[string]func(t testing.TB) (topology.Network, func(func(sim.Event)) int64){
	"torus": func(t testing.TB) (topology.Network, func(func(sim.Event)) int64) {
		return flitHopRun(t, "torus:16x16", "dor-booksim", 4, 8, 16, 0.1)
	},
	"torus02": func(t testing.TB) (topology.Network, func(func(sim.Event)) int64) {
		return flitHopRun(t, "torus:16x16", "dor-booksim", 4, 8, 16, 0.2)
	},
	"dragonfly": func(t testing.TB) (topology.Network, func(func(sim.Event)) int64) {
		return flitHopRun(t, "dragonfly:p=4", "df-min", 2, 256, 16, 0.2)
	},
}

// TestFlitHopRun runs one of the flit-hop configurations once, for instruction
// counts that a loaded machine does not change (valgrind --tool=callgrind on the
// test binary; GODEBUG=asyncpreemptoff=1 lets callgrind follow Go's signals):
// WORMLAB_FLITHOP=torus, torus02 (the torus at 0.2) or dragonfly; with
// WORMLAB_FLITHOP_COUNT=1 it prints the run's flit-hops and link-hops instead (a
// traced run). Skipped without WORMLAB_FLITHOP.
func TestFlitHopRun(t *testing.T) {
	which := os.Getenv("WORMLAB_FLITHOP")
	if which == "" {
		t.Skip("WORMLAB_FLITHOP unset")
	}
	mk, ok := flitHopConfigs[which]
	require.True(t, ok, "WORMLAB_FLITHOP=%s: want torus, torus02 or dragonfly", which)
	net, run := mk(t)
	if os.Getenv("WORMLAB_FLITHOP_COUNT") != "" {
		fmt.Printf("%s: %d flit-hops, %d link-hops in %d cycles\n", which, run(nil), linkHops(net, run), flitHopCycles)
		return
	}
	run(nil)
}

func benchFlitHop(b *testing.B, spec, alg string, vcs, buf, flits int, rate float64) {
	net, run := flitHopRun(b, spec, alg, vcs, buf, flits, rate)
	const cycles = flitHopCycles
	links := linkHops(net, run)
	require.Positive(b, links)
	var hops int64
	cpu0 := cpuNanos()
	for b.Loop() {
		hops = run(nil)
	}
	cpu := float64(cpuNanos()-cpu0) / float64(b.N)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(hops), "ns/flit-hop")
	b.ReportMetric(cpu/float64(hops), "cpu-ns/flit-hop")
	b.ReportMetric(cpu/float64(links), "cpu-ns/link-hop")
	b.ReportMetric(float64(links)/cycles/float64(topology.Channels(net)), "hops/link/cycle")
}

func BenchmarkFlitHopTorus16x16Rate01(b *testing.B) {
	benchFlitHop(b, "torus:16x16", "dor-booksim", 4, 8, 16, 0.1)
}
func BenchmarkFlitHopTorus16x16Rate02(b *testing.B) {
	benchFlitHop(b, "torus:16x16", "dor-booksim", 4, 8, 16, 0.2)
}
func BenchmarkFlitHopDragonfly1056Rate02(b *testing.B) {
	benchFlitHop(b, "dragonfly:p=4", "df-min", 2, 256, 16, 0.2)
}
func BenchmarkFlitHopDragonfly1056Rate05(b *testing.B) {
	benchFlitHop(b, "dragonfly:p=4", "df-min", 2, 256, 16, 0.5)
}

// cpuNanos is the process's user and system CPU time so far (cputime.Used).
func cpuNanos() int64 { return int64(cputime.Used()) }
