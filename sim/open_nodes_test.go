package sim_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// Per-node statistics equal those counted from the trace alone over the same
// window (the last look at or before the warm-up's end, up to the end): flits
// generated at each source, flits and packets delivered to each destination, and
// the mean latency of the packets from and to each node; their sum over the nodes
// is the run's generated load. A hot node accepts more than the others.
func TestNodeStatsMatchTrace(t *testing.T) {
	cfg := dorConfig(t, "torus:4x4", 4, 8, sim.BookSim(mustNet(t, "torus:4x4")))
	pat, err := sim.NewPattern("hotspot", sim.PatternParams{Net: cfg.Net, Hot: []int{5}, HotFraction: 0.2})
	require.NoError(t, err)
	type pk struct {
		src, dst int32
		gen      int64
		size     int32
	}
	pkts := map[int64]pk{}
	var events []sim.Event
	cfg.Trace = func(ev sim.Event) {
		if ev.Kind == sim.Generate || ev.Kind == sim.Deliver {
			events = append(events, ev)
		}
	}
	m := sim.Measure{MinCycles: 6000, MaxCycles: 6000, Nodes: true}
	res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.2, Sizes: sim.Fixed(4)}, m)
	require.NoError(t, err)
	require.False(t, res.Saturated, res.Reason)
	require.Len(t, res.Nodes, 16)
	start := res.Warmup - res.Warmup%2000 // the looks are 2000 cycles apart
	win := float64(res.Cycles - start)
	gen := make([]int64, 16)
	got := make([]int64, 16)
	nSrc, nDst, lSrc, lDst := make([]int64, 16), make([]int64, 16), make([]int64, 16), make([]int64, 16)
	for _, ev := range events {
		in := ev.Cycle >= start && ev.Cycle < res.Cycles
		switch ev.Kind {
		case sim.Generate:
			pkts[ev.Packet] = pk{ev.Node, ev.Dst, ev.Cycle, ev.Flit}
			if in {
				gen[ev.Node] += int64(ev.Flit)
			}
		case sim.Deliver:
			p := pkts[ev.Packet]
			if in && ev.Flit == p.size-1 {
				got[p.dst] += int64(p.size)
				nSrc[p.src]++
				nDst[p.dst]++
				lSrc[p.src] += ev.Cycle - p.gen
				lDst[p.dst] += ev.Cycle - p.gen
			}
		}
	}
	var sum float64
	for v, ns := range res.Nodes {
		require.Equal(t, v, ns.Node)
		require.InDelta(t, float64(gen[v])/win, ns.Offered, 1e-12, "node %d offered", v)
		require.InDelta(t, float64(got[v])/win, ns.Accepted, 1e-12, "node %d accepted", v)
		require.Equal(t, nSrc[v], ns.PacketsSrc)
		require.Equal(t, nDst[v], ns.PacketsDst)
		require.InDelta(t, float64(lSrc[v])/float64(nSrc[v]), *ns.LatencySrc, 1e-9)
		require.InDelta(t, float64(lDst[v])/float64(nDst[v]), *ns.LatencyDst, 1e-9)
		sum += ns.Offered
	}
	require.InDelta(t, res.Generated, sum/16, 1e-12)
	for v, ns := range res.Nodes {
		if v != 5 {
			require.Greater(t, res.Nodes[5].Accepted, 2*ns.Accepted)
		}
	}
}

// Every head is routed before it is granted a VC at the same router, and granted
// one of its choices: the Route and Grant events a trace carries for --trace.
func TestRouteGrantEvents(t *testing.T) {
	cfg := dorConfig(t, "mesh:4x4", 2, 4, sim.BookSim(mustNet(t, "mesh:4x4")))
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	type at struct {
		pkt  int64
		node int32
	}
	routed := map[at][]sim.Choice{}
	grants := 0
	cfg.Trace = func(ev sim.Event) {
		switch ev.Kind {
		case sim.Route:
			require.NotEmpty(t, ev.Choices)
			routed[at{ev.Packet, ev.Node}] = ev.Choices
		case sim.Grant:
			ch, ok := routed[at{ev.Packet, ev.Node}]
			require.True(t, ok, "packet %d granted at %d before it was routed", ev.Packet, ev.Node)
			hit := false
			for _, c := range ch {
				hit = hit || (int32(c.Port) == ev.Port && c.VCs&(1<<uint(ev.VC)) != 0)
			}
			require.True(t, hit, "grant %d/%d not among the choices %v", ev.Port, ev.VC, ch)
			grants++
		}
	}
	_, err = sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.2, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 2000, MaxCycles: 2000})
	require.NoError(t, err)
	require.Greater(t, grants, 100)
}
