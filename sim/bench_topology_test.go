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
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

func benchFlitHop(b *testing.B, spec, alg string, vcs, buf, flits int, rate float64) {
	net, err := topology.Parse(spec)
	require.NoError(b, err)
	a, err := routing.Lookup(alg)
	require.NoError(b, err)
	r, err := a.New(net, vcs)
	require.NoError(b, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(b, err)
	const cycles = 10000
	run := func(trace func(sim.Event)) *sim.Result {
		cfg := sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: sim.BookSim(net), Seed: 1, Trace: trace}
		res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(flits)},
			sim.Measure{MinCycles: cycles, MaxCycles: cycles, Period: 2000})
		require.NoError(b, err)
		return res
	}
	var hops int64
	run(func(e sim.Event) {
		if e.Kind == sim.Send && int(e.Port) < net.Ports(int(e.Node)) {
			hops++
		}
	})
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
