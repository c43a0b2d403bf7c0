package sim_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// With InjectPerPort a router has a source queue per output port in place of its
// terminals' own queues, and a routed packet joins the first: a router of one
// terminal (MODEL.md's sources, TheoryConfig). A router of several terminals is
// refused: the engine queued each terminal's packets at the queue numbered by
// its terminal's injection port, so on a 2x2 concentrated mesh of 8 terminals a
// router a packet of its third terminal was injected at the next router (the
// queue there), or past the table (an index out of range; found by
// TestRandomConfigsSame). On a torus of one terminal a router, every packet is
// injected at the router it was generated at.
func TestInjectPerPortTerminals(t *testing.T) {
	for _, spec := range []string{"cmesh:2x2,c=8", "cmesh:3x3,c=4", "file:../topology/testdata/ring4.json"} {
		net := mustNet(t, spec)
		cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "any-min", 4), VCs: 4, Buf: 4, Pipeline: sim.BookSim(net), Seed: 1, InjectPerPort: true}
		err := cfg.Validate()
		var ce *sim.ConfigError
		require.True(t, errors.As(err, &ce), "%s: %v", spec, err)
		require.Equal(t, "inject-per-port", ce.Field, spec)
	}
	net := mustNet(t, "torus:4x4")
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	at := map[int64]int32{} // packet: the router it was generated at
	injected := 0
	cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "dor", 2), VCs: 2, Buf: 4, Pipeline: sim.BookSim(net), Seed: 1, InjectPerPort: true,
		Trace: func(ev sim.Event) {
			switch {
			case ev.Kind == sim.Generate:
				at[ev.Packet] = ev.Node
			case ev.Kind == sim.Inject && ev.Flit == 0:
				require.Equal(t, at[ev.Packet], ev.Node, "packet %d", ev.Packet)
				injected++
			}
		}}
	res, err := sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.1, Sizes: sim.Sizes{Flits: []int{4}, Weight: []float64{1}}},
		sim.Measure{MinCycles: 1000, MaxCycles: 1000})
	require.NoError(t, err)
	require.Greater(t, injected, 300)
	require.Positive(t, res.PacketsDelivered)
}
