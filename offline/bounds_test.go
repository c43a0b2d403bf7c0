package offline

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// Seed 002, sections 4.3-4.5, in closed form: the tree bound is (2L - 1) 2 (c - 1) +
// d + L - 1 and the mesh bound 2^k k! ((2L - 1) k (c - 1) + d + L - 1), both computed
// here from c, d, L; each is at least the plan's own bound (Plan.Bound, per part),
// which is at least the constructed makespan. ColourBound is the paper's largest
// colour (2L - 1) k (c - 1) + L, and a message's last colour is never above it.
func TestClosedFormBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tree := rapid.Bool().Draw(t, "tree")
		k := 2
		var in *model.Instance
		if tree {
			in = treeInstance(t)
		} else {
			k = rapid.IntRange(1, 3).Draw(t, "k")
			in = meshInstance(t, k)
		}
		ms := in.Measure()
		c, d, l := ms.C, ms.D, ms.LMax
		colours := (2*l-1)*k*(c-1) + l
		require.Equal(t, colours, ColourBound(k, c, l))
		var closed int
		var err error
		order := OrderTree
		if tree {
			closed, err = TreeBound(in)
			require.NoError(t, err)
			require.Equal(t, colours-1+d, closed, "section 4.3: k = 2")
		} else {
			order = OrderMesh
			closed, err = MeshBound(in)
			require.NoError(t, err)
			classes := 1 << k
			for j := 2; j <= k; j++ {
				classes *= j
			}
			require.Equal(t, classes*(colours-1+d), closed, "section 4.4: 2^k k! classes in turn")
		}
		plan, err := ColorerBound(in, order)
		require.NoError(t, err)
		require.LessOrEqual(t, plan, closed)
		res, err := Color(in, Options{Order: order})
		require.NoError(t, err)
		require.Equal(t, plan, res.Bound)
		require.LessOrEqual(t, res.Constructed, plan)
		if !tree {
			return
		}
		for q, s := range res.Starts {
			// 1-based colours s+1 .. s+L_q; the last is within ColourBound.
			require.LessOrEqual(t, s+in.Messages[q].L, ColourBound(2, c, l))
		}
	})
}

// The closed forms refuse instances outside their setting, as the plans do.
func TestClosedFormBoundsRefuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, 2)
		if IsTree(in.Net) {
			t.Skip("a 2-node mesh is a tree")
		}
		_, err := TreeBound(in)
		require.Error(t, err)
	})
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"],["b","c"]]}, "messages": [{"id":"m","path":["a","b","c"]}]}`))
	require.NoError(t, err)
	_, err = MeshBound(in)
	require.Error(t, err)
	_, err = ColorerBound(in, "spiral")
	require.ErrorContains(t, err, "unknown order")
}

// A part's congestion, dilation and largest length are maxima of counts over its
// messages, so they do not depend on the order the messages are counted in:
// partStatsJoint (every message once, in index order, a load per part and edge)
// equals partStatsApart (part by part, in the parts' order), on mesh plans of one
// to three dimensions, whose parts are the classes of section 4.4.
func TestPartStatsJointIsApart(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, rapid.IntRange(1, 3).Draw(t, "k"))
		plan, err := MeshPlan(in)
		require.NoError(t, err)
		ps := model.PathsOf(in)
		joint, _ := plan.partStatsJoint(ps, false)
		require.Equal(t, plan.partStatsApart(ps), joint)
	})
}
