package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/topology"
)

// ByOutput is BookSim2's input stage: the output first at or after the output
// pointer among those asked for (cyclically), then among the VCs asking for it
// the first at or after the VC pointer (cyclically); a lone bidder wins.
func TestByOutputPick(t *testing.T) {
	// VCs 0..4 ask for outputs 2, 1, 2, 0, 3; VC 4 does not bid
	vcs := []inVC{{op: 2}, {op: 1}, {op: 2}, {op: 0}, {op: 3}}
	const bid = 0b01111
	for _, c := range []struct{ vcPtr, outPtr, want int32 }{
		{0, 0, 3}, {0, 1, 1}, {3, 1, 1}, {0, 2, 0}, {1, 2, 2}, {2, 2, 2}, {3, 2, 0}, {4, 2, 0},
		{0, 3, 3}, {0, 5, 3}, // past the highest output asked for: round to output 0
	} {
		require.Equal(t, c.want, ByOutput{}.pick(bid, vcs, c.vcPtr, c.outPtr), "VC pointer %d, output pointer %d", c.vcPtr, c.outPtr)
	}
	require.Equal(t, int32(4), ByOutput{}.pick(1<<4, vcs, 0, 0))
	require.Equal(t, int32(2), ByVC{}.pick(bid, vcs, 2, 0))
}

// viaHook is ByVC's rule as a value the engine does not recognise, so it runs
// through the SwitchInput hook (allocRouter) and its pointer over the outputs.
type viaHook struct{ ByVC }

// The hook runs the rule it is given and nothing else: ByVC through it gives
// the run of the inline default, result for result, with a rotating and a fixed
// arbitration, with EjectAll, and V not a power of two.
func TestSwitchInputHookSameRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		vcs      int
		arb      Arbitration
		sel      Selector
		ejectAll bool
	}{
		{"rr", 4, RoundRobin{}, FirstFree{}, false},
		{"rr rotate 3 VCs", 3, RoundRobin{}, RotateFree{}, false},
		{"fixed", 2, FixedOrder{}, MostCredits{}, false},
		{"rr eject all", 2, RoundRobin{}, FirstFree{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := func(s SwitchInput) *Result {
				return swinRun(t, Config{VCs: c.vcs, Arbiter: c.arb, Select: c.sel, EjectAll: c.ejectAll, SwitchInput: s}, 0.4)
			}
			inline, hook := run(nil), run(viaHook{})
			require.Greater(t, inline.PacketsDelivered, int64(500))
			require.Equal(t, inline, hook)
		})
	}
}

// ByOutput changes the runs it should: near saturation on a mesh its latency is
// not ByVC's (a rule the engine ignored would give the same run).
func TestByOutputChangesRun(t *testing.T) {
	cfg := Config{VCs: 4, Arbiter: RoundRobin{}, Select: RotateFree{}}
	byVC := swinRun(t, cfg, 0.4)
	cfg.SwitchInput = ByOutput{}
	byOut := swinRun(t, cfg, 0.4)
	require.Greater(t, byOut.PacketsDelivered, int64(500))
	require.NotEqual(t, byVC.Latency, byOut.Latency)
}

// swinRun is an open-loop run of cfg (its network, routing, buffers and
// pipeline set here) on a 5x5 mesh, uniform traffic at rate.
func swinRun(t *testing.T, cfg Config, rate float64) *Result {
	t.Helper()
	net, err := topology.Parse("mesh:5x5")
	require.NoError(t, err)
	pat, err := NewPattern("uniform", PatternParams{Net: net})
	require.NoError(t, err)
	cfg.Net, cfg.Routing, cfg.Buf, cfg.Pipeline, cfg.Seed = net, xyRouting{net.(*topology.Grid)}, 4, BookSim(net), 7
	res, err := RunOpen(testctx.For(t), cfg, Workload{Pattern: pat, Rate: rate, Sizes: Fixed(4)},
		Measure{MinCycles: 3000, MaxCycles: 3000, Period: 1000})
	require.NoError(t, err)
	return res
}

// A rule other than ByVC needs pointers to keep: a random arbitration and the
// theory model's latched switch are refused, naming the field.
func TestSwitchInputRefused(t *testing.T) {
	net, err := topology.Parse("mesh:3x3")
	require.NoError(t, err)
	for _, cfg := range []Config{
		{Net: net, VCs: 2, Buf: 2, Pipeline: Ideal(), Arbiter: Random{}, SwitchInput: ByOutput{}},
		{Net: net, VCs: 1, Buf: 1, Pipeline: Ideal(), Latch: true, SwitchInput: ByOutput{}},
	} {
		var ce *ConfigError
		require.ErrorAs(t, cfg.Validate(), &ce)
		require.Equal(t, "switch-input", ce.Field)
		cfg.SwitchInput = ByVC{}
		require.NoError(t, cfg.Validate())
	}
}
