package lower

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/instances"
)

// Within the default limits on small instances BoundsWithin computes exactly the
// model's bounds and BoundsBudget's, and its Best is Best's value.
func TestBoundsWithinMatchesBounds(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t)
		r := BoundsWithin(context.Background(), in, Limits{Budget: DefaultBudget})
		want := append(in.LowerBounds(), BoundsBudget(in, DefaultBudget)...)
		require.Equal(t, want, r.Bounds)
		require.Empty(t, r.Skipped)
		require.Equal(t, Best(in).Value, r.Best.Value)
	})
}

// A memory limit below the aligned graph's estimate skips the four aligned bounds,
// naming them and the sizes; the cheap bounds are still computed.
func TestBoundsWithinMemoryLimit(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Messages: 200, Flits: 2, Seed: 1})
	require.NoError(t, err)
	n := len(in.Messages)
	need := AlignedMemory(n)
	require.Equal(t, int64(n*((n+63)/64)*8*3/2), need)
	r := BoundsWithin(context.Background(), in, Limits{Budget: 100, MaxMemory: need - 1})
	var skipped []string
	for _, s := range r.Skipped {
		skipped = append(skipped, s.Name)
		require.Contains(t, s.Reason, fmt.Sprintf("%d messages", n))
	}
	require.Subset(t, skipped, []string{BoundClique, BoundColouring, BoundIndependence, BoundPrefix})
	for _, b := range r.Bounds {
		require.NotContains(t, []string{BoundClique, BoundColouring, BoundIndependence, BoundPrefix}, b.Name)
	}
	require.GreaterOrEqual(t, r.Best.Value, in.LowerBound().Value)
	r = BoundsWithin(context.Background(), in, Limits{Budget: 100, MaxMemory: need})
	for _, s := range r.Skipped {
		require.NotEqual(t, BoundClique, s.Name)
	}
}

// The disjunction count is the number of disjunctions the search builds, and a
// cancelled context stops BoundsWithin with the model's bounds.
func TestDisjunctionCountAndInterrupt(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := tinyInstance(t)
		require.Equal(t, int64(len(newDisjSearch(in).choices)), DisjunctionCount(in))
	})
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Messages: 30, Seed: 2})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := BoundsWithin(ctx, in, Limits{})
	require.True(t, r.Interrupted)
	require.Equal(t, in.LowerBounds(), r.Bounds)
}

func TestBytes(t *testing.T) {
	require.Equal(t, "512 B", Bytes(512))
	require.Equal(t, "1.5 KiB", Bytes(1536))
	require.Equal(t, "4.0 GiB", Bytes(4<<30))
}
