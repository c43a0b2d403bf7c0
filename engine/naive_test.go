package engine

import (
	"context"
	"testing"

	"pgregory.net/rapid"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// naive is a reference for the step rule of doc.go written without events: every
// step it looks at every released worm. It shares the arbiter with the engine and
// nothing else. It returns the crossing times, or nil on a stall.
func naive(in *model.Instance, pol Policy, rel []int, rotate bool) [][]int {
	n := len(in.Messages)
	h := make([]int, n)
	cross := make([][]int, n)
	holder := make([]int, len(in.Net.Edges))
	for f := range holder {
		holder[f] = -1
	}
	arb := pol.Arbiter(len(in.Net.Edges), nil)
	m := func(i int) *model.Message { return &in.Messages[i] }
	doneAll := func() bool {
		for i := range h {
			if h[i] < m(i).D()+m(i).L {
				return false
			}
		}
		return true
	}
	limit := 1
	for i := range rel {
		limit = max(limit, rel[i]) + m(i).D() + m(i).L
	}
	for t := 1; !doneAll(); t++ {
		if t > limit {
			return nil
		}
		reqs := map[int][]Request{}
		var order []int
		drain := map[int]bool{}
		for i := 0; i < n; i++ {
			d, l := m(i).D(), m(i).L
			if rel[i] >= t || h[i] >= d+l {
				continue
			}
			if h[i] >= d {
				drain[i] = true
				continue
			}
			f := m(i).Path[h[i]]
			if j := holder[f]; j >= 0 && h[j]-m(j).L+1 != indexOf(m(j).Path, f)+1 {
				continue
			}
			u := in.Net.Edges[f].From
			r := Request{Msg: int32(i), Port: int32(len(in.Net.In(u))), In: -1, Rem: int32(d - h[i]), Rel: rel[i]}
			if h[i] > 0 {
				g := m(i).Path[h[i]-1]
				r.In, r.Port = int32(g), int32(indexOf(in.Net.In(u), g))
			}
			if len(reqs[f]) == 0 {
				order = append(order, f)
			}
			reqs[f] = append(reqs[f], r)
		}
		win := map[int]int{}
		for _, f := range order {
			rs := reqs[f]
			win[f] = int(rs[arb.Pick(f, rs, int32(len(in.Net.In(in.Net.Edges[f].From))))].Msg)
		}
		var moves func(w int, seen map[int]bool) bool
		moves = func(w int, seen map[int]bool) bool {
			if seen[w] {
				return rotate // a closed chain of tails
			}
			seen[w] = true
			f := m(w).Path[h[w]]
			j := holder[f]
			if j < 0 || drain[j] {
				return true
			}
			g := m(j).Path[h[j]]
			if wg, ok := win[g]; !ok || wg != j {
				return false
			}
			return moves(j, seen)
		}
		var movers []int
		for i := 0; i < n; i++ {
			if drain[i] {
				movers = append(movers, i)
			}
		}
		for _, f := range order {
			w := win[f]
			if moves(w, map[int]bool{}) {
				movers = append(movers, w)
				u := in.Net.Edges[f].From
				port := int32(len(in.Net.In(u)))
				if h[w] > 0 {
					port = int32(indexOf(in.Net.In(u), m(w).Path[h[w]-1]))
				}
				arb.Granted(f, port, int32(len(in.Net.In(u))))
			}
		}
		for _, i := range movers {
			if k := h[i] + 1 - m(i).L; k >= 1 && k <= m(i).D() {
				holder[m(i).Path[k-1]] = -1
			}
		}
		for _, i := range movers {
			if h[i] < m(i).D() {
				holder[m(i).Path[h[i]]] = i
				cross[i] = append(cross[i], t)
			}
			h[i]++
		}
	}
	return cross
}

func indexOf(xs []int, x int) int {
	for k, y := range xs {
		if y == x {
			return k
		}
	}
	return -1
}

// Property (doc.go, cost): the event-driven engine, which lets worms sleep and wakes
// them on events, takes exactly the steps of the plain step rule applied to every
// worm in every step, under every deterministic policy, with and without rotation
// of closed chains of tails.
func TestEngineMatchesNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, false)
		rel := make([]int, len(in.Messages))
		for i := range rel {
			rel[i] = rapid.IntRange(0, 6).Draw(t, "release")
		}
		rotate := rapid.Bool().Draw(t, "rotate")
		for _, arb := range []string{ArbMessage, ArbInput, ArbRoundRobin, ArbFarthest, ArbOldest} {
			pol, _ := Lookup(arb)
			want := naive(in, pol, rel, rotate)
			e, err := New(in, Config{Arb: arb, Rotate: rotate})
			require.NoError(t, err)
			for i, r := range rel {
				require.NoError(t, e.Release(i, r))
			}
			err = e.Run(t.Context(), -1)
			if want == nil {
				require.Error(t, err, "policy %s: naive stalls", arb)
				continue
			}
			require.NoError(t, err, "policy %s", arb)
			for i := range in.Messages {
				if !assert.Equal(t, want[i], e.Cross(i), "policy %s message %d", arb, i) {
					js, _ := in.MarshalJSON()
					t.Fatalf("instance %s\nreleases %v\nnaive %v", js, rel, want)
				}
			}
		}
	})
}

// The same comparison on medium instances: Ranade's heavy butterfly problem (N = 16,
// L = 4), a 5 x 5 mesh with 80 worms (L = 3) and a 6-node torus ring with 12 worms,
// under staggered releases.
func TestEngineMatchesNaiveMedium(t *testing.T) {
	specs := []instances.Spec{
		{Kind: "butterfly", Size: 16, Traffic: "heavy", Flits: 4, Seed: 3},
		{Kind: "mesh", Sides: []int{5, 5}, Traffic: "random", Messages: 80, Flits: 3, Seed: 4},
		{Kind: "torus", Sides: []int{6}, Traffic: "random", Messages: 12, Flits: 2, Seed: 5},
	}
	for _, s := range specs {
		in, err := instances.Generate(s)
		require.NoError(t, err)
		rel := make([]int, len(in.Messages))
		for i := range rel {
			rel[i] = (i * 7) % 5
		}
		for _, arb := range []string{ArbMessage, ArbInput, ArbRoundRobin, ArbFarthest, ArbOldest} {
			pol, _ := Lookup(arb)
			want := naive(in, pol, rel, false)
			e, err := New(in, Config{Arb: arb})
			require.NoError(t, err)
			for i, r := range rel {
				require.NoError(t, e.Release(i, r))
			}
			err = e.Run(context.Background(), -1)
			if want == nil {
				require.Error(t, err, "%s %s", in.Name, arb)
				continue
			}
			require.NoError(t, err)
			for i := range in.Messages {
				require.Equal(t, want[i], e.Cross(i), "%s %s message %d", in.Name, arb, i)
			}
		}
	}
}
