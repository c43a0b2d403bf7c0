package offline

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// A finding on section 4.4: "each of these parts can be scheduled separately and
// then combined", with 2^k k! (k(c-1)+1) colours in all. Read as stacking the
// classes' colour ranges (class j's colours after class j-1's), the combination is
// not legal: p (class +0+1) crosses edge 2,1->3,1 as its 3rd hop, q (class +1+0) as
// its 2nd, so with p coloured 0 and q coloured 1, the first after p's range, both
// cross it in step 3. The instance is kept in testdata/stacked-classes.json. Color
// instead starts each class when the previous one is delivered, which costs d - 1
// more steps per class (see doc.go); this test documents that the counterexample
// exists and that Color's schedule is legal on it.
func TestMeshStackedColourRangesConflict(t *testing.T) {
	f, err := os.Open("testdata/stacked-classes.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)

	res, err := Color(in, Options{Order: OrderMesh})
	require.NoError(t, err)
	require.Equal(t, []string{"+0+1", "+1+0"}, res.Plan.Names, "p and q are in different classes")
	require.NoError(t, verify.Schedule(in, res.Schedule))

	// Stack the classes' colour ranges: each class uses (2L-1)k(c_j-1)+L colours.
	stats, _ := res.Plan.partStats(model.PathsOf(in), false)
	stacked := make([]int, len(in.Messages))
	base := 0
	for pi, part := range res.Plan.Parts {
		c, l := stats[pi].c, stats[pi].l
		for _, i := range part {
			stacked[i] = base + res.Starts[i] - offsetOf(res, i)
		}
		base += StartBound(res.K, c, l) + l
	}
	require.Equal(t, []int{0, 1}, stacked)
	err = verify.Schedule(in, model.FromStarts(in, stacked))
	require.Error(t, err, "stacked colour ranges of different classes collide on this instance")
	require.ErrorContains(t, err, "2,1->3,1")
}

// offsetOf returns the first step of the part holding message i.
func offsetOf(res *Result, i int) int {
	for pi, part := range res.Plan.Parts {
		for _, j := range part {
			if j == i {
				return res.Offsets[pi]
			}
		}
	}
	return 0
}
