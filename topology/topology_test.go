package topology

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every link has a reverse: the input port it enters is an output port there that
// leads back (grids and fat-trees are bidirected), and no two links enter the same
// input port.
func TestLinksAreBidirectedAndInjective(t *testing.T) {
	for _, spec := range []string{"torus:8x8", "torus:2x3", "mesh:4x4x3", "mesh:2x5", "torus:4", "fattree:4", "fattree:16", "fattree:256"} {
		n, err := Parse(spec)
		require.NoError(t, err, spec)
		require.Equal(t, spec, n.String())
		used := map[[2]int]bool{}
		for v := range n.Nodes() {
			require.Equal(t, n.Ports(v), n.InPorts(v), spec)
			for p := range n.Ports(v) {
				w, q := n.Link(v, p)
				if w < 0 {
					continue
				}
				require.False(t, used[[2]int{w, q}], "%s: input %d of %d entered twice", spec, q, w)
				used[[2]int{w, q}] = true
				back, bq := n.Link(w, q)
				require.Equal(t, v, back, "%s: %d port %d -> %d port %d does not lead back", spec, v, p, w, q)
				require.Equal(t, p, bq, spec)
			}
		}
	}
}

func TestGridGeometry(t *testing.T) {
	g, err := NewGrid([]int{8, 4}, true)
	require.NoError(t, err)
	require.Equal(t, 32, g.Nodes())
	v := g.Node([]int{7, 2})
	require.Equal(t, 7+8*2, v)
	require.Equal(t, []int{7, 2}, g.Coords(v))
	w, _ := g.Link(v, Port(0, +1))
	require.Equal(t, []int{0, 2}, g.Coords(w), "the wrap link of dimension 0")
	require.Equal(t, 1, g.Offset(v, w, 0))
	require.Equal(t, 4, g.Offset(g.Node([]int{0, 0}), g.Node([]int{4, 0}), 0))
	require.True(t, g.Tie(g.Node([]int{0, 0}), g.Node([]int{4, 0}), 0))
	require.Equal(t, -3, g.Offset(g.Node([]int{0, 0}), g.Node([]int{5, 0}), 0))
	require.Equal(t, 6, g.Diameter())
	require.Equal(t, "7,2", g.NodeName(v))
	m, err := NewGrid([]int{3, 3}, false)
	require.NoError(t, err)
	next, _ := m.Link(m.Node([]int{2, 0}), Port(0, +1))
	require.Equal(t, -1, next, "a mesh has no link off its edge")
	require.Equal(t, 4, m.Diameter())
	d, dir := PortDim(3)
	require.Equal(t, 1, d)
	require.Equal(t, -1, dir)
}

// Seed 000, section B.1: every switch has four children and, below the top, two
// parents; switch (l, a) lies above exactly the 4^l processors of block
// floor(a / 2^(l-1)), and descending by DownPort from any ancestor reaches p.
func TestFatTreeStructure(t *testing.T) {
	for _, n := range []int{4, 16, 64, 256} {
		f, err := NewFatTree(n)
		require.NoError(t, err)
		for v := range f.Nodes() {
			l := f.Level(v)
			if l == 0 {
				continue
			}
			above := 0
			for p := range n {
				if f.Ancestor(v, p) {
					above++
					u := v
					for f.Level(u) > 0 {
						u, _ = f.Link(u, f.DownPort(u, p))
					}
					require.Equal(t, p, u)
				}
			}
			require.Equal(t, 1<<(2*l), above, "switch %s", f.NodeName(v))
		}
		for s := range n {
			for d := range n {
				l := f.LCALevel(s, d)
				// every switch at level l reachable upwards from s is above d
				frontier := []int{s}
				for range l {
					var up []int
					for _, u := range frontier {
						for _, p := range upPorts(f, u) {
							w, _ := f.Link(u, p)
							up = append(up, w)
						}
					}
					frontier = up
				}
				for _, u := range frontier {
					require.True(t, f.Ancestor(u, d), "n=%d %d->%d: %s", n, s, d, f.NodeName(u))
				}
			}
		}
	}
	_, err := NewFatTree(32)
	require.Error(t, err)
}

func upPorts(f *FatTree, v int) []int {
	if f.Level(v) == 0 {
		return []int{0}
	}
	if f.Level(v) < f.Height() {
		return []int{FatUp0, FatUp1}
	}
	return nil
}

func TestParseErrors(t *testing.T) {
	for _, spec := range []string{"torus", "torus:", "ring:4", "torus:8xa", "mesh:1x4", "fattree:32", "fattree:x"} {
		_, err := Parse(spec)
		require.Error(t, err, spec)
	}
}

func TestModelRoundTrip(t *testing.T) {
	g, err := Parse("mesh:3x2")
	require.NoError(t, err)
	net, edge := Model(g)
	require.Equal(t, Channels(g), len(net.Edges))
	gen := FromModel(net)
	for v := range g.Nodes() {
		for p := range g.Ports(v) {
			if e := edge[v][p]; e >= 0 {
				w, _ := g.Link(v, p)
				w2, _ := gen.Link(v, gen.PortOf(e))
				require.Equal(t, w, w2)
				require.Equal(t, e, gen.Edge(v, gen.PortOf(e)))
			}
		}
	}
}

// Sizes are decimal digits alone: a sign was read without a word (issue 26:
// torus:+8x8 was torus:8x8), and a grid's links are bounded (MaxLinks).
func TestParseDigitsOnly(t *testing.T) {
	for _, spec := range []string{"torus:+8x8", "torus:8x+8", "mesh:-4x4", "fattree:+16", "torus: 8x8", "torus:8x8 ", "hyperx:4x4,k=+1", "cmesh:4x4,c=+2"} {
		_, err := Parse(spec)
		require.Error(t, err, spec)
	}
	for _, spec := range []string{"torus:8x8", "mesh:2", "fattree:16", "torus:08x8"} {
		_, err := Parse(spec)
		require.NoError(t, err, spec)
	}
	_, err := Parse("mesh:" + strings.Repeat("2x", 21) + "2")
	require.ErrorContains(t, err, "links")
}

// Grid.CoordOffset, which Offset, Tie and dor-booksim's hop read, is the signed
// minimal offset and tie of their definitions by modular arithmetic: on a mesh
// dst - cur and no tie; on a torus of side k the residue (dst - cur) mod k, less
// k above k/2, and a tie at exactly k/2 (even k), for every pair of coordinates
// of sides 2 to 9.
func TestCoordOffsetIsModular(t *testing.T) {
	for _, wrap := range []bool{false, true} {
		for k := 2; k <= 9; k++ {
			g, err := NewGrid([]int{k, 3}, wrap)
			require.NoError(t, err)
			for cur := range k {
				for dst := range k {
					want, tie := dst-cur, false
					if wrap {
						want = ((dst-cur)%k + k) % k
						tie = k%2 == 0 && want == k/2
						if 2*want > k {
							want -= k
						}
					}
					off, gotTie := g.CoordOffset(cur, dst, 0)
					require.Equal(t, want, off, "side %d wrap %v, %d to %d", k, wrap, cur, dst)
					require.Equal(t, tie, gotTie, "side %d wrap %v, %d to %d", k, wrap, cur, dst)
					src, to := g.Node([]int{cur, 1}), g.Node([]int{dst, 2})
					require.Equal(t, want, g.Offset(src, to, 0))
					require.Equal(t, tie, g.Tie(src, to, 0))
				}
			}
		}
	}
}
