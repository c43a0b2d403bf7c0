package sim

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/topology"
)

// Every pattern's declared parameters (RegisterPattern's reads) are exactly those
// that change where its packets go: on an 8x8 torus, each pattern built with one
// parameter set away from its default (two hot terminals, a hot fraction of 1/2, a
// radius of 2) draws other destinations from the same random stream if and only if
// it declares that parameter. Patterns that do not fit the torus (the dragonfly's)
// are skipped; local, localsq and hotspot must be among those checked.
func TestPatternReadsWhatItDeclares(t *testing.T) {
	net, err := topology.Parse("torus:8x8")
	require.NoError(t, err)
	base := PatternParams{Net: net, Seed: 1}
	varied := map[PatternParam]PatternParams{
		ParamHot:         {Net: net, Seed: 1, Hot: []int{5, 9}},
		ParamHotFraction: {Net: net, Seed: 1, HotFraction: 0.5},
		ParamRadius:      {Net: net, Seed: 1, Radius: 2},
	}
	dests := func(p Pattern) []int {
		r := rand.New(rand.NewPCG(7, 7))
		out := make([]int, 0, 2000)
		for i := range 2000 {
			out = append(out, p.Dest(i%64, r))
		}
		return out
	}
	checked := map[string]bool{}
	for _, name := range PatternNames() {
		p0, err := NewPattern(name, base)
		if err != nil {
			continue // not on a torus
		}
		want := dests(p0)
		for param, pp := range varied {
			p1, err := NewPattern(name, pp)
			require.NoError(t, err, "%s with %s", name, param)
			reads := !slices.Equal(want, dests(p1))
			require.Equal(t, reads, PatternReads(name, param), "%s: reads %s", name, param)
		}
		checked[name] = true
	}
	for _, name := range []string{"local", "localsq", "hotspot", "uniform"} {
		require.True(t, checked[name], name)
	}
	require.Equal(t, []string{"local", "localsq"}, PatternsReading(ParamRadius))
}
