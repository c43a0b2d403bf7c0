package certify

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// randomInstance draws a small instance on a mesh, a tree or a butterfly, with a
// length per message.
func randomInstance(t *rapid.T) *model.Instance {
	kind := rapid.SampledFrom([]string{"mesh", "tree", "butterfly"}).Draw(t, "kind")
	sp := instances.Spec{Kind: kind, Messages: rapid.IntRange(2, 7).Draw(t, "messages"), Seed: rapid.Uint64().Draw(t, "seed")}
	switch kind {
	case "mesh":
		sp.Sides = []int{rapid.IntRange(2, 3).Draw(t, "w"), rapid.IntRange(2, 3).Draw(t, "h")}
	case "tree":
		sp.Size = rapid.IntRange(3, 8).Draw(t, "size")
	case "butterfly":
		sp.Size = 4
	}
	in, err := instances.Generate(sp)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in.Messages {
		in.Messages[i].L = rapid.IntRange(1, 4).Draw(t, "L")
	}
	if len(in.Messages) == 0 {
		t.Skip("no messages")
	}
	return in
}

// Carlier's theorem for one machine with release dates and tails: the optimum of
// the preemptive relaxation (Jackson's rule, model.Instance.EdgeBound) equals
// max over sets S of min_S r + sum_S p + min_S q (minus one in MODEL.md's time
// convention). So the edge certificate, which names S, is exactly as strong as the
// per-edge bound of MODEL.md on every edge.
func TestEdgeWitnessIsJackson(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := randomInstance(t)
		for e, us := range in.Users() {
			if len(us) == 0 {
				continue
			}
			s, v := bestEdgeSet(in, e, us)
			if want := in.EdgeBound(us); v != want {
				t.Fatalf("edge %d: witness %v gives %d, EdgeBound %d", e, s, v, want)
			}
			got, _, err := edgeValue(in, e, s)
			if err != nil || got != v {
				t.Fatalf("edge %d: edgeValue %d, %v", e, got, err)
			}
		}
	})
}

// Every lower bound of MODEL.md (dilation, c_L, the per-edge bound) is found by
// closedForm with a witness that checkBound accepts: a schedule that meets
// model.Instance.LowerBound always gets a closed-form certificate.
func TestClosedFormFindsModelBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := randomInstance(t)
		lb := in.LowerBound()
		b, err := closedForm(in, lb.Value)
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			t.Fatalf("no closed-form bound of value %d (%s)", lb.Value, lb.Name)
		}
		if err := checkBound(in, b); err != nil {
			t.Fatal(err)
		}
		// And nothing above the model's best bound is claimed.
		if _, err := closedForm(in, lb.Value-1); err == nil && lb.Value > 1 {
			t.Fatalf("a target below the bound %d was accepted", lb.Value)
		}
	})
}

func TestCheckBoundArithmetic(t *testing.T) {
	in := generateT(t, instances.Spec{Kind: "mesh", Sides: []int{3, 3}, Messages: 6, Flits: 2, Seed: 3})
	m := &in.Messages[0]
	b := &Bound{Name: BoundDilation, Value: len(m.Path) + 1, Messages: []string{m.ID}}
	b.Arithmetic = fmt.Sprintf("d %d + L 2 - 1 = %d", len(m.Path), len(m.Path)+1)
	require.NoError(t, checkBound(in, b))
	b.Value++
	require.ErrorContains(t, checkBound(in, b), "the instance gives")
}

func generateT(t *testing.T, sp instances.Spec) *model.Instance {
	in, err := instances.Generate(sp)
	require.NoError(t, err)
	return in
}
