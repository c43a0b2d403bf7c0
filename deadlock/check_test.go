package deadlock

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

func check(t *testing.T, spec, name string, vcs int) *Report {
	t.Helper()
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	alg, err := routing.Lookup(name)
	require.NoError(t, err)
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	f, ok := r.(Function)
	require.True(t, ok, "%s lists no start states", name)
	rep, err := Check(context.Background(), net, f, vcs, name)
	require.NoError(t, err)
	return rep
}

// Dally and Seitz (1987), section 4: dimension order on a torus with one class per
// ring has the ring's cycle of dependencies; the dateline's second class breaks it;
// a mesh needs no second class.
func TestDimensionOrder(t *testing.T) {
	for _, name := range []string{"dor", "dor-booksim"} {
		rep := check(t, "torus:8x8", name, 2)
		require.True(t, rep.OK(), "%s at 2 VCs: %s", name, rep.CycleString())
		require.Equal(t, "dally-seitz", rep.Theorem)
		require.Equal(t, 64*63, rep.Pairs)
		require.Equal(t, 8*8*4*2, rep.Channels)
		require.Greater(t, rep.Levels, 8)

		rep = check(t, "torus:8x8", name, 1)
		require.False(t, rep.OK(), name)
		// The shortest cycle is one ring in one direction: 8 channels, each
		// leading to the next router of the ring by the same port.
		require.Len(t, rep.Cycle, 8, rep.CycleString())
		for i, c := range rep.Cycle {
			next := rep.Cycle[(i+1)%len(rep.Cycle)]
			require.Equal(t, c.Port, next.Port, rep.CycleString())
		}
	}
	rep := check(t, "mesh:4x4x3", "dor", 1)
	require.True(t, rep.OK(), rep.CycleString())
	// On a ring of 3 a minimal route takes at most one hop, so no dependency chains
	// along it: torus 3x3 needs no dateline, and in 3x5 only the 5-rings cycle.
	rep = check(t, "torus:3x3", "dor", 1)
	require.True(t, rep.OK(), rep.CycleString())
	rep = check(t, "torus:3x5", "dor", 1)
	require.False(t, rep.OK())
	require.Len(t, rep.Cycle, 5, rep.CycleString())
	for _, c := range rep.Cycle {
		require.Equal(t, 1, c.Port/2, "a ring of dimension 1 (side 5)")
	}
}

// The checker's graph must be what a packet really does: every dependency it
// reports along a cycle is a pair of consecutive channels of some packet. Check
// the converse on samples: every consecutive pair of channels a walked packet holds
// is an edge, so a cyclic walk is reported. Here: a routing that always goes the +
// way round a ring (not minimal) deadlocks with any number of VCs if it never
// changes VC, and the checker finds the ring.
func TestPlusOnlyRing(t *testing.T) {
	net, err := topology.Parse("torus:6")
	require.NoError(t, err)
	rep, err := Check(context.Background(), net, plusOnly{vcs: 3}, 3, "plus-only")
	require.NoError(t, err)
	require.False(t, rep.OK())
	require.Len(t, rep.Cycle, 6)
	for _, c := range rep.Cycle {
		require.Equal(t, topology.Port(0, +1), c.Port)
		require.Equal(t, rep.Cycle[0].VC, c.VC, "a cycle in one VC")
	}
}

// plusOnly routes round a ring the + way in any VC.
type plusOnly struct{ vcs int }

func (p plusOnly) Start(h *sim.Header, r *rand.Rand) {}
func (p plusOnly) Starts(h sim.Header, out []sim.Header) []sim.Header {
	return append(out, h)
}
func (p plusOnly) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	return append(out, sim.Choice{Port: topology.Port(0, +1), VCs: uint64(1)<<uint(p.vcs) - 1})
}
func (p plusOnly) Advance(at int, h *sim.Header, port, vc int) {}

// duatoMesh is minimal fully adaptive routing on a 2-D mesh: VC 1 on every
// productive port, VC 0 (the escape subfunction) on the dimension-order port only;
// with cyclicEscape the escape VC may also be taken on every productive port,
// which gives the escape channels the turn cycles of minimal adaptive routing.
type duatoMesh struct {
	g            *topology.Grid
	cyclicEscape bool
}

