package sim_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// sends runs a batch with a trace and returns, per packet, the (port, VC) of every
// head flit's send from a router to a link (ejection sends left out).
func sends(t *testing.T, cfg sim.Config, packets []sim.Packet) (map[int64][]sim.Hop, *sim.BatchResult, error) {
	t.Helper()
	out := map[int64][]sim.Hop{}
	cfg.Trace = func(ev sim.Event) {
		if ev.Kind == sim.Send && ev.Flit == 0 && int(ev.Port) < cfg.Net.Ports(int(ev.Node)) {
			out[ev.Packet] = append(out[ev.Packet], sim.Hop{Port: int(ev.Port), VC: int(ev.VC)})
		}
	}
	res, err := sim.RunBatch(testCtx(t), cfg, packets, sim.BatchOptions{})
	return out, res, err
}

func duatoConfig(t *testing.T, spec string, vcs int) sim.Config {
	t.Helper()
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	alg, err := routing.Lookup("duato")
	require.NoError(t, err)
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	return sim.Config{Net: net, Routing: r, VCs: vcs, Buf: 2, Pipeline: sim.Ideal(), DeadlockCycles: 50}
}

// A steered packet in an empty network takes the VC it is steered to at every hop,
// even against the routing's priorities (Duato's escape VCs have Pri 1, its
// adaptive ones Pri 0), and the routing decides the hops after the steered ones.
func TestSteerFollowsPrescribedHops(t *testing.T) {
	cfg := duatoConfig(t, "torus:4x4", 3)
	g := cfg.Net.(*topology.Grid)
	src, dst := g.Node([]int{0, 0}), g.Node([]int{1, 1})
	// +y on the escape's VC is not what dimension order allows: the escape hop from
	// 0,0 to 1,1 is +x. So steer +y on the adaptive VC 2, then +x on escape VC 0.
	steer := []sim.Hop{{Port: topology.Port(1, 1), VC: 2}, {Port: topology.Port(0, 1), VC: 0}}
	got, res, err := sends(t, cfg, []sim.Packet{{Src: src, Dst: dst, Flits: 3, Steer: steer}})
	require.NoError(t, err)
	require.Len(t, res.Delivered, 1)
	require.Equal(t, steer, got[0])
	// Unsteered, the first free VC of the lowest Pri: adaptive VC 2 on +x first.
	got, _, err = sends(t, cfg, []sim.Packet{{Src: src, Dst: dst, Flits: 3}})
	require.NoError(t, err)
	require.Equal(t, sim.Hop{Port: topology.Port(0, 1), VC: 2}, got[0][0])
}

// A steered VC the routing does not offer is a routing error naming the hop.
func TestSteerOutsideChoicesFails(t *testing.T) {
	cfg := duatoConfig(t, "torus:4x4", 3)
	g := cfg.Net.(*topology.Grid)
	// -x is not minimal from 0,0 to 1,1.
	_, _, err := sends(t, cfg, []sim.Packet{{Src: g.Node([]int{0, 0}), Dst: g.Node([]int{1, 1}), Flits: 1, Steer: []sim.Hop{{Port: topology.Port(0, -1), VC: 2}}}})
	var re *sim.RoutingError
	require.True(t, errors.As(err, &re), "%v", err)
	require.Contains(t, re.Msg, "steer[0]")
	_, _, err = sends(t, cfg, []sim.Packet{{Src: 0, Dst: 5, Flits: 1, Steer: []sim.Hop{{Port: 0, VC: 3}}}})
	var ce *sim.ConfigError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, "packets[0].steer[0]", ce.Field)
}

