package routing

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// starter is what the deadlock checker enumerates (package deadlock declares it as
// part of its Function); restated here so this test needs nothing from deadlock.
type starter interface {
	Starts(h sim.Header, out []sim.Header) []sim.Header
}

// Lemma (the checker's enumeration is exhaustive only if so): for every registered
// grid routing, on random tori and meshes of 1 to 3 dimensions (sides 2 to 8, even
// where the routing needs two colours), at its minimum VC count, every state Start
// gives a packet from a random source to a random destination under a random seed
// is one of the states Starts lists for that packet; and Starts lists at least one.
func TestStartsCoverStartAll(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(Names()).Draw(t, "routing")
		alg, _ := Lookup(name)
		dims := rapid.IntRange(1, 3).Draw(t, "dims")
		wrap := rapid.Bool().Draw(t, "wrap")
		sides := make([]int, dims)
		for i := range sides {
			sides[i] = 2 * rapid.IntRange(1, 4).Draw(t, fmt.Sprintf("half%d", i))
		}
		g, err := topology.NewGrid(sides, wrap)
		require.NoError(t, err)
		v, err := alg.MinVCs(g)
		if err != nil {
			t.Skip("routing does not apply: ", err)
		}
		r, err := alg.New(g, v)
		require.NoError(t, err)
		s, ok := r.(starter)
		require.True(t, ok, "%s lists no start states", name)
		src := rapid.IntRange(0, g.Nodes()-1).Draw(t, "src")
		dst := rapid.IntRange(0, g.Nodes()-1).Draw(t, "dst")
		h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
		all := s.Starts(h, nil)
		require.NotEmpty(t, all)
		for range 4 {
			x := h
			r.Start(&x, rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7)))
			require.Contains(t, all, x, "%s on %s: Start gave a state Starts does not list", name, g)
		}
	})
}