func (d duatoMesh) Start(h *sim.Header, r *rand.Rand)                  {}
func (d duatoMesh) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }
func (d duatoMesh) Advance(at int, h *sim.Header, port, vc int)        {}
func (d duatoMesh) Escape(at int, h *sim.Header, port, vc int) bool    { return vc == 0 }
func (d duatoMesh) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	first := true
	for i := range d.g.Dims() {
		off := d.g.Offset(at, int(h.Dst), i)
		if off == 0 {
			continue
		}
		dir := 1
		if off < 0 {
			dir = -1
		}
		vcs := uint64(0b10)
		if first || d.cyclicEscape {
			vcs = 0b11
		}
		first = false
		out = append(out, sim.Choice{Port: topology.Port(i, dir), VCs: vcs})
	}
	return out
}

// Duato (1995), Theorem 1, on its textbook example: minimal adaptive routing on a
// mesh with a dimension-order escape VC is deadlock-free although its whole channel
// dependency graph has cycles (the adaptive VC's turns); letting the escape VC be
// used adaptively breaks the condition, and the checker names a cycle of escape
// channels.
func TestDuatoCondition(t *testing.T) {
	net, err := topology.Parse("mesh:4x4")
	require.NoError(t, err)
	g := net.(*topology.Grid)
	rep, err := Check(context.Background(), net, duatoMesh{g: g}, 2, "duato-mesh")
	require.NoError(t, err)
	require.Equal(t, "duato", rep.Theorem)
	require.True(t, rep.OK(), rep.CycleString())
	require.Equal(t, 48, rep.Escape, "every mesh link's VC 0 is an escape channel some packet uses")

	rep, err = Check(context.Background(), net, duatoMesh{g: g, cyclicEscape: true}, 2, "cyclic-escape")
	require.NoError(t, err)
	require.False(t, rep.OK())
	require.GreaterOrEqual(t, len(rep.Cycle), 4)
	for _, c := range rep.Cycle {
		require.Equal(t, 0, c.VC, "the cycle is of escape channels")
	}
}

// The witness is real: dimension order with one VC on a 5-ring, every node sending
// an 8-flit packet two hops the + way, holds the ring's cycle, and the simulator's
// deadlock detector reports a wait cycle through all five routers; with the
// dateline's two VCs the same batch is delivered.
func TestWitnessDeadlocksInSimulator(t *testing.T) {
	rep := check(t, "torus:5", "dor", 1)
	require.False(t, rep.OK())
	net, _ := topology.Parse("torus:5")
	var packets []sim.Packet
	for i := range 5 {
		packets = append(packets, sim.Packet{Src: i, Dst: (i + 2) % 5, Flits: 8})
	}
	for _, vcs := range []int{1, 2} {
		r, err := routing.NewDOR(net, vcs)
		require.NoError(t, err)
		cfg := sim.Config{Net: net, Routing: r, VCs: vcs, Buf: 1, Pipeline: sim.Ideal(), DeadlockCycles: 50}
		res, err := sim.RunBatch(context.Background(), cfg, packets, sim.BatchOptions{})
		if vcs == 2 {
			require.NoError(t, err)
			require.Len(t, res.Delivered, 5)
			continue
		}
		var de *sim.DeadlockError
		require.True(t, errors.As(err, &de), "want a deadlock, got %v", err)
		routers := map[int]bool{}
		for _, w := range de.Cycle {
			routers[w.Router] = true
		}
		require.Len(t, routers, 5, "the wait cycle goes round the ring: %v", de)
		for _, c := range rep.Cycle {
			require.True(t, routers[c.Router])
		}
	}
}

// emptyChoice offers the + port of a ring with VC 0 and the - port with no VC: the
// simulator rejects such a choice set, so the checker must too.
type emptyChoice struct{ plusOnly }

func (e emptyChoice) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	return append(out, sim.Choice{Port: topology.Port(0, +1), VCs: 1}, sim.Choice{Port: topology.Port(0, -1), VCs: 0})
}

func TestChoiceWithoutVCRejected(t *testing.T) {
	net, err := topology.Parse("torus:4")
	require.NoError(t, err)
	_, err = Check(context.Background(), net, emptyChoice{plusOnly{vcs: 1}}, 1, "empty")
	require.ErrorContains(t, err, "with no VC")
}
