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
		// PAR's cycle at 3 VCs (the checker's) was not reached in runs of up to 8000
		// cycles; with 2 it is
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
