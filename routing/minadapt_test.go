package routing

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Lemma (BookSim2's OutputSet keeps one range per priority, src/outputset.hpp):
// at every router of a packet's walk, minadapt-booksim offers what minadapt
// offers with the adaptive choices (priority 0, outside the escape) cut to the
// first, which is in the lowest dimension still to correct; a packet in the
// escape is offered the same by both; on a mesh the adaptive choice left is on
// the escape's port, dimension order. The same holds of minadapt-booksim-islip
// against minadapt-islip with the escape at priority 0, told apart by its VCs.
// Checked over every source and destination of tori and meshes, each walk taking
// a random choice and VC of minadapt-booksim's at every hop.
func TestMinAdaptBookSimFirstDimension(t *testing.T) {
	for _, pair := range [][2]string{{"minadapt", "minadapt-booksim"}, {"minadapt-islip", "minadapt-booksim-islip"}} {
		for _, spec := range []string{"torus:6x6", "torus:5x5", "torus:4x4x4", "mesh:5x5", "mesh:4x3x3"} {
			net, err := topology.Parse(spec)
			require.NoError(t, err)
			g := net.(*topology.Grid)
			build := func(name string) *MinAdapt {
				alg, err := Lookup(name)
				require.NoError(t, err)
				v, err := alg.MinVCs(net)
				require.NoError(t, err)
				r, err := alg.New(net, v+1)
				require.NoError(t, err)
				return r.(*MinAdapt)
			}
			full, first := build(pair[0]), build(pair[1])
			esc := uint64(1)
			if g.Wrap() {
				esc = 3
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(spec))))
			adaptiveSeen := 0
			for src := range g.Nodes() {
				for dst := range g.Nodes() {
					h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
					first.Start(&h, rng)
					for at := src; ; {
						hf := h
						a := full.Route(at, &hf, nil)
						b := first.Route(at, &h, nil)
						if first.inEscape(&h) || at == dst {
							require.Equal(t, a, b, "%s, %s at %d for %d in the escape", pair[1], spec, at, dst)
						} else {
							var adA, adB []sim.Choice
							for _, c := range a {
								if c.VCs&esc == 0 {
									adA = append(adA, c)
								}
							}
							for _, c := range b {
								if c.VCs&esc == 0 {
									adB = append(adB, c)
								}
							}
							require.Len(t, adB, 1, "%s, %s at %d for %d", pair[1], spec, at, dst)
							require.Equal(t, adA[0], adB[0], "%s, %s at %d for %d", pair[1], spec, at, dst)
							require.Equal(t, a[len(adA):], b[1:], "%s, %s at %d for %d: the escape", pair[1], spec, at, dst)
							lowest := -1
							for i := range g.Dims() {
								if g.Offset(at, dst, i) != 0 {
									lowest = i
									break
								}
							}
							dim, _ := topology.PortDim(adB[0].Port)
							require.Equal(t, lowest, dim, "%s, %s at %d for %d", pair[1], spec, at, dst)
							if !g.Wrap() {
								require.Equal(t, b[1].Port, adB[0].Port, "%s, %s at %d for %d: dimension order", pair[1], spec, at, dst)
							}
							if len(adA) > 1 {
								adaptiveSeen++
							}
						}
						if at == dst {
							break
						}
						c := b[rng.IntN(len(b))]
						vc := pickBit(c.VCs, rng)
						first.Advance(at, &h, c.Port, vc)
						next, in := g.Link(at, c.Port)
						h.Hops++
						h.Port, h.InPort, h.VC = int32(c.Port), int32(in), int32(vc)
						at = next
					}
				}
			}
			// the cut happened: minadapt offered more than one adaptive choice
			require.Positive(t, adaptiveSeen, "%s on %s", pair[1], spec)
		}
	}
}

func pickBit(m uint64, r *rand.Rand) int {
	k := r.IntN(bits.OnesCount64(m))
	for ; k > 0; k-- {
		m &= m - 1
	}
	return bits.TrailingZeros64(m)
}
