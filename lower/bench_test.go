package lower

import (
	"context"
	"testing"

	"github.com/wormlab/wormlab/instances"
)

// The bounds of Bounds on the repaired prime construction, p = 7 (49 worms).
func BenchmarkBoundsPrime7(b *testing.B) {
	in, err := Prime(7, 15, true)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Bounds(in)
	}
}

// The section 3 analysis of the heavily loaded 32-input butterfly (160 worms).
func BenchmarkButterflyHeavy32(b *testing.B) {
	in, err := ButterflyProblem(32, "heavy", 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Butterfly(in, DefaultBudget); err != nil {
			b.Fatal(err)
		}
	}
}

// Independence number of the truncated path graph of the heavily loaded 64-input
// butterfly (384 worms), searched component by component.
func BenchmarkIndependentButterfly64(b *testing.B) {
	in, err := ButterflyProblem(64, "heavy", 0, 1)
	if err != nil {
		b.Fatal(err)
	}
	g := PathGraph(Truncate(in, 6))
	for b.Loop() {
		MaxIndependentSet(g, DefaultBudget)
	}
}

// BoundsWithin on 2*10^4 worms on a 50 x 50 mesh, the size at which stats used 6.1
// GB before the disjunctive bound counted its disjunctions before building them
// (B/op reports the memory; about 0.2 GB after).
func BenchmarkBoundsWithinMesh20k(b *testing.B) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{50, 50}, Messages: 20000, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		BoundsWithin(context.Background(), in, Limits{Budget: DefaultBudget})
	}
}
