package sim

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/topology"
)

// allocFlat is allocRouter specialised to flat arbitrations other than random
// without Latch (bids from the ports' masks instead of a scan of their VCs,
// arbiter states as numbers, traversal at once): on every configuration the two
// give the same run, result for result, including V not a power of two, EjectAll
// and a pipeline without router delays. Random arbitration takes allocRouter
// either way (TestRandomTakesGeneralPath).
func TestAllocFlatEqualsGeneral(t *testing.T) {
	for _, c := range []struct {
		name, topo string
		vcs        int
		arb        Arbitration
		sel        Selector
		rate       float64
		pipe       func(topology.Network) Pipeline
		ejectAll   bool
	}{
		{"mesh rr booksim", "mesh:6x6", 4, RoundRobin{}, FirstFree{}, 0.3, BookSim, false},
		{"mesh fixed 3 VCs", "mesh:5x5", 3, FixedOrder{}, MostCredits{}, 0.3, func(topology.Network) Pipeline { return Ideal() }, false},
		{"mesh rr eject all", "mesh:5x5", 2, RoundRobin{}, FirstFree{}, 0.5, func(topology.Network) Pipeline { return Ideal() }, true},
		{"mesh zero stages", "mesh:4x4", 5, RoundRobin{}, RandomFree{}, 0.5, func(topology.Network) Pipeline {
			return Pipeline{Link: 1, Credit: 1}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			net, err := topology.Parse(c.topo)
			require.NoError(t, err)
			pat, err := NewPattern("uniform", PatternParams{Net: net})
			require.NoError(t, err)
			run := func(slow bool) *Result {
				cfg := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: c.vcs, Buf: 4, Pipeline: c.pipe(net),
					Arbiter: c.arb, Select: c.sel, Seed: 7, EjectAll: c.ejectAll, slowSwitch: slow}
				res, err := RunOpen(context.Background(), cfg, Workload{Pattern: pat, Rate: c.rate, Sizes: Fixed(4)},
					Measure{MinCycles: 3000, MaxCycles: 3000, Period: 1000})
				require.NoError(t, err)
				return res
			}
			fast, slow := run(false), run(true)
			require.Greater(t, fast.PacketsDelivered, int64(500))
			require.Equal(t, slow, fast)
		})
	}
}

// Random arbitration takes the general path (fastSwitch), the other registered
// ones allocFlat, unless slowSwitch forces the general path.
func TestRandomTakesGeneralPath(t *testing.T) {
	net, err := topology.Parse("mesh:4x4")
	require.NoError(t, err)
	for _, c := range []struct {
		arb  Arbitration
		slow bool
		fast bool
	}{{RoundRobin{}, false, true}, {FixedOrder{}, false, true}, {Random{}, false, false}, {RoundRobin{}, true, false}} {
		cfg := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: 2, Buf: 4, Pipeline: BookSim(net),
			Arbiter: c.arb, Seed: 1, slowSwitch: c.slow}
		e, err := newEngine(&cfg)
		require.NoError(t, err)
		require.Equal(t, c.fast, e.fastSwitch(), "%T slow=%v", c.arb, c.slow)
	}
}

// xyRouting is dimension-order routing on a mesh on any VC (deadlock-free: the
// channel dependencies follow the dimension order).
type xyRouting struct{ g *topology.Grid }

func (xyRouting) Start(*Header, *rand.Rand)      {}
func (xyRouting) Advance(int, *Header, int, int) {}
func (x xyRouting) Route(at int, h *Header, out []Choice) []Choice {
	for i := range x.g.Dims() {
		if off := x.g.Offset(at, int(h.Dst), i); off != 0 {
			dir := 1
			if off < 0 {
				dir = -1
			}
			return append(out, Choice{Port: topology.Port(i, dir), VCs: ^uint64(0)})
		}
	}
	return out
}
