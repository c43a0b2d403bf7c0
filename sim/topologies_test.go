package sim_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// algConfig is the named routing on spec at vcs VCs.
func algConfig(t testing.TB, spec, name string, vcs, buf int, p sim.Pipeline) sim.Config {
	net := mustNet(t, spec)
	alg, err := routing.Lookup(name)
	require.NoError(t, err)
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	return sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: p, Seed: 1, AtomicVC: alg.Atomic}
}

// With link latencies of the topology's own, a packet alone in the network takes
// Pipeline.ZeroLoad with the sum of its links' latencies in place of h Link:
// Inject + (h+1)(Route + VCAlloc + SwAlloc + Traverse) + sum of latencies + Eject +
// L - 1, for every pair of routers of a dragonfly with local and global channels of
// different latencies (both presets; buffers covering the longest credit loop).
func TestZeroLoadWithLinkLatencies(t *testing.T) {
	const spec = "dragonfly:a=3,p=2,h=1,local=3,global=11"
	for _, p := range []sim.Pipeline{sim.Ideal(), sim.BookSim(mustNet(t, spec))} {
		for _, l := range []int{1, 5} {
			cfg := algConfig(t, spec, "df-min", 2, 40, p)
			net := cfg.Net
			for s := range net.Nodes() {
				for d := range net.Nodes() {
					if s == d {
						continue
					}
					// the route and its latencies, by the routing itself (df-min is
					// deterministic)
					h := sim.Header{Src: int32(s), Dst: int32(d), Port: -1, InPort: -1, VC: -1}
					cfg.Routing.Start(&h, rand.New(rand.NewPCG(1, 1)))
					hops, lat := 0, 0
					for at := s; at != d; hops++ {
						c := cfg.Routing.Route(at, &h, nil)[0]
						cfg.Routing.Advance(at, &h, c.Port, 0)
						lat += topology.Latency(net, at, c.Port)
						at, _ = net.Link(at, c.Port)
					}
					res, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: s, Dst: d, Flits: l}}, sim.BatchOptions{})
					require.NoError(t, err)
					want := p.Inject + (hops+1)*(p.Route+p.VCAlloc+p.SwAlloc+p.Traverse) + lat + p.Eject + l - 1
					require.Equal(t, int64(want), res.Latency[0], "%d -> %d, %d hops, L=%d, %+v", s, d, hops, l, p)
				}
			}
		}
	}
}

// Loads are per terminal: on a concentrated mesh (4 terminals a router) the
// accepted load below saturation is the offered load per terminal, and the
// per-node statistics are the terminals', every one of them a source and a
// destination.
func TestConcentrationCountsTerminals(t *testing.T) {
	cfg := dorConfig(t, "cmesh:2x2,c=4", 1, 8, sim.BookSim(mustNet(t, "cmesh:2x2,c=4")))
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
	require.NoError(t, err)
	res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.2, Sizes: sim.Fixed(4)},
		sim.Measure{MinCycles: 20000, MaxCycles: 20000, Nodes: true})
	require.NoError(t, err)
	require.False(t, res.Saturated)
	require.InDelta(t, 0.2, res.Accepted, 0.01)
	require.Len(t, res.Nodes, 16)
	for _, n := range res.Nodes {
		require.Positive(t, n.PacketsSrc, "terminal %d", n.Node)
		require.Positive(t, n.PacketsDst, "terminal %d", n.Node)
		require.InDelta(t, 0.2, n.Offered, 0.05, "terminal %d", n.Node)
	}
}

