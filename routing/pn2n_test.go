package routing_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/internal/testctx"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// pn2n, the reading of seed 003's Pn with 2^n VCs (direction networks, a dateline
// class per dimension), is refuted: on every torus tried the channel dependency
// graph has a cycle, even with VCs to spare (the construction uses 2^n), and the
// cycle takes the wrap links of two dimensions. On a mesh the same construction
// (direction networks only: Dally's) is proved deadlock-free with 2^(n-1) VCs,
// and on a ring (one dimension: Dally and Seitz's dateline) with 2.
func TestPn2nRefuted(t *testing.T) {
	alg, err := routing.Lookup("pn2n")
	require.NoError(t, err)
	check := func(spec string, vcs int) *deadlock.Report {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		r, err := alg.New(net, vcs)
		require.NoError(t, err)
		rep, err := deadlock.Check(testctx.For(t), net, r.(deadlock.Function), vcs, alg.Name)
		require.NoError(t, err)
		return rep
	}
	for _, spec := range []string{"torus:4x4", "torus:5x5", "torus:8x8", "torus:4x4x4"} {
		net, _ := topology.Parse(spec)
		require.NotEmpty(t, alg.RefutedOn(net), spec)
		v, err := alg.MinVCs(net)
		require.NoError(t, err)
		g := net.(*topology.Grid)
		require.Equal(t, 1<<g.Dims(), v, spec)
		for _, vcs := range []int{v, 2 * v} {
			rep := check(spec, vcs)
			require.False(t, rep.OK(), "%s with %d VCs", spec, vcs)
			wrapped := map[int]bool{}
			for i, c := range rep.Cycle {
				next := rep.Cycle[(i+1)%len(rep.Cycle)]
				dim, _ := topology.PortDim(c.Port)
				if d := g.Coord(c.Router, dim) - g.Coord(next.Router, dim); d > 1 || d < -1 {
					wrapped[dim] = true
				}
			}
			require.Len(t, wrapped, 2, "%s: the cycle %s crosses two dimensions' wrap links", spec, rep.CycleString())
		}
	}
	for _, spec := range []string{"mesh:4x4", "mesh:3x3x3", "torus:4", "torus:5", "torus:8"} {
		net, _ := topology.Parse(spec)
		v, err := alg.MinVCs(net)
		require.NoError(t, err)
		rep := check(spec, v)
		require.True(t, rep.OK(), rep.CycleString())
		// proven here, so not refuted there: wormlab sim refused pn2n on every
		// mesh and ring, citing a cycle through two wrap links, which a mesh has
		// none of and a ring one
		require.Empty(t, alg.RefutedOn(net), spec)
	}
}
