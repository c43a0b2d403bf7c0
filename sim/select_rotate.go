package sim

// BookSim2's separable VC allocator (allocators/separable_input_first.cpp, with
// routers/iq_router.cpp's requests; docs/booksim.md): every input VC has a
// round-robin arbiter over the router's output VCs, numbered port*V + vc, whose
// pointer moves past the output VC it was last granted. A head so asks for the
// first free output VC after its input VC's last grant, cyclically, and heads on
// different input VCs that want one port tend to ask for different VCs of it
// instead of all for the lowest free one.

import "math/rand/v2"

// RotateFree takes the first free candidate at or after the pointer of the head's
// input VC, in the order port*V + vc, cyclically (BookSim2's input arbiter).
type RotateFree struct{}

var _ RotatingSelector = RotateFree{}

func init() { RegisterSelector("rotate", RotateFree{}) }

// Select without a pointer is the pointer at 0.
func (s RotateFree) Select(c []Candidate, r *rand.Rand) int { return s.SelectAfter(c, 0, 1) }

// SelectAfter takes the candidate whose port*V + vc comes first at or after ptr,
// wrapping round past the highest.
func (RotateFree) SelectAfter(c []Candidate, ptr, V int32) int {
	best, bestKey := 0, int64(-1)
	for i, x := range c {
		k := int64(x.Port)*int64(V) + int64(x.VC) - int64(ptr)
		if k < 0 {
			k += 1 << 40 // after every output VC at or past the pointer
		}
		if bestKey < 0 || k < bestKey {
			best, bestKey = i, k
		}
	}
	return best
}
