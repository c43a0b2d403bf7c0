package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

func mustNet(t testing.TB, spec string) topology.Network {
	n, err := topology.Parse(spec)
	require.NoError(t, err)
	return n
}

func dorConfig(t testing.TB, spec string, vcs, buf int, p sim.Pipeline) sim.Config {
	net := mustNet(t, spec)
	r, err := routing.NewDOR(net, vcs)
	require.NoError(t, err)
	return sim.Config{Net: net, Routing: r, VCs: vcs, Buf: buf, Pipeline: p, Seed: 1}
}

// Pipeline.ZeroLoad is exact: one packet alone in the network, for every source
// and destination pair of a small torus and mesh, both presets and a pipeline with
// every stage distinct, is delivered after exactly ZeroLoad(h, L) cycles, h the
// DOR route's length (the grid distance).
func TestZeroLoadLatencyExact(t *testing.T) {
	for _, spec := range []string{"torus:5x4", "mesh:3x4", "torus:4x2x3"} {
		net := mustNet(t, spec)
		g := net.(*topology.Grid)
		pipes := map[string]sim.Pipeline{
			"ideal":   sim.Ideal(),
			"booksim": sim.BookSim(net),
			"odd":     {Route: 2, VCAlloc: 3, SwAlloc: 1, Traverse: 2, Link: 3, Credit: 4, Inject: 1, Eject: 5},
		}
		for name, p := range pipes {
			for _, l := range []int{1, 3, 16} {
				for s := range net.Nodes() {
					for d := range net.Nodes() {
						if (s*7+d*3)%5 != 0 { // a fifth of the pairs
							continue
						}
						cfg := dorConfig(t, spec, 2, p.MinBuf(), p)
						res, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: s, Dst: d, Flits: l, Release: 3}}, sim.BatchOptions{})
						require.NoError(t, err)
						h := g.Distance(s, d)
						require.Equal(t, int64(p.ZeroLoad(h, l)), res.Latency[0], "%s %s %d->%d L=%d", spec, name, s, d, l)
						require.Equal(t, int64(3+p.ZeroLoad(h, l)), res.Makespan)
					}
				}
			}
		}
	}
}

// Below MinBuf a long packet is slower than ZeroLoad: the credit loop, not the
// pipeline, paces its body (the condition of ZeroLoad is tight).
func TestZeroLoadNeedsMinBuf(t *testing.T) {
	net := mustNet(t, "torus:6x6")
	for _, p := range []sim.Pipeline{sim.Ideal(), sim.BookSim(net), {Route: 2, VCAlloc: 3, SwAlloc: 1, Traverse: 2, Link: 3, Credit: 4, Inject: 1, Eject: 5}} {
		cfg := dorConfig(t, "torus:6x6", 2, p.MinBuf()-1, p)
		res, err := sim.RunBatch(testCtx(t), cfg, []sim.Packet{{Src: 0, Dst: 8, Flits: 16}}, sim.BatchOptions{})
		require.NoError(t, err)
		require.Greater(t, res.Latency[0], int64(p.ZeroLoad(3, 16)), "%+v", p)
	}
}

// BookSim2's measured zero-load latencies on the 8x8 torus (docs/booksim.md:
// neighbor 19 and tornado 43 with one flit, 34 and 58 with sixteen) are
// ZeroLoad's values for 2 and 6 links.
func TestZeroLoadMatchesBookSim(t *testing.T) {
	p := sim.BookSim(mustNet(t, "torus:8x8"))
	require.Equal(t, 19, p.ZeroLoad(2, 1))
	require.Equal(t, 43, p.ZeroLoad(6, 1))
	require.Equal(t, 34, p.ZeroLoad(2, 16))
	require.Equal(t, 58, p.ZeroLoad(6, 16))
}
