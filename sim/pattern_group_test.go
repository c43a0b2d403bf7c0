package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/topology"
)

// Kim et al. 2008, section 4.1: under worst-case traffic every destination of a
// terminal of group G lies in group G+1 (mod g), and over many draws every terminal
// of that group is drawn; under groupperm the groups' targets are a permutation.
func TestGroupPatterns(t *testing.T) {
	net, err := topology.Parse("dragonfly:a=4,p=2,h=2")
	require.NoError(t, err)
	d := net.(*topology.Dragonfly)
	per := d.A() * d.P()
	wc, err := NewPattern("worstcase", PatternParams{Net: net})
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	for src := range topology.TerminalsOf(net).Len() {
		seen := map[int]bool{}
		for range 400 {
			dst := wc.Dest(src, r)
			require.Equal(t, (src/per+1)%d.G(), dst/per)
			seen[dst] = true
		}
		require.Len(t, seen, per)
	}
	gp, err := NewPattern("groupperm", PatternParams{Net: net, Seed: 5})
	require.NoError(t, err)
	target := map[int]int{}
	for src := range topology.TerminalsOf(net).Len() {
		G := gp.Dest(src, r) / per
		if was, ok := target[src/per]; ok {
			require.Equal(t, was, G, "one target group per group")
		}
		target[src/per] = G
	}
	hit := map[int]bool{}
	for _, G := range target {
		hit[G] = true
	}
	require.Len(t, hit, d.G(), "a permutation of the groups")
	_, err = NewPattern("worstcase", PatternParams{Net: mustParse(t, "torus:4x4")})
	require.ErrorContains(t, err, "needs a dragonfly")
}

// On a concentrated mesh the grid patterns move routers and keep a terminal's place
// at its router; the terminal-number patterns count terminals, not routers.
func TestPatternsOnConcentratedMesh(t *testing.T) {
	net := mustParse(t, "cmesh:4x4,c=4")
	g := net.(*topology.Grid)
	r := rand.New(rand.NewPCG(1, 2))
	tor, err := NewPattern("tornado", PatternParams{Net: net})
	require.NoError(t, err)
	nb, err := NewPattern("neighbor", PatternParams{Net: net})
	require.NoError(t, err)
	for src := range 64 {
		rt := src / 4
		want := g.Node([]int{(g.Coord(rt, 0) + 1) % 4, (g.Coord(rt, 1) + 1) % 4})
		require.Equal(t, want*4+src%4, tor.Dest(src, r), "tornado: ceil(4/2)-1 = 1 step")
		require.Equal(t, want*4+src%4, nb.Dest(src, r))
	}
	tr, err := NewPattern("transpose", PatternParams{Net: net})
	require.NoError(t, err)
	require.Equal(t, 0b000111, tr.Dest(0b111000, r), "64 terminals: 3 bits each half")
	u, err := NewPattern("uniform", PatternParams{Net: net})
	require.NoError(t, err)
	require.Equal(t, 64, u.(Uniform).T)
}

func mustParse(t *testing.T, spec string) topology.Network {
	t.Helper()
	n, err := topology.Parse(spec)
	require.NoError(t, err)
	return n
}
