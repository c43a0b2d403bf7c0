package deadlock

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// Issue 25's routings at their documented VC counts, each on at least two sizes
// (and both dragonfly arrangements, a trunk of two channels between groups, link
// multiplicity, networks from files), proved deadlock-free by the theorem each rests
// on (Dally and Seitz's acyclic graph; Duato's condition for DAL's escape); with one
// VC fewer, where the scheme needs every class, the checker names a cycle.
func TestTopologyRoutings(t *testing.T) {
	const df = "dragonfly:a=4,p=1,h=2"
	cases := []struct {
		routing string
		specs   []string
		fewer   []string
	}{
		{"df-min", []string{df, "dragonfly:a=3,p=1,h=1", "dragonfly:a=4,p=1,h=2,arrangement=palmtree", "dragonfly:a=4,p=1,h=2,g=5"}, []string{df, "dragonfly:a=3,p=1,h=1"}},
		{"df-valiant", []string{df, "dragonfly:a=3,p=1,h=1", "dragonfly:a=4,p=1,h=2,arrangement=palmtree", "dragonfly:a=4,p=1,h=2,g=5"}, []string{df, "dragonfly:a=3,p=1,h=1"}},
		{"df-ugal-l", []string{df, "dragonfly:a=3,p=1,h=1", "dragonfly:a=4,p=1,h=2,g=5"}, []string{df}},
		{"df-ugal-g", []string{df, "dragonfly:a=3,p=1,h=1", "dragonfly:a=4,p=1,h=2,arrangement=palmtree"}, []string{df}},
		{"df-par", []string{df, "dragonfly:a=3,p=1,h=1", "dragonfly:a=4,p=1,h=2,g=5"}, []string{df, "dragonfly:a=3,p=1,h=1"}},
		{"hx-dor", []string{"hyperx:3x3,t=1", "hyperx:4x3x2,k=1x2x1,t=1", "flatfly:k=3,n=3"}, nil},
		{"hx-dal", []string{"hyperx:3x3,t=1", "hyperx:4x3x2,k=1x2x1,t=1", "flatfly:k=3,n=3"}, []string{"hyperx:3x3,t=1", "flatfly:k=3,n=3"}},
		{"fly-tag", []string{"fly:k=2,n=3", "fly:k=3,n=3", "fly:k=4,n=2"}, nil},
		{"any-updown", []string{"file:../topology/testdata/ring4.json", "anynet:../topology/testdata/tree.anynet", "torus:4x4", "fattree:16"}, nil},
		{"any-min", []string{"file:../topology/testdata/ring4.json", "torus:4x4", "torus:5x3"}, []string{"file:../topology/testdata/ring4.json", "torus:4x4"}},
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

// any-min with more VCs than D gives hop h the h-th of D equal ranges of them
// (routing.TestAnyMinHopClasses): the ranges increase along every route, so the
// dependency graph stays acyclic at every count from D up (Dally and Seitz).
func TestAnyMinMoreVCs(t *testing.T) {
	alg, err := routing.Lookup("any-min")
	require.NoError(t, err)
	for _, spec := range []string{"dragonfly:a=4,p=1,h=2", "torus:4x4"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		d, err := alg.MinVCs(net)
		require.NoError(t, err)
		for _, v := range []int{d + 1, 2*d + 1, 8} {
			rep := checkAlg(t, net, alg, v)
			require.True(t, rep.OK(), "any-min on %s at %d VCs: %s", spec, v, rep.CycleString())
		}
	}
}

// Every routing refuses a topology it does not route on with an error naming both.
func TestTopologyRoutingsRefuseOthers(t *testing.T) {
	for name, spec := range map[string]string{
		"df-min": "torus:4x4", "df-valiant": "hyperx:3x3", "df-ugal-l": "fly:k=2,n=2", "df-ugal-g": "mesh:3x3",
		"hx-dor": "dragonfly:p=1", "hx-dal": "torus:4x4", "fly-tag": "hyperx:3x3", "dor": "dragonfly:p=1",
	} {
		alg, err := routing.Lookup(name)
		require.NoError(t, err)
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		_, err = alg.MinVCs(net)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), name)
	}
}

// A finding about BookSim2's UGAL on its dragonfly (src/networks/dragonfly.cpp,
// ugal_dragonflynew; routing.DFUGALBookSim): with the 3 VCs it asserts, and with
// more, its channel dependency graph has a cycle on VC 0 (phase 0 carries both a
// packet's first local hop and its local hop in the intermediate group), on
// BookSim's own k = 2 dragonfly (p = 2, a = 4, h = 2) and on smaller ones.
func TestBookSimUGALCycle(t *testing.T) {
	for _, spec := range []string{"dragonfly:p=2", "dragonfly:a=3,p=1,h=1", "dragonfly:a=2,p=1,h=1,g=3"} {
		for _, vcs := range []int{3, 6} {
			net, err := topology.Parse(spec)
			require.NoError(t, err)
			r, err := routing.NewDFUGALBookSim(net, vcs)
			require.NoError(t, err)
			rep, err := Check(context.Background(), net, r, vcs, "df-ugal-booksim")
			require.NoError(t, err)
			require.False(t, rep.OK(), "%s at %d VCs", spec, vcs)
			require.Len(t, rep.Cycle, 6, "%s: local, global, local, global, local, global", spec)
			for _, c := range rep.Cycle {
				require.Less(t, c.VC, vcs/3, "%s: the cycle stays in phase 0's VCs", spec)
			}
		}
	}
}
