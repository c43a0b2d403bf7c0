package sim

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"
)

// TestPropertyFlatEqualsArbiter checks flatArbitration's contract for every
// registered arbitration: over any sequence of requester sets (masks of IDs below
// the arbiter's n, at most 64) and of used or unused grants, the rule's pick on
// a state starting at 0 chooses the ID that the arbiter NewArbiter makes chooses
// by Pick among the requests of the mask's IDs in increasing order, both drawing
// from equal random streams, and next follows Granted; so switch allocation may
// keep flat states and pick from masks without changing a run.
func TestPropertyFlatEqualsArbiter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(ArbitrationNames()).Draw(t, "arbitration")
		n := rapid.IntRange(1, 80).Draw(t, "n")
		seed := rapid.Uint64().Draw(t, "seed")
		pol, err := LookupArbitration(name)
		if err != nil {
			t.Fatal(err)
		}
		fa, ok := pol.(flatArbitration)
		if !ok {
			t.Fatalf("%s: not a flatArbitration", name)
		}
		rule := fa.flatRule()
		a := pol.NewArbiter(n, rand.New(rand.NewPCG(seed, 1)))
		rb := rand.New(rand.NewPCG(seed, 1))
		var state int32
		width := min(n, 64)
		all := ^uint64(0)
		if width < 64 {
			all = uint64(1)<<uint(width) - 1
		}
		steps := rapid.IntRange(1, 50).Draw(t, "steps")
		for s := range steps {
			m := rapid.Uint64().Draw(t, "mask") & all
			if m == 0 {
				m = 1
			}
			var reqs []Request
			for x := m; x != 0; x &= x - 1 {
				reqs = append(reqs, Request{ID: int32(bits.TrailingZeros64(x))})
			}
			want := reqs[a.Pick(reqs)].ID
			got := rule.pick(state, m, rb)
			if got != want {
				t.Fatalf("%s, step %d, mask %#x: pick %d, Pick %d", name, s, m, got, want)
			}
			if rapid.Bool().Draw(t, "granted") {
				a.Granted(want)
				state = rule.next(state, int32(n), got)
			}
		}
	})
}
