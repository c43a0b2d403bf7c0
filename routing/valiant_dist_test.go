package routing_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Valiant's path lengths follow its definition (Valiant and Brebner 1981; issue 26:
// a Valiant whose intermediate was always the source, minimal routing, passed
// every test): a packet from s to d goes to an intermediate m drawn uniformly
// among all nodes, then to d, each phase a minimal dimension-order route, so its
// length is dist(s, m) + dist(m, d) with m uniform. Every ordered pair of a 4x4
// torus and a 4x3 mesh sends 20 packets through the simulator; the histogram of
// the links their heads crossed fits the exact distribution, enumerated over m,
// by Pearson's chi-square (the statistic of a correct router stays below 40, the
// 1e-6 critical value for the 8 degrees of freedom or fewer, with the seed
// fixed; with m = s it is in the thousands), and the mean is within four
// standard errors of the exact one. (A packet whose first phase crossed its
// destination used to end there, which this test found: chi-square 345; Valiant
// now implements sim.Arriver.)
func TestValiantPathLengths(t *testing.T) {
	for _, spec := range []string{"torus:4x4", "mesh:4x3"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		g := net.(*topology.Grid)
		alg, err := routing.Lookup("valiant")
		require.NoError(t, err)
		vcs, err := alg.MinVCs(net)
		require.NoError(t, err)
		rt, err := alg.New(net, vcs)
		require.NoError(t, err)
		n := g.Nodes()
		want := map[int]float64{} // expected packets per path length
		var ps []sim.Packet
		const reps = 20
		for s := range n {
			for d := range n {
				if s == d {
					continue
				}
				for m := range n {
					want[g.Distance(s, m)+g.Distance(m, d)] += reps / float64(n)
				}
				for r := range reps {
					ps = append(ps, sim.Packet{Src: s, Dst: d, Flits: 1, Release: int64(r * 50)})
				}
			}
		}
		cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: 4, Pipeline: sim.Ideal(), Seed: 11}
		res, err := sim.RunBatch(testctx.For(t), cfg, ps, sim.BatchOptions{RecordHops: true, MaxCycles: 1 << 20})
		require.NoError(t, err)
		got := map[int]float64{}
		sum, wantSum := 0.0, 0.0
		for _, h := range res.HeadArrivals {
			got[len(h)]++
			sum += float64(len(h))
		}
		for h, e := range want {
			wantSum += float64(h) * e
		}
		chi := 0.0
		for h, e := range want {
			chi += (got[h] - e) * (got[h] - e) / e
		}
		for h := range got {
			require.Contains(t, want, h, "%s: a path of %d links is not a Valiant path", spec, h)
		}
		t.Logf("%s: %d packets, chi-square %.1f over %d lengths, mean %.3f (exact %.3f)", spec, len(ps), chi, len(want), sum/float64(len(ps)), wantSum/float64(len(ps)))
		require.Less(t, chi, 40.0, "%s: path lengths %v, expected %v", spec, got, want)
		mean := wantSum / float64(len(ps))
		variance := 0.0
		for h, e := range want {
			variance += (float64(h) - mean) * (float64(h) - mean) * e / float64(len(ps))
		}
		require.InDelta(t, mean, sum/float64(len(ps)), 4*math.Sqrt(variance/float64(len(ps))), "%s: mean path length", spec)
	}
}
