package routing

import (
	"context"
	"testing"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// BenchmarkRoutingCost runs the simulator on a 16x16 torus under uniform traffic of
// 8-flit packets at 0.15 flits/node/cycle (about half of dimension order's
// saturation there) for 5000 cycles with each algorithm, at max(its VC count, 4)
// VCs of 4 flits, and reports simulated cycles per second: the cost of the routing
// decision beside the rest of a cycle.
//
//	go test ./routing -run '^$' -bench RoutingCost -benchtime 3x
func BenchmarkRoutingCost(b *testing.B) {
	net, err := topology.Parse("torus:16x16")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"dor", "redrover", "duato-dp", "duato", "minadapt", "poshop", "neghop", "nbc", "pn", "valiant"} {
		b.Run(name, func(b *testing.B) {
			alg, err := Lookup(name)
			if err != nil {
				b.Fatal(err)
			}
			v, err := alg.MinVCs(net)
			if err != nil {
				b.Fatal(err)
			}
			v = max(v, 4)
			r, err := alg.New(net, v)
			if err != nil {
				b.Fatal(err)
			}
			cfg := sim.Config{Net: net, Routing: r, VCs: v, Buf: 4, Pipeline: sim.Ideal(), Seed: 1}
			w := sim.Workload{Pattern: sim.Uniform{T: net.Nodes()}, Rate: 0.15, Sizes: sim.Fixed(8)}
			m := sim.Measure{MinCycles: 5000, MaxCycles: 5000}
			var cycles int64
			for b.Loop() {
				res, err := sim.RunOpen(context.Background(), cfg, w, m)
				if err != nil {
					b.Fatal(err)
				}
				cycles += res.Cycles
			}
			b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
		})
	}
}
