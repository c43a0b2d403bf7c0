package sim_test

// The cost of a flit-hop (a flit crossing one router-to-router link) on a
// 1,056-terminal dragonfly (issue 25: within 1.5x of a 16x16 torus's), against the
// 16x16 torus of issue 11's configuration, at a light and a heavier load each:
//
//	go test -run '^$' -bench FlitHop -benchtime 3x ./sim
//
// ns/flit-hop is the benchmark's time per iteration over the flit-hops of the run,
// counted once beforehand from the trace of the same run (runs are deterministic:
// the timed runs have no trace); cpu-ns/flit-hop the same with the process's CPU
// time (user and system, getrusage), which a loaded machine inflates less.

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

const flitHopCycles = 10000

// flitHopRun returns a run of the flit-hop configuration (with trace, when given)
// and its network.
func flitHopRun(t testing.TB, spec, alg string, vcs, buf, flits int, rate float64) (topology.Network, func(trace func(sim.Event))) {
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	a, err := routing.Lookup(alg)
	require.NoError(t, err)
	r, err := a.New(net, vcs)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	return net, func(trace func(sim.Event)) {
		cfg := sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: sim.BookSim(net), Seed: 1, Trace: trace}
		_, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(flits)},
			sim.Measure{MinCycles: flitHopCycles, MaxCycles: flitHopCycles, Period: 2000})
		require.NoError(t, err)
	}
}

// flitHops counts the flits crossing router-to-router links in a run.
func flitHops(net topology.Network, run func(trace func(sim.Event))) int64 {
	var hops int64
	run(func(e sim.Event) {
		if e.Kind == sim.Send && int(e.Port) < net.Ports(int(e.Node)) {
			hops++
		}
	})
	return hops
}

// flitHopConfigs are the benchmark's two networks at the light load.
var flitHopConfigs = map[string]func(t testing.TB) (topology.Network, func(func(sim.Event))){
	"torus": func(t testing.TB) (topology.Network, func(func(sim.Event))) {
		return flitHopRun(t, "torus:16x16", "dor-booksim", 4, 8, 16, 0.1)
	},
	"dragonfly": func(t testing.TB) (topology.Network, func(func(sim.Event))) {
		return flitHopRun(t, "dragonfly:p=4", "df-min", 2, 256, 16, 0.2)
	},
}

// TestFlitHopRun runs one of the flit-hop configurations once, for instruction
// counts that a loaded machine does not change (valgrind --tool=callgrind on the
// test binary; GODEBUG=asyncpreemptoff=1 lets callgrind follow Go's signals):
// WORMLAB_FLITHOP=torus or dragonfly; with WORMLAB_FLITHOP_COUNT=1 it prints the
// run's flit-hops instead (a traced run). Skipped without WORMLAB_FLITHOP.
func TestFlitHopRun(t *testing.T) {
	which := os.Getenv("WORMLAB_FLITHOP")
	if which == "" {
		t.Skip("WORMLAB_FLITHOP unset")
	}
	mk, ok := flitHopConfigs[which]
	require.True(t, ok, "WORMLAB_FLITHOP=%s: want torus or dragonfly", which)
	net, run := mk(t)
	if os.Getenv("WORMLAB_FLITHOP_COUNT") != "" {
		fmt.Printf("%s: %d flit-hops in %d cycles\n", which, flitHops(net, run), flitHopCycles)
		return
	}
	run(nil)
}

func benchFlitHop(b *testing.B, spec, alg string, vcs, buf, flits int, rate float64) {
	net, run := flitHopRun(b, spec, alg, vcs, buf, flits, rate)
	const cycles = flitHopCycles
	hops := flitHops(net, run)
	require.Positive(b, hops)
	cpu0 := cpuNanos()
	for b.Loop() {
		run(nil)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(hops), "ns/flit-hop")
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N)/float64(hops), "cpu-ns/flit-hop")
	b.ReportMetric(float64(hops)/cycles/float64(topology.Channels(net)), "hops/link/cycle")
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

// cpuNanos is the process's user and system CPU time so far.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
