package deadlock

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// Each algorithm of the seeds at its documented VC count is proved deadlock-free
// by the theorem it rests on (Dally and Seitz's acyclic dependency graph for the
// oblivious and hop-class schemes, Duato's condition for the adaptive ones with an
// escape), on tori and meshes of two and three dimensions; where the construction
// needs every class, one VC fewer gives a cycle the checker names.
func TestSeedAlgorithms(t *testing.T) {
	cases := []struct {
		routing string
		specs   []string
		// fewer: the topologies where one VC fewer must deadlock
		fewer []string
	}{
		{"dor", []string{"torus:6x6", "torus:4x4x4", "mesh:5x5"}, []string{"torus:6x6"}},
		{"dor-booksim", []string{"torus:6x6", "torus:4x4x4"}, []string{"torus:6x6"}},
		{"redrover", []string{"torus:6x6", "torus:5x5", "torus:4x4x4"}, []string{"torus:6x6", "torus:5x5"}},
		{"duato-dp", []string{"torus:6x6", "torus:4x4x4"}, nil},
		{"duato", []string{"torus:6x6", "torus:5x5", "torus:4x4x4", "mesh:5x5"}, nil},
		{"minadapt", []string{"torus:6x6", "mesh:5x5"}, nil},
		// On a mesh the hop schemes need fewer classes than the diameter formula:
		// with one VC fewer the shared top class still has no cycle (TestHopSchemesOnMeshes).
		{"poshop", []string{"torus:6x6", "mesh:4x4", "torus:4x4x4"}, []string{"torus:6x6"}},
		{"neghop", []string{"torus:6x6", "mesh:4x4", "torus:4x4x4"}, []string{"torus:6x6"}},
		{"nbc", []string{"torus:6x6", "mesh:4x4", "torus:4x4x4"}, []string{"torus:6x6"}},
		{"pn", []string{"torus:6x6", "mesh:5x5", "torus:4x4x4"}, []string{"torus:6x6"}},
		{"valiant", []string{"torus:4x4", "mesh:4x4"}, []string{"torus:4x4"}},
		{"westfirst", []string{"mesh:6x6"}, nil},
		{"updown", []string{"fattree:64"}, nil},
		{"updown-fixed", []string{"fattree:64"}, nil},
		{"northlast", []string{"mesh:6x6"}, nil},
	}
	for _, c := range cases {
		alg, err := routing.Lookup(c.routing)
		require.NoError(t, err)
		for _, spec := range c.specs {
			t.Run(fmt.Sprintf("%s/%s", c.routing, spec), func(t *testing.T) {
				net, err := topology.Parse(spec)
				require.NoError(t, err)
				v, err := alg.MinVCs(net)
				require.NoError(t, err)
				rep := checkAlg(t, net, alg, v)
				require.True(t, rep.OK(), "%s on %s at %d VCs: %s %s", c.routing, spec, v, rep.CycleString(), rep.Disconnected)
			})
		}
		for _, spec := range c.fewer {
			t.Run(fmt.Sprintf("%s/%s/fewer", c.routing, spec), func(t *testing.T) {
				net, _ := topology.Parse(spec)
				v, _ := alg.MinVCs(net)
				rep := checkAlg(t, net, alg, v-1)
				require.False(t, rep.OK(), "%s on %s at %d VCs found no cycle", c.routing, spec, v-1)
				require.NotEmpty(t, rep.Cycle)
			})
		}
	}
}

func checkAlg(t *testing.T, net topology.Network, alg routing.Algorithm, vcs int) *Report {
	t.Helper()
	r, err := alg.New(net, vcs)
	require.NoError(t, err)
	f, ok := r.(Function)
	require.True(t, ok, "%s lists no start states", alg.Name)
	rep, err := Check(context.Background(), net, f, vcs, alg.Name)
	require.NoError(t, err)
	return rep
}

// A finding, not a property of the papers: on a 4x4 mesh positive-hop and
// negative-hop stay deadlock-free with one VC fewer than the diameter formula
// gives (the hops that share the last class are too few, and too near the mesh's
// corners, to close a cycle), while on tori the formula is tight.
func TestHopSchemesOnMeshes(t *testing.T) {
	net, _ := topology.Parse("mesh:4x4")
	for _, name := range []string{"poshop", "neghop"} {
		alg, _ := routing.Lookup(name)
		v, _ := alg.MinVCs(net)
		require.True(t, checkAlg(t, net, alg, v-1).OK(), "%s at %d VCs", name, v-1)
	}
}
