package routing

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// nonMinimal names the registered routings that may take more hops than the
// distance (Valiant's detour through its intermediate node; up*/down* routes,
// shortest among legal ones only).
var nonMinimal = map[string]bool{"valiant": true, "any-updown": true}

// Lemma (what every routing promises the simulator, checked independently of the
// deadlock checker): for every registered grid routing at its minimum VC count on
// random tori and meshes, a packet that follows ANY of the offered choices (a random
// one, and a random VC of its set) from a random start state is offered at least one
// choice at every router short of its destination, every choice names a port of a
// link and a non-empty set of existing VCs, and it arrives; a minimal routing
// arrives in exactly the grid distance, Valiant in at most twice the diameter.
func TestEveryChoiceLeadsHome(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(Names()).Draw(t, "routing")
		alg, _ := Lookup(name)
		dims := rapid.IntRange(1, 3).Draw(t, "dims")
		if name == "northlast" || name == "westfirst" {
			dims = 2
		}
		wrap := rapid.Bool().Draw(t, "wrap")
		sides := make([]int, dims)
		for i := range sides {
			sides[i] = rapid.IntRange(2, 9).Draw(t, fmt.Sprintf("side%d", i))
		}
		g, err := topology.NewGrid(sides, wrap)
		require.NoError(t, err)
		v, err := alg.MinVCs(g)
		if err != nil {
			t.Skip("routing does not apply: ", err)
		}
		r, err := alg.New(g, v)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 3))
		src := rapid.IntRange(0, g.Nodes()-1).Draw(t, "src")
		dst := rapid.IntRange(0, g.Nodes()-1).Draw(t, "dst")
		h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
		r.Start(&h, rng)
		at, hops := src, 0
		valid := uint64(1)<<uint(v) - 1
		if v == 64 {
			valid = ^uint64(0)
		}
		for at != dst {
			ch := r.Route(at, &h, nil)
			require.NotEmpty(t, ch, "%s on %s: no choice at %s for %s", name, g, g.NodeName(at), g.NodeName(dst))
			for _, c := range ch {
				require.True(t, c.Port >= 0 && c.Port < g.Ports(at), "%s: port %d", name, c.Port)
				next, _ := g.Link(at, c.Port)
				require.GreaterOrEqual(t, next, 0, "%s: port %d at %s has no link", name, c.Port, g.NodeName(at))
				require.NotZero(t, c.VCs, "%s: empty VC set", name)
				require.Zero(t, c.VCs&^valid, "%s: VC beyond %d in %b", name, v, c.VCs)
			}
			c := ch[rng.IntN(len(ch))]
			vcs := make([]int, 0, bits.OnesCount64(c.VCs))
			for m := c.VCs; m != 0; m &= m - 1 {
				vcs = append(vcs, bits.TrailingZeros64(m))
			}
			vc := vcs[rng.IntN(len(vcs))]
			r.Advance(at, &h, c.Port, vc)
			next, in := g.Link(at, c.Port)
			h.Hops++
			h.Port, h.InPort, h.VC = int32(c.Port), int32(in), int32(vc)
			at = next
			hops++
			require.LessOrEqual(t, hops, 2*g.Diameter()+1, "%s on %s: route does not end", name, g)
		}
		if !nonMinimal[name] {
			require.Equal(t, g.Distance(src, dst), hops, "%s on %s: %s -> %s not minimal", name, g, g.NodeName(src), g.NodeName(dst))
		}
	})
}
