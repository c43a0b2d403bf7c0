package routing

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// walk follows a packet from src to dst as the simulator does (Route, take the
// choice, Advance, then the header's hop fields), with tie bits aux, and returns
// the (router, port, class-mask) of every hop.
type hopRec struct {
	at, port int
	vcs      uint64
}

func walk(t require.TestingT, net topology.Network, r sim.Routing, src, dst int, aux int32) []hopRec {
	h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
	h.Aux[0] = aux
	var out []hopRec
	at := src
	for at != dst {
		ch := r.Route(at, &h, nil)
		require.Len(t, ch, 1, "DOR offers one port")
		c := ch[0]
		out = append(out, hopRec{at, c.Port, c.VCs})
		vc := bits.TrailingZeros64(c.VCs)
		r.Advance(at, &h, c.Port, vc)
		next, in := net.Link(at, c.Port)
		require.GreaterOrEqual(t, next, 0)
		h.Hops++
		h.Port, h.InPort, h.VC = int32(c.Port), int32(in), int32(vc)
		at = next
		require.LessOrEqual(t, len(out), net.Nodes(), "route does not end")
	}
	return out
}

// BookSim2's class on an 8-ring, worked by hand from dor_next_torus: up from 6 to
// 1 crosses 7->0: class 1 (VCs 2,3); up from 1 to 3: class 0; down from 3 to 1
// (dest < cur): class 1; down from 1 to 6 (crossing 0->7, dest > cur): class 0.
// The class holds for the whole dimension and is set again on turning.
func TestDORBookSimClasses(t *testing.T) {
	net, err := topology.Parse("torus:8x8")
	require.NoError(t, err)
	g := net.(*topology.Grid)
	r, err := NewDORBookSim(net, 4)
	require.NoError(t, err)
	node := func(x, y int) int { return g.Node([]int{x, y}) }
	const c0, c1 = 0b0011, 0b1100
	cases := []struct {
		src, dst int
		want     []uint64
	}{
		{node(6, 0), node(1, 0), []uint64{c1, c1, c1}},
		{node(1, 0), node(3, 0), []uint64{c0, c0}},
		{node(3, 0), node(1, 0), []uint64{c1, c1}},
		{node(1, 0), node(6, 0), []uint64{c0, c0, c0}},
		// x up across the wrap (class 1), then y down 2 -> 0 (dest < cur: class 1)
		{node(7, 2), node(0, 0), []uint64{c1, c1, c1}},
		// x up 1 -> 2 (class 0), then y up 6 -> 1 across the wrap (class 1)
		{node(1, 6), node(2, 1), []uint64{c0, c1, c1, c1}},
	}
	for _, c := range cases {
		hops := walk(t, net, r, c.src, c.dst, 0)
		got := make([]uint64, len(hops))
		for i, h := range hops {
			got[i] = h.vcs
		}
		require.Equal(t, c.want, got, "%s -> %s", g.NodeName(c.src), g.NodeName(c.dst))
	}
}

// Theorem (Dally and Seitz 1987, Theorem 1): a deterministic routing function is
// deadlock-free if its channel dependency graph is acyclic. Checked here for
// dor-booksim on random tori and meshes (1-2 dimensions of sides 2-9, 3 of 2-4) with 2 or 4
// VCs: the graph over (link, class) with an edge for every pair of consecutive hops
// of every route (every source, destination and tie choice) has no cycle; every
// route is minimal and in dimension order.
func TestDORBookSimAcyclic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dims := rapid.IntRange(1, 3).Draw(t, "dims")
		sides := make([]int, dims)
		spec := ""
		for i := range sides {
			hi := 9
			if dims == 3 {
				hi = 4
			}
			sides[i] = rapid.IntRange(2, hi).Draw(t, fmt.Sprintf("side%d", i))
			if i > 0 {
				spec += "x"
			}
			spec += fmt.Sprint(sides[i])
		}
		kind := rapid.SampledFrom([]string{"torus", "mesh"}).Draw(t, "kind")
		vcs := rapid.SampledFrom([]int{2, 4}).Draw(t, "vcs")
		net, err := topology.Parse(kind + ":" + spec)
		require.NoError(t, err)
		g := net.(*topology.Grid)
		r, err := NewDORBookSim(net, vcs)
		require.NoError(t, err)
		type node struct {
			at, port int
			vcs      uint64
		}
		dep := map[node]map[node]bool{}
		for s := range net.Nodes() {
			for d := range net.Nodes() {
				for aux := int32(0); aux < 1<<uint(dims); aux++ {
					hops := walk(t, net, r, s, d, aux)
					if len(hops) != g.Distance(s, d) {
						t.Fatalf("%d -> %d: %d hops, distance %d", s, d, len(hops), g.Distance(s, d))
					}
					for i := 1; i < len(hops); i++ {
						if hops[i].port/2 < hops[i-1].port/2 {
							t.Fatalf("%d -> %d: dimension %d after %d", s, d, hops[i].port/2, hops[i-1].port/2)
						}
						a := node(hops[i-1])
						b := node(hops[i])
						if dep[a] == nil {
							dep[a] = map[node]bool{}
						}
						dep[a][b] = true
					}
				}
			}
		}
		// depth-first search for a back edge
		state := map[node]int{}
		var visit func(n node) bool
		visit = func(n node) bool {
			state[n] = 1
			for m := range dep[n] {
				if state[m] == 1 || (state[m] == 0 && visit(m)) {
					return true
				}
			}
			state[n] = 2
			return false
		}
		for n := range dep {
			if state[n] == 0 && visit(n) {
				t.Fatalf("channel dependency cycle on %s:%s with %d VCs", kind, spec, vcs)
			}
		}
	})
}

// TestDORBookSimAdvanceIsHop: Advance, which reads only the coordinates of the
// port's dimension, leaves the class hop gives for the port Route offered (the
// rule Advance had: h.Class = hop's class), at every hop of every route between
// every two routers, with and without the tie bits, on tori of even and odd
// sides, a 3-D torus and a mesh.
func TestDORBookSimAdvanceIsHop(t *testing.T) {
	for _, spec := range []string{"torus:6x5", "torus:5x5", "torus:4x4x3", "mesh:4x3"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		d, err := NewDORBookSim(net, 4)
		require.NoError(t, err)
		hops := 0
		for src := range net.Nodes() {
			for dst := range net.Nodes() {
				for _, aux := range []int32{0, 7} {
					h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
					h.Aux[0] = aux
					for at := src; at != dst; hops++ {
						ch := d.Route(at, &h, nil)
						require.Len(t, ch, 1)
						port, _, want := d.hop(at, &h)
						require.Equal(t, port, ch[0].Port)
						d.Advance(at, &h, port, 0)
						require.Equal(t, want, h.Class, "%s: %d -> %d at %d", spec, src, dst, at)
						next, in := net.Link(at, port)
						h.Hops++
						h.Port, h.InPort, h.VC = int32(port), int32(in), 0
						at = next
					}
				}
			}
		}
		require.Positive(t, hops, spec)
	}
}
