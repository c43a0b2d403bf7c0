package routing

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Lemma (the promises the simulator and the deadlock checker rely on, state by
// state rather than along one sampled walk): for every registered grid routing on
// small tori and meshes (odd and even sides), at its minimum VC count and at one and
// two more, every state reachable from a state Starts lists, by any offered choice
// and VC, is offered at least one choice short of its destination and at most
// MaxChoices (sim.Branching, which the simulator's memory estimate counts); every offered
// port has a link; every offered VC set is non-empty and below the VC count; a
// minimal routing offers only ports that bring the packet one hop nearer; Route
// leaves the header unchanged (the simulator routes its own copy, the checker a
// scratch copy); and every state Start gives under 64 seeds is listed by Starts.
func TestEveryReachableStateExhaustive(t *testing.T) {
	grids := [][]int{{3, 3}, {4, 4}, {5, 3}, {4, 3, 2}}
	for _, name := range Names() {
		alg, _ := Lookup(name)
		for _, sides := range grids {
			for _, wrap := range []bool{false, true} {
				g, err := topology.NewGrid(sides, wrap)
				if err != nil {
					t.Fatal(err)
				}
				min, err := alg.MinVCs(g)
				if err != nil {
					continue
				}
				for v := min; v <= min+2 && v <= 64; v++ {
					exhaust(t, name, alg, g, v)
				}
			}
		}
	}
}

func exhaust(t *testing.T, name string, alg Algorithm, g *topology.Grid, v int) {
	t.Helper()
	r, err := alg.New(g, v)
	if err != nil {
		t.Fatalf("%s on %s, %d VCs: %v", name, g, v, err)
	}
	most := sim.MaxChoices(r)
	s, ok := r.(starter)
	if !ok {
		t.Fatalf("%s lists no start states", name)
	}
	valid := uint64(1)<<uint(v) - 1
	if v == 64 {
		valid = ^uint64(0)
	}
	type st struct {
		at int
		h  sim.Header
	}
	for src := range g.Nodes() {
		for dst := range g.Nodes() {
			if src == dst {
				continue
			}
			h0 := sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}
			starts := s.Starts(h0, nil)
			for seed := range uint64(64) {
				x := h0
				r.Start(&x, rand.New(rand.NewPCG(seed, 11)))
				found := false
				for _, y := range starts {
					found = found || y == x
				}
				if !found {
					t.Fatalf("%s on %s, %d VCs: Start gave %+v for %s -> %s, not among Starts %+v", name, g, v, x, g.NodeName(src), g.NodeName(dst), starts)
				}
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
				if int(cur.h.Hops) > 4*g.Nodes() {
					t.Fatalf("%s on %s, %d VCs: %s -> %s does not arrive", name, g, v, g.NodeName(src), g.NodeName(dst))
				}
				h := cur.h
				ch := r.Route(cur.at, &h, nil)
				if h != cur.h {
					t.Fatalf("%s on %s, %d VCs: Route changed the header %+v to %+v", name, g, v, cur.h, h)
				}
				if len(ch) == 0 {
					t.Fatalf("%s on %s, %d VCs: no choice at %s for %+v", name, g, v, g.NodeName(cur.at), cur.h)
				}
				if len(ch) > most {
					t.Fatalf("%s on %s, %d VCs: %d choices at %s for %+v, MaxChoices says %d", name, g, v, len(ch), g.NodeName(cur.at), cur.h, most)
				}
				for _, c := range ch {
					if c.Port < 0 || c.Port >= g.Ports(cur.at) {
						t.Fatalf("%s on %s: port %d at %s", name, g, c.Port, g.NodeName(cur.at))
					}
					next, in := g.Link(cur.at, c.Port)
					if next < 0 {
						t.Fatalf("%s on %s: port %d at %s has no link", name, g, c.Port, g.NodeName(cur.at))
					}
					if c.VCs == 0 || c.VCs&^valid != 0 {
						t.Fatalf("%s on %s, %d VCs: VC set %b at %s for %+v", name, g, v, c.VCs, g.NodeName(cur.at), cur.h)
					}
					if !nonMinimal[name] && g.Distance(next, dst) != g.Distance(cur.at, dst)-1 {
						t.Fatalf("%s on %s, %d VCs: port %d at %s is not minimal toward %s (%+v)", name, g, v, c.Port, g.NodeName(cur.at), g.NodeName(dst), cur.h)
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