// Steering never makes a head wait while a VC it is offered is free: a packet
// steered to a VC another packet holds takes another one at once.
func TestSteerNeverWaits(t *testing.T) {
	cfg := duatoConfig(t, "torus:4x4", 3)
	g := cfg.Net.(*topology.Grid)
	a, b := g.Node([]int{0, 0}), g.Node([]int{1, 0})
	px := topology.Port(0, 1)
	// Packet 0, 40 flits from 0,0 to 2,0 steered to +x VC 2, holds that VC for 40
	// cycles; packet 1, one flit from 3,0 to 1,0 released at cycle 5, is steered to
	// VC 2 at both its hops (the wrap link into 0,0, then 0,0 +x).
	packets := []sim.Packet{
		{Src: a, Dst: g.Node([]int{2, 0}), Flits: 40, Steer: []sim.Hop{{Port: px, VC: 2}}},
		{Src: g.Node([]int{3, 0}), Dst: b, Flits: 1, Release: 5, Steer: []sim.Hop{{Port: px, VC: 2}, {Port: px, VC: 2}}},
	}
	got, res, err := sends(t, cfg, packets)
	require.NoError(t, err)
	require.Len(t, res.Delivered, 2)
	require.Equal(t, sim.Hop{Port: px, VC: 2}, got[0][0])
	require.Equal(t, sim.Hop{Port: px, VC: 2}, got[1][0], "the wrap link's VC 2 is free")
	require.NotEqual(t, 2, got[1][1].VC, "0,0 +x VC 2 is packet 0's: packet 1 takes another VC")
	require.Less(t, res.Delivered[1], res.Delivered[0], "packet 1 did not wait for packet 0's tail")
}

// Start gives a packet the routing state a replay names instead of Start's draw:
// dimension order on a 4-ring, a tie (2 hops either way), goes the - way when the
// tie bit is set.
func TestStartState(t *testing.T) {
	net, err := topology.Parse("torus:4")
	require.NoError(t, err)
	r, err := routing.NewDOR(net, 2)
	require.NoError(t, err)
	cfg := sim.Config{Net: net, Routing: r, VCs: 2, Buf: 2, Pipeline: sim.Ideal()}
	for _, minus := range []bool{false, true} {
		st := &sim.Header{}
		want := topology.Port(0, 1)
		if minus {
			st.Aux[0] = 1
			want = topology.Port(0, -1)
		}
		for seed := range uint64(4) {
			cfg.Seed = seed
			got, _, err := sends(t, cfg, []sim.Packet{{Src: 0, Dst: 2, Flits: 2, Start: st}})
			require.NoError(t, err)
			require.Equal(t, want, got[0][0].Port, "seed %d minus %v", seed, minus)
		}
	}
}

// Under AtomicVC a head also waits for a free VC whose buffer still holds the
// previous packet's flits: the deadlock detector's wait-for graph follows that
// wait to the packet at the buffer's front. Three packets round an 8-ring with one
// VC, 2-flit buffers (the checker's minimal configuration, replayed): each head
// waits for the tail VC of the next, which holds one flit, so only the atomic rule
// blocks it; the detector names the cycle through the three packets.
func TestAtomicWaitCycle(t *testing.T) {
	net, err := topology.Parse("torus:8")
	require.NoError(t, err)
	r, err := routing.NewDOR(net, 1)
	require.NoError(t, err)
	plus := &sim.Header{} // ties go the + way
	packets := []sim.Packet{
		{Src: 0, Dst: 3, Flits: 3, Release: 17, Start: plus},
		{Src: 2, Dst: 6, Flits: 5, Release: 16, Start: plus},
		{Src: 5, Dst: 1, Flits: 5, Release: 16, Start: plus},
	}
	cfg := sim.Config{Net: net, Routing: r, VCs: 1, Buf: 2, Pipeline: sim.Ideal(), AtomicVC: true, DeadlockCycles: 50}
	_, err = sim.RunBatch(testCtx(t), cfg, packets, sim.BatchOptions{})
	var de *sim.DeadlockError
	require.True(t, errors.As(err, &de), "%v", err)
	got := map[int64]bool{}
	for _, w := range de.Cycle {
		got[w.Packet] = true
	}
	require.Equal(t, map[int64]bool{0: true, 1: true, 2: true}, got, "%v", de)
}
