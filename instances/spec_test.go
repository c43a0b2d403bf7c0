package instances

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseSpec(t *testing.T) {
	for spec, want := range map[string]Spec{
		"mesh:3x4":       {Kind: "mesh", Sides: []int{3, 4}},
		"torus:8":        {Kind: "torus", Sides: []int{8}},
		"butterfly:16":   {Kind: "butterfly", Size: 16},
		"kary-tree:3x2":  {Kind: "kary-tree", K: 3, Depth: 2},
		"levelled:4x5":   {Kind: "levelled", Size: 4, Depth: 5},
		"levelled:4x5x3": {Kind: "levelled", Size: 4, Depth: 5, K: 3},
		"line":           {Kind: "line"},
	} {
		got, err := ParseSpec(spec)
		require.NoError(t, err, spec)
		require.Equal(t, want, got, spec)
	}
	for spec, msg := range map[string]string{
		"hypercube:3":   `unknown kind "hypercube"`,
		"mesh:3x":       `want positive integers`,
		"kary-tree:0x2": `0 is below 1`,
		"kary-tree:2":   `want [2] numbers`,
		"line:a":        `"a" is not an integer`,
	} {
		_, err := ParseSpec(spec)
		require.ErrorContains(t, err, msg, spec)
		var se *SpecError
		require.ErrorAs(t, err, &se)
		require.Equal(t, "topology", se.Field)
	}
}

// A parameter the kind does not use is refused, not silently ignored (gen mesh
// --size 99 used to give a mesh without sides' error far from the cause).
func TestBuildRejectsUnusedParameters(t *testing.T) {
	for _, c := range []struct {
		s     Spec
		field string
	}{
		{Spec{Kind: "mesh", Sides: []int{3, 3}, Size: 99}, "size"},
		{Spec{Kind: "butterfly", Size: 8, Sides: []int{2}}, "sides"},
		{Spec{Kind: "line", Size: 4, K: 2}, "k"},
		{Spec{Kind: "kary-tree", K: -1}, "k"},
	} {
		_, err := Build(c.s, Rand(1))
		var se *SpecError
		require.ErrorAs(t, err, &se, "%+v", c.s)
		require.Equal(t, c.field, se.Field, "%+v: %v", c.s, err)
	}
}

// Routings are values the topology offers; Routing looks one up by name (the
// command line's registry) and Path uses the value.
func TestRoutingValues(t *testing.T) {
	top, err := Mesh(4, 4)
	require.NoError(t, err)
	require.Equal(t, []string{DimensionOrder, RandomShortest, OneBend}, top.Routings)
	def, err := top.Routing("")
	require.NoError(t, err)
	require.IsType(t, DimensionOrderRouting{}, def)
	ob, err := top.Routing(OneBend)
	require.NoError(t, err)
	require.IsType(t, OneBendRouting{}, ob)
	_, err = top.Routing(Deterministic)
	var se *SpecError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "routing", se.Field)
	// Dimension order from (0,0) to (2,3): two hops in dimension 0, then three in 1.
	p, err := def.Path(0, 2*4+3, Rand(1))
	require.NoError(t, err)
	require.Len(t, p, 5)
	require.Equal(t, "0,0->1,0", top.Net.EdgeName(p[0]))
	require.Equal(t, "2,2->2,3", top.Net.EdgeName(p[4]))
	ft, err := FatTree(16)
	require.NoError(t, err)
	require.Equal(t, []string{RandomShortest, Deterministic}, ft.Routings)
	det, err := ft.Routing(Deterministic)
	require.NoError(t, err)
	a, err := det.Path(0, 15, Rand(1))
	require.NoError(t, err)
	b, err := det.Path(0, 15, Rand(2))
	require.NoError(t, err)
	require.Equal(t, a, b, "deterministic up-links do not depend on the random source")
}
