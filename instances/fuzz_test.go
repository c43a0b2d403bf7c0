package instances

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseSpec reads topology specs ("mesh:4x4") and sides ("4x4x2"): never a
// panic; an error is a *SpecError naming the field; a spec read is one Build
// accepts or refuses with a *SpecError, and small ones build a valid network.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"mesh:4x4", "torus:8", "butterfly:16", "kary-tree:2x3", "levelled:4x5x2", "line", "fat-tree:16", "tree:9", "mesh:3x", "mesh:0x4", "hypercube:3", "mesh:4,4", "levelled:1x1x1x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := ParseSpec(spec)
		if err != nil {
			var se *SpecError
			require.ErrorAs(t, err, &se)
			require.NotEmpty(t, se.Error())
			return
		}
		require.Contains(t, Kinds, s.Kind)
		size := max(s.Size, s.K*s.Depth)
		for _, x := range s.Sides {
			size = max(size, x*len(s.Sides))
		}
		if size > 64 || s.Depth > 8 || len(s.Sides) > 3 || (s.Kind == "kary-tree" && s.K > 4) {
			return // keep the networks small
		}
		top, err := Build(s, Rand(1))
		if err != nil {
			var se *SpecError
			require.ErrorAs(t, err, &se, "%q: %v", spec, err)
			return
		}
		require.NotEmpty(t, top.Net.Edges)
		for _, e := range top.Net.Edges {
			require.True(t, e.From >= 0 && e.From < len(top.Net.Nodes) && e.To >= 0 && e.To < len(top.Net.Nodes))
		}
		require.NotEmpty(t, top.Routings)
		if strings.Contains(spec, ":") {
			require.Equal(t, s.Kind, top.Kind())
		}
	})
}

// FuzzParseSides: never a panic; every side read is positive and an error is a
// *SpecError of --sides.
func FuzzParseSides(f *testing.F) {
	for _, s := range []string{"4x4", "8", "2,2,2", "", "4x", "x", "0x1", "-1x2", "99999999999999999999x2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sides, err := ParseSides(text)
		if err != nil {
			var se *SpecError
			require.ErrorAs(t, err, &se)
			require.Equal(t, "sides", se.Field)
			return
		}
		require.NotEmpty(t, sides)
		for _, x := range sides {
			require.Positive(t, x)
		}
	})
}
