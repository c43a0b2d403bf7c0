package lower

import "testing"

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
