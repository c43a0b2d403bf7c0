package routing

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Lemma (the promises the simulator and the deadlock checker rely on, for issue
// 25's routings): on small dragonflies (both arrangements, a trunk), HyperX and
// flattened butterflies, butterflies and networks from files, at the routing's
// minimum VC count and one more, every state reachable from a state Starts lists,
// by any offered choice and VC, is offered at least one choice short of its
// destination; every offered port has a link; every VC set is non-empty and below
// the VC count; Route gives at most MaxChoices (sim.Branching) choices and
// leaves the header unchanged; a packet arrives within its
// routing's hop bound (3 minimal and 5 non-minimal hops on a dragonfly, one hop per
// dimension with dimension order and two with DAL on a HyperX, n-1 on a k-ary
// n-fly); a minimal routing takes only hops that shorten the remaining route (a
// dragonfly's minimal route is minimal among routes with one global hop, not
// always in the graph: two global hops through a third group can be shorter); and
// every state Start gives under 64 seeds is one Starts lists.
func TestTopologyRoutingStates(t *testing.T) {
	cases := []struct {
		routing string
		specs   []string
		minimal bool
		bound   func(net topology.Network) int
	}{
		{"df-min", []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=4,p=2,h=2,g=5,arrangement=absolute", "dragonfly:a=3,p=1,h=1,arrangement=palmtree"}, false, func(topology.Network) int { return 3 }},
		{"df-valiant", []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=4,p=2,h=2,g=5", "dragonfly:a=3,p=1,h=1,arrangement=palmtree"}, false, func(topology.Network) int { return 5 }},
		{"df-ugal-l", []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=4,p=2,h=2,g=5"}, false, func(topology.Network) int { return 5 }},
		{"df-ugal-g", []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=3,p=1,h=1,arrangement=palmtree"}, false, func(topology.Network) int { return 5 }},
		{"df-par", []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=4,p=2,h=2,g=5", "dragonfly:a=3,p=1,h=1,arrangement=palmtree"}, false, func(topology.Network) int { return 6 }},
		{"hx-dor", []string{"hyperx:3x4,t=1", "hyperx:3x2x2,k=2x1x3,t=2", "flatfly:k=3,n=3"}, true, func(n topology.Network) int { return n.(*topology.HyperX).Dims() }},
		{"hx-dal", []string{"hyperx:3x4,t=1", "hyperx:3x2x2,k=2x1x3,t=2", "flatfly:k=3,n=3"}, false, func(n topology.Network) int { return 2 * n.(*topology.HyperX).Dims() }},
		{"fly-tag", []string{"fly:k=2,n=3", "fly:k=3,n=2"}, true, func(n topology.Network) int { return n.(*topology.Fly).N() - 1 }},
		{"any-min", []string{"file:../topology/testdata/ring4.json", "anynet:../topology/testdata/tree.anynet", "torus:3x4"}, true, func(n topology.Network) int { return n.Nodes() }},
		{"any-updown", []string{"file:../topology/testdata/ring4.json", "anynet:../topology/testdata/tree.anynet", "torus:3x4"}, false, func(n topology.Network) int { return 2 * n.Nodes() }},
	}
	for _, c := range cases {
		alg, err := Lookup(c.routing)
		require.NoError(t, err)
		for _, spec := range c.specs {
			net, err := topology.Parse(spec)
			require.NoError(t, err)
			min, err := alg.MinVCs(net)
			require.NoError(t, err)
			for v := min; v <= min+1; v++ {
				exhaustNet(t, c.routing, alg, net, v, c.minimal, c.bound(net))
			}
		}
	}
}

// The same promises of BookSim2's UGAL (not in the registry: its dependency graph
// has a cycle, package deadlock's TestBookSimUGALCycle), with its hop bound: a
// local, a global and two local hops to the intermediate router, a global and a
// local hop on.
func TestBookSimUGALStates(t *testing.T) {
	alg := Algorithm{Name: "df-ugal-booksim", New: func(net topology.Network, vcs int) (sim.Routing, error) { return NewDFUGALBookSim(net, vcs) }}
	for _, spec := range []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=3,p=1,h=1"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		for v := 3; v <= 4; v++ {
			exhaustNet(t, alg.Name, alg, net, v, false, 6)
		}
	}
}

// The same of its variants with the paper's rules (docs/dragonfly.md's trace): with
// the intermediate group the non-minimal route is a local, a global, then the
// minimal route on from the group's first router (at most 5 hops); the paper's VC
// classes keep the bound of 6.
func TestBookSimUGALVariantStates(t *testing.T) {
	for _, c := range []struct {
		groupMid, paperVCs bool
		bound              int
	}{{true, false, 5}, {false, true, 6}, {true, true, 5}} {
		alg := Algorithm{Name: "df-ugal-booksim-variant", New: func(net topology.Network, vcs int) (sim.Routing, error) {
			r, err := NewDFUGALBookSim(net, vcs)
			if err == nil {
				r.GroupMid, r.PaperVCs, r.Threshold, r.HopWeights = c.groupMid, c.paperVCs, 0, true
			}
			return r, err
		}}
		for _, spec := range []string{"dragonfly:a=4,p=1,h=2", "dragonfly:a=3,p=1,h=1"} {
			net, err := topology.Parse(spec)
			require.NoError(t, err)
			exhaustNet(t, alg.Name, alg, net, 3, false, c.bound)
		}
	}
}

// hopsTo is the breadth-first hop distance from every router to dst.
func hopsTo(net topology.Network, dst int) []int {
	d := make([]int, net.Nodes())
	for i := range d {
		d[i] = -1
	}
	d[dst] = 0
	for changed := true; changed; {
		changed = false
		for r := range net.Nodes() {
			for p := range net.Ports(r) {
				w, _ := net.Link(r, p)
				if w >= 0 && d[w] >= 0 && (d[r] < 0 || d[w]+1 < d[r]) {
					d[r], changed = d[w]+1, true
				}
			}
		}
	}
	return d
}

func exhaustNet(t *testing.T, name string, alg Algorithm, net topology.Network, v int, minimal bool, bound int) {
	t.Helper()
	r, err := alg.New(net, v)
	require.NoError(t, err)
	most := sim.MaxChoices(r)
	s, ok := r.(starter)
	require.True(t, ok, "%s lists no start states", name)
	valid := span(0, v)
	type st struct {
		at int
		h  sim.Header
	}
	for _, dst := range topology.Sinks(net) {
		dist := hopsTo(net, dst)
		for _, src := range topology.Sources(net) {
			if src == dst {
				continue
			}
			h0 := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
			starts := s.Starts(h0, nil)
			require.NotEmpty(t, starts)
			for seed := range uint64(64) {
				x := h0
				r.Start(&x, rand.New(rand.NewPCG(seed, 11)))
				require.Contains(t, starts, x, "%s on %s: Start gave a state Starts does not list", name, net)
			}
			seen := map[st]bool{}
			var stack []st
			for _, h := range starts {
				stack = append(stack, st{src, h})
			}
			for len(stack) > 0 {
				cur := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if seen[cur] || cur.at == dst {
					continue
				}
				seen[cur] = true
				require.Less(t, int(cur.h.Hops), bound, "%s on %s, %d VCs: %d -> %d passes its hop bound: %+v", name, net, v, src, dst, cur.h)
				h := cur.h
				ch := r.Route(cur.at, &h, nil)
				require.Equal(t, cur.h, h, "%s: Route changed the header", name)
				require.NotEmpty(t, ch, "%s on %s: no choice at %d for %+v", name, net, cur.at, cur.h)
				require.LessOrEqual(t, len(ch), most, "%s on %s: more choices than MaxChoices at %d for %+v", name, net, cur.at, cur.h)
				for _, c := range ch {
					require.True(t, c.Port >= 0 && c.Port < net.Ports(cur.at), "%s: port %d at %d", name, c.Port, cur.at)
					next, in := net.Link(cur.at, c.Port)
					require.GreaterOrEqual(t, next, 0, "%s: port %d at %d has no link", name, c.Port, cur.at)
					require.True(t, c.VCs != 0 && c.VCs&^valid == 0, "%s on %s, %d VCs: VC set %b", name, net, v, c.VCs)
					if minimal {
						require.Equal(t, dist[cur.at]-1, dist[next], "%s on %s: port %d at %d is not minimal towards %d", name, net, c.Port, cur.at, dst)
					}
					for m := c.VCs; m != 0; m &= m - 1 {
						vc := bits.TrailingZeros64(m)
						nh := cur.h
						r.Advance(cur.at, &nh, c.Port, vc)
						nh.Hops++
						nh.Port, nh.InPort, nh.VC = int32(c.Port), int32(in), int32(vc)
						stack = append(stack, st{next, nh})
					}
				}
			}
		}
	}
}
