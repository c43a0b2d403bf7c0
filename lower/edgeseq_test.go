package lower

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// Found by `wormlab adversary --network line:6 --objective opt/lower --seed 1`: the
// optimum is 5 but dilation, c_L and the preemptive edge bound all give 4 (on edge
// 2->3, m2 is released one step after m1 with one more hop to go, and may not
// interrupt it). The non-preemptive edge bound proves 5.
func TestEdgeSequenceClosesPreemptionGap(t *testing.T) {
	f, err := os.Open("testdata/adversary-line6-preemption.json")
	require.NoError(t, err)
	defer f.Close()
	in, err := model.ReadInstance(f)
	require.NoError(t, err)
	require.Equal(t, 4, in.LowerBound().Value)
	require.Equal(t, 5, wormholeOptimum(in))
	b := Best(in)
	assert.Equal(t, BoundSequence, b.Name)
	assert.Equal(t, 5, b.Value)
}

// EdgeSequence dominates the preemptive EdgeBound of the model on every edge (a
// relaxation is never above the problem it relaxes).
func TestEdgeSequenceDominatesEdgeBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t)
		for _, us := range in.Users() {
			if len(us) > 0 {
				require.GreaterOrEqual(t, EdgeSequence(in, us), in.EdgeBound(us))
			}
		}
	})
}
