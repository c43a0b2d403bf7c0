package sim

import (
	"context"
	"math/rand/v2"
	"slices"
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

// allocFlat's written-out copy of traverse (its output loop) and traverse
// itself make the same moves, which TestAllocFlatEqualsGeneral's results do not
// all show: a batch traced on both paths gives the same events in the same
// order (every Send and Credit the copies make) and the same result, and, with
// packets released one at a time and DeadlockCycles one above the pipeline's
// quiet cycles (Config.check), a move a copy does not record (lastMove) is a
// deadlock in one run and not the other. Ten VCs take allocFlat's other way
// to a VC's output port (the VC's state, not its port's ops).
func TestAllocFlatTracesEqualGeneral(t *testing.T) {
	for _, c := range []struct {
		name     string
		vcs      int
		arb      Arbitration
		pipe     Pipeline
		quiet    int
		ejectAll bool
	}{
		{"ideal rr", 2, RoundRobin{}, Ideal(), 2, false},
		{"booksim fixed", 3, FixedOrder{}, Pipeline{Route: 1, VCAlloc: 1, SwAlloc: 1, Traverse: 1, Link: 1, Credit: 1, Inject: 2, Eject: 1}, 8, false},
		{"ideal rr ten VCs eject all", 10, RoundRobin{}, Ideal(), 2, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			net, err := topology.Parse("mesh:6x6")
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(5, 6))
			var pkts []Packet
			for i := range 30 { // alone in the network, mostly
				pkts = append(pkts, Packet{Src: r.IntN(36), Dst: r.IntN(36), Flits: 1 + r.IntN(6), Release: int64(40 * i)})
			}
			for range 150 { // then contending
				pkts = append(pkts, Packet{Src: r.IntN(36), Dst: r.IntN(36), Flits: 1 + r.IntN(6), Release: 1200 + int64(r.IntN(100))})
			}
			run := func(slow bool) (*BatchResult, []Event) {
				var evs []Event
				cfg := Config{Net: net, Routing: xyRouting{net.(*topology.Grid)}, VCs: c.vcs, Buf: 3, Pipeline: c.pipe,
					Arbiter: c.arb, Seed: 3, EjectAll: c.ejectAll, DeadlockCycles: c.quiet + 1, slowSwitch: slow,
					Trace: func(ev Event) {
						ev.Choices = slices.Clone(ev.Choices)
						evs = append(evs, ev)
					}}
				e, err := newEngine(&cfg)
				require.NoError(t, err)
				require.Equal(t, !slow, e.fastSwitch())
				res, err := RunBatch(context.Background(), cfg, pkts, BatchOptions{MaxCycles: 100_000})
				require.NoError(t, err)
				return res, evs
			}
			fast, fastEvs := run(false)
			slow, slowEvs := run(true)
			require.Equal(t, slow, fast)
			require.Len(t, fastEvs, len(slowEvs))
			for i := range slowEvs {
				require.Equal(t, slowEvs[i], fastEvs[i], "event %d", i)
			}
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