// Where fewer VCs than a routing's documented count close a cycle of channel
// dependencies (the deadlock checker's TestTopologyRoutings), the simulator reaches
// the deadlock under heavy load with short buffers and long packets (one VC fewer,
// two for PAR), and with the documented count it does not, on the same workload.
func TestSimulatorReachesTopologyDeadlocks(t *testing.T) {
	for _, c := range []struct {
		spec, routing, traffic string
		fewer, seed            int
	}{
		{"dragonfly:a=3,p=2,h=1,local=1,global=1", "df-min", "uniform", 1, 1},
		{"dragonfly:a=4,p=1,h=2,local=1,global=1", "df-valiant", "uniform", 2, 1},
		{"hyperx:3x3,t=2", "hx-dal", "uniform", 1, 1},
		// PAR with 2 VCs; its cycle at 3 (the checker's) stalls part of the network
		// only: TestSimulatorReachesPARDeadlock
		{"dragonfly:a=4,p=1,h=2,local=1,global=1", "df-par", "uniform", 2, 1},
	} {
		net := mustNet(t, c.spec)
		alg, _ := routing.Lookup(c.routing)
		need, err := alg.MinVCs(net)
		require.NoError(t, err)
		require.Less(t, c.fewer, need)
		for _, vcs := range []int{c.fewer, need} {
			cfg := algConfig(t, c.spec, c.routing, vcs, 2, sim.Ideal())
			cfg.Seed = uint64(c.seed)
			pat, err := sim.NewPattern(c.traffic, sim.PatternParams{Net: net})
			require.NoError(t, err)
			_, err = sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.9, Sizes: sim.Fixed(8)},
				sim.Measure{MinCycles: 8000, MaxCycles: 8000})
			var dl *sim.DeadlockError
			if vcs < need {
				require.True(t, errors.As(err, &dl), "%s on %s with %d VCs: want a deadlock, got %v", c.routing, c.spec, vcs, err)
			} else {
				require.NoError(t, err, "%s on %s with %d VCs", c.routing, c.spec, vcs)
			}
		}
	}
}

// PAR (df-par) on 3 VCs shares VC 2 between the intermediate group's hops (class 2)
// and the destination group's (class 3), and the checker finds a cycle of six
// channels round three groups: a packet re-routed through group I holds I's local
// channel and the global one to its destination group D on VC 2 and waits for D's
// local channel on VC 2, held by a packet re-routed through D (wormlab deadlock
// --topology dragonfly:a=2,p=1,h=1 --routing df-par --vcs 3). Open-loop runs at
// offered 0.9 and 1.0 (both patterns, 8 and 32 flits, buffers of 2 and 8, both
// pipelines, seeds 1-4) stop as saturated within a few thousand cycles (the source
// queue bound) without a deadlock; run to 50,000 cycles whatever their queues, 2 of
// the 128 deadlock (routing.TestPARThreeVCsOpenLoop). A closed batch shows it
// surely: worst-case traffic (group i to i+1; on a 3-group dragonfly
// every re-routed packet goes through the third group, and the cycle's three packets
// are of the pattern) generated at 0.9 flits/terminal/cycle for 2000 cycles, then
// drained: the packets not caught are delivered, the caught ones stay, and the run
// stops with a DeadlockError whose wait cycle holds VC 2 at all six routers; with
// 4 VCs the same packets are all delivered. Seeds 1-5 all deadlock (8-flit packets,
// 4-flit buffers, booksim pipeline; with 16-flit packets, the ideal pipeline or
// 2-flit buffers 0 to 4 seeds of 5 did, with uniform traffic none).
func TestSimulatorReachesPARDeadlock(t *testing.T) {
	const spec = "dragonfly:a=2,p=1,h=1,local=1,global=1"
	net := mustNet(t, spec)
	pat, err := sim.NewPattern("worstcase", sim.PatternParams{Net: net})
	require.NoError(t, err)
	for seed := uint64(1); seed <= 5; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		var packets []sim.Packet
		const flits = 8
		for c := int64(0); c < 2000; c++ {
			for s := range net.Nodes() { // p = 1: terminal s at router s
				if r.Float64() < 0.9/flits {
					packets = append(packets, sim.Packet{Src: s, Dst: pat.Dest(s, r), Flits: flits, Release: c})
				}
			}
		}
		for _, vcs := range []int{3, 4} {
			cfg := algConfig(t, spec, "df-par", vcs, 4, sim.BookSim(net))
			cfg.Seed = seed
			_, err := sim.RunBatch(testCtx(t), cfg, packets, sim.BatchOptions{MaxCycles: 1_000_000})
			if vcs == 4 {
				require.NoError(t, err, "seed %d, 4 VCs", seed)
				continue
			}
			var dl *sim.DeadlockError
			require.True(t, errors.As(err, &dl), "seed %d, 3 VCs: want a deadlock, got %v", seed, err)
			require.NotEmpty(t, dl.Cycle, "seed %d: a stall without a wait cycle", seed)
			// the checker's cycle: the six channels round the three groups, each
			// router's on VC 2 (a wait through a packet on another VC may join it)
			onVC2 := map[int]bool{}
			for _, w := range dl.Cycle {
				if w.VC == 2 {
					onVC2[w.Router] = true
				}
			}
			require.Len(t, onVC2, net.Nodes(), "seed %d: the wait cycle %v does not hold VC 2 at every router", seed, dl.Cycle)
		}
	}
}
