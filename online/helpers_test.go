package online

import (
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// genLevelled draws a butterfly or a random levelled network with paths from level 0
// to the last level (the setting of seed 002, section 2), all of one length L.
func genLevelled(t *rapid.T) *model.Instance {
	kind := rapid.SampledFrom([]string{"butterfly", "levelled"}).Draw(t, "kind")
	s := instances.Spec{Kind: kind, Traffic: "random", Seed: rapid.Uint64().Draw(t, "genseed")}
	if kind == "butterfly" {
		s.Size = rapid.SampledFrom([]int{2, 4, 8, 16}).Draw(t, "inputs")
	} else {
		s.Size = rapid.IntRange(2, 5).Draw(t, "width")
		s.Depth = rapid.IntRange(2, 6).Draw(t, "levels")
		s.K = rapid.IntRange(1, 3).Draw(t, "degree")
	}
	s.Messages = rapid.IntRange(1, 24).Draw(t, "messages")
	s.Flits = rapid.IntRange(1, 6).Draw(t, "L")
	in, err := instances.Generate(s)
	require.NoError(t, err)
	if len(in.Messages) == 0 {
		t.Skip("no messages")
	}
	_, ok := fullDepth(in)
	require.True(t, ok, "%s: paths not from level 0 to the last level", kind)
	return in
}

// genAny draws an instance on a small random directed network (cycles in the channel
// dependency graph allowed), walks that never reuse an edge, lengths 1..4.
func genAny(t *rapid.T) *model.Instance {
	return fixture.Instance(t, fixture.Shape{MaxNodes: 6, MaxEdges: 12, MaxMessages: 8, MaxHops: 5, MaxL: 4})
}

// checkLegal checks a result the way every run must be checked: a wormhole schedule
// through verify.Schedule, a store-and-forward one through engine.CheckHops; every
// worm delivered at t_d + L - 1; makespan at least the lower bound.
func checkLegal(t require.TestingT, in *model.Instance, r *Result) {
	if r.Schedule.Model == StoreModel {
		hops := make([][]int, len(r.Schedule.Messages))
		for i, m := range r.Schedule.Messages {
			hops[i] = m.Cross
		}
		require.NoError(t, engine.CheckHops(in, hops))
	} else {
		require.Equal(t, model.Wormhole, r.Schedule.Model)
		require.NoError(t, verify.Schedule(in, r.Schedule))
	}
	require.GreaterOrEqual(t, r.Makespan, in.LowerBound().Value)
	require.Equal(t, r.LowerBound, in.LowerBound().Value)
	for i := range in.Messages {
		c := r.Schedule.Messages[i].Cross
		require.Equal(t, c[len(c)-1]+in.Messages[i].L-1, r.Delivered[i])
		require.LessOrEqual(t, r.Delivered[i], r.Makespan)
	}
}
