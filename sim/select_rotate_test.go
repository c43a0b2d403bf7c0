package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
)

// RotateFree is BookSim2's input arbiter: the first candidate at or after the
// pointer in the order port*V + vc, wrapping round.
func TestRotateFreeOrder(t *testing.T) {
	c := []sim.Candidate{{Port: 1, VC: 2}, {Port: 2, VC: 0}, {Port: 2, VC: 3}, {Port: 0, VC: 1}}
	for _, x := range []struct{ ptr, want int32 }{{0, 3}, {2, 0}, {6, 0}, {7, 1}, {9, 2}, {11, 2}, {12, 3}, {40, 3}} {
		require.Equal(t, int(x.want), sim.RotateFree{}.SelectAfter(c, x.ptr, 4), "pointer %d", x.ptr)
	}
}

// Lemma (the simulator keeps a RotatingSelector's pointer per input VC, one past its
// last grant): at a load low enough that an input VC's wanted VCs are nearly always
// free, an input VC granted VC v of port p is granted VC v+1 (mod V) when it next
// asks for p, and VC 0 of another port. The few grants where a VC was busy may
// break it; the test allows 2% of them.
func TestRotateFollowsLastGrant(t *testing.T) {
	net := mustNet(t, "mesh:4x4")
	alg, err := routing.Lookup("dor")
	require.NoError(t, err)
	const V = 4
	rt, err := alg.New(net, V)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	type key struct{ node, port, vc int32 }
	type grant struct{ port, vc int32 }
	last := map[key]grant{}
	held, broke := 0, 0
	cfg := sim.Config{Net: net, Routing: rt, VCs: V, Buf: 8, Pipeline: sim.BookSim(net), Seed: 3, Select: sim.RotateFree{},
		Trace: func(ev sim.Event) {
			if ev.Kind != sim.Grant {
				return
			}
			k := key{ev.Node, ev.InPort, ev.InVC}
			if g, ok := last[k]; ok {
				want := int32(0)
				if g.port == ev.Port {
					want = (g.vc + 1) % V
				}
				if ev.VC == want {
					held++
				} else {
					broke++
				}
			}
			last[k] = grant{ev.Port, ev.VC}
		}}
	_, err = sim.RunOpen(testCtx(t), cfg,
		sim.Workload{Pattern: pat, Rate: 0.01, Sizes: sim.Sizes{Flits: []int{4}, Weight: []float64{1}}},
		sim.Measure{MinCycles: 20000, MaxCycles: 20000, Period: 1000})
	require.NoError(t, err)
	require.Greater(t, held, 1000, "few repeated grants: the check is weak")
	require.LessOrEqual(t, float64(broke), 0.02*float64(held+broke), "%d of %d grants not the one after the input VC's last", broke, held+broke)
}
