package sim_test

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
)

// Network latency is latency less the wait in the source queue: rebuilt from the
// trace (generation, the head's Inject, the tail's Deliver) over every delivered
// packet, the run's own mean over all of them (a run too short for MSER-5 to cut
// anything) agrees to rounding; it is below the latency and, at a load where the
// source queues grow, far below it while staying bounded.
func TestNetLatencyFromTrace(t *testing.T) {
	for _, tc := range []struct {
		rate  float64
		limit int
	}{{0.1, 0}, {0.9, 0}, {0.9, 2}} {
		cfg := dorConfig(t, "torus:4x4", 2, 4, sim.Ideal())
		gen, inj := map[int64]int64{}, map[int64]int64{}
		size := map[int64]int32{}
		type del struct {
			at, node, lat, net int64
		}
		var dels []del
		cfg.Trace = func(e sim.Event) {
			switch {
			case e.Kind == sim.Generate:
				gen[e.Packet], size[e.Packet] = e.Cycle, e.Flit
			case e.Kind == sim.Inject && e.Flit == 0:
				inj[e.Packet] = e.Cycle
			case e.Kind == sim.Deliver && e.Flit == size[e.Packet]-1:
				dels = append(dels, del{e.Cycle, int64(e.Node), e.Cycle - gen[e.Packet], e.Cycle - inj[e.Packet]})
			}
		}
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: cfg.Net})
		require.NoError(t, err)
		res, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: tc.rate, Sizes: sim.Fixed(4), InjectLimit: tc.limit},
			sim.Measure{MinCycles: 3000, MaxCycles: 3000})
		require.NoError(t, err)
		require.NotNil(t, res.NetLatency)
		// the statistics see one cycle's deliveries in router order
		slices.SortStableFunc(dels, func(a, b del) int {
			if a.at != b.at {
				return int(a.at - b.at)
			}
			return int(a.node - b.node)
		})
		var lat, net []int64
		for _, d := range dels {
			lat, net = append(lat, d.lat), append(net, d.net)
		}
		require.Equal(t, len(lat), int(res.PacketsDelivered))
		k := len(lat) - res.Measured // the warm-up's packets
		var sl, sn int64
		for i := k; i < len(lat); i++ {
			sl += lat[i]
			sn += net[i]
			require.LessOrEqual(t, net[i], lat[i])
		}
		want := float64(sn) / float64(len(lat)-k)
		if res.Latency != nil {
			// the latency's estimate is a batch-means mean (the oldest
			// remainder of the window unused): within its interval of the
			// plain mean
			require.InDelta(t, float64(sl)/float64(len(lat)-k), *res.Latency, *res.LatencyCI)
		}
		require.InDelta(t, want, *res.NetLatency, 1e-9*want, "rate %g limit %d", tc.rate, tc.limit)
		if tc.rate == 0.9 {
			require.True(t, res.Saturated)
			require.Less(t, *res.NetLatency, 100.0, "the network's latency stays bounded past saturation")
		}
	}
}

// The class limit: a source starts a packet only while fewer than ClassLimit
// input VCs of its router, numbered as the packet's class (the lowest VC its
// first hop may take), hold a flit. Occupancy rebuilt from the trace (Arrive and
// a flit's Arrive fills an input VC, its Send empties it) is checked at every head injection,
// on dor-booksim (class 1 when the route crosses a wrap link, else 0: both occur)
// with a limit of 1 and 2; and the limit throttles: past saturation fewer flits
// are generated into the network than without it.
func TestClassLimit(t *testing.T) {
	alg, err := routing.Lookup("dor-booksim")
	require.NoError(t, err)
	var accepted []float64
	for _, limit := range []int{1, 2, 0} {
		net := mustNet(t, "torus:5x5")
		rt, err := alg.New(net, 2)
		require.NoError(t, err)
		cfg := sim.Config{Net: net, Routing: rt, VCs: 2, Buf: 4, Pipeline: sim.Ideal(), Seed: 3}
		type key struct{ node, port, vc int32 }
		occ := map[key]int{}
		busy := func(node, class int32) int {
			n := 0
			for k, c := range occ {
				if k.node == node && k.vc == class && c > 0 {
					n++
				}
			}
			return n
		}
		classes := map[int32]int{}
		checked := 0
		// at a head's injection, the occupancy of both classes at its node; its
		// class is known at its first Route event (the lowest VC offered)
		atInject := map[int64][2]int{}
		cfg.Trace = func(e sim.Event) {
			switch e.Kind {
			case sim.Inject:
				if e.Flit == 0 {
					atInject[e.Packet] = [2]int{busy(e.Node, 0), busy(e.Node, 1)}
				}
			case sim.Route:
				b, first := atInject[e.Packet]
				if !first || limit == 0 {
					break
				}
				delete(atInject, e.Packet)
				class := int32(64)
				for _, c := range e.Choices {
					class = min(class, int32(bits.TrailingZeros64(c.VCs)))
				}
				classes[class]++
				require.Less(t, b[class], limit, "cycle %d node %d class %d", e.Cycle, e.Node, class)
				checked++
			case sim.Arrive:
				occ[key{e.Node, e.Port, e.VC}]++
			case sim.Send:
				occ[key{e.Node, e.InPort, e.InVC}]--
			}
		}
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
		require.NoError(t, err)
		res, err := sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: 0.8, Sizes: sim.Fixed(4), ClassLimit: limit},
			sim.Measure{MinCycles: 4000, MaxCycles: 4000})
		require.NoError(t, err)
		accepted = append(accepted, res.Accepted)
		if limit > 0 {
			require.Greater(t, checked, 1000)
			require.Greater(t, classes[0], 100)
			require.Greater(t, classes[1], 100)
		}
	}
	require.Less(t, accepted[0], accepted[2])
}
