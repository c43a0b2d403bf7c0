package routing

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// BenchmarkRouteDecision times the routing decision alone on the 16x16 torus: one
// op is a whole route of a random packet (Start, then Route and Advance at every
// hop, taking the first choice's lowest VC), reported per hop as ns/hop, for each
// algorithm at its minimum VC count.
//
//	go test ./routing -run '^$' -bench RouteDecision
func BenchmarkRouteDecision(b *testing.B) {
	net, err := topology.Parse("torus:16x16")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range Names() {
		alg, _ := Lookup(name)
		v, err := alg.MinVCs(net)
		if err != nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			r, err := alg.New(net, v)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var out []sim.Choice
			hops := 0
			for b.Loop() {
				src, dst := rng.IntN(net.Nodes()), rng.IntN(net.Nodes())
				h := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
				r.Start(&h, rng)
				for at := src; at != dst; hops++ {
					out = r.Route(at, &h, out[:0])
					c := out[0]
					vc := bits.TrailingZeros64(c.VCs)
					r.Advance(at, &h, c.Port, vc)
					next, in := net.Link(at, c.Port)
					h.Hops++
					h.Port, h.InPort, h.VC = int32(c.Port), int32(in), int32(vc)
					at = next
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(hops, 1)), "ns/hop")
		})
	}
}
