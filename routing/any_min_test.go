package routing

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Lemma (any-min's hop classes): with vcs at least D, the longest shortest route,
// a packet's h-th hop is offered exactly the VCs h*vcs/D .. (h+1)*vcs/D - 1, so
// the classes of successive hops are disjoint and increasing (the VC order along
// every route stays strict) and each hop has vcs/D of the VCs, not one. Walked
// along every route the routing offers, on a dragonfly (D = 3), a torus and a ring
// from a file, at D VCs and at 8.
func TestAnyMinHopClasses(t *testing.T) {
	for _, spec := range []string{"dragonfly:a=4,p=2,h=2", "torus:4x3", "file:../topology/testdata/ring4.json"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		alg, err := Lookup("any-min")
		require.NoError(t, err)
		d, err := alg.MinVCs(net)
		require.NoError(t, err)
		for _, vcs := range []int{d, 8} {
			r, err := alg.New(net, vcs)
			require.NoError(t, err)
			want := func(h int) uint64 {
				var m uint64
				for v := h * vcs / d; v < (h+1)*vcs/d; v++ {
					m |= 1 << uint(v)
				}
				return m
			}
			seen := 0
			var walk func(at int, h sim.Header)
			walk = func(at int, h sim.Header) {
				if at == int(h.Dst) {
					return
				}
				for _, c := range r.Route(at, &h, nil) {
					require.Equal(t, want(int(h.Hops)), c.VCs, "%s, %d VCs: hop %d at router %d to %d", spec, vcs, h.Hops, at, h.Dst)
					require.Equal(t, (h.Hops+1)*int32(vcs)/int32(d)-h.Hops*int32(vcs)/int32(d), int32(bits.OnesCount64(c.VCs)))
					seen++
					nh := h
					nh.Hops++
					next, _ := net.Link(at, c.Port)
					walk(next, nh)
				}
			}
			for _, s := range topology.Sources(net) {
				for _, dst := range topology.Sinks(net) {
					if s != dst {
						walk(s, sim.Header{Dst: int32(dst)})
					}
				}
			}
			require.Positive(t, seen, spec)
		}
	}
}
