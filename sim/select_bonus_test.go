package sim

import (
	"testing"

	"pgregory.net/rapid"
)

// Property of the bonus selection: it returns an index of cands whose VC is the
// largest among cands, and among those with that VC, whose credits are the largest
// (the first such).
func TestSpendBonusPicksHighestVC(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "n")
		c := make([]Candidate, n)
		for i := range c {
			c[i] = Candidate{
				Port:    int32(rapid.IntRange(0, 5).Draw(t, "port")),
				VC:      int32(rapid.IntRange(0, 8).Draw(t, "vc")),
				Credits: int32(rapid.IntRange(0, 4).Draw(t, "credits")),
			}
		}
		got := SpendBonus{}.Select(c, nil)
		if got < 0 || got >= n {
			t.Fatalf("index %d outside 0..%d", got, n-1)
		}
		for i, x := range c {
			better := x.VC > c[got].VC || (x.VC == c[got].VC && x.Credits > c[got].Credits)
			earlierTie := x.VC == c[got].VC && x.Credits == c[got].Credits && i < got
			if better || earlierTie {
				t.Fatalf("picked %d (%+v) but %d (%+v) ranks first", got, c[got], i, x)
			}
		}
	})
}
