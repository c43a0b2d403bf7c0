package optimal

import (
	"context"
	"slices"
	"testing"

	"github.com/go-air/gini/z"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// TestHintReachesGini: hint writes, for every time variable "t <= v" of the
// formula, the schedule's value (t <= v) into gini's saved phases, and marks
// the phases set so that gini's first solve keeps them; in both models. A
// gini whose internal layout differs makes hint report false, and this test
// fail.
func TestHintReachesGini(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{4, 4}, Routing: "random-shortest",
		Traffic: "random", Messages: 30, Flits: 2, Seed: 1})
	require.NoError(t, err)
	for _, m := range []string{model.Bufferless, model.Wormhole} {
		sch, err := greedy(context.Background(), in)
		require.NoError(t, err)
		cross := make([][]int, len(in.Messages))
		for i, x := range sch.Messages {
			cross[i] = x.Cross
		}
		s := model.NewSchedule(in, m, cross)
		f, err := Encode(in, m, s.Makespan+2)
		require.NoError(t, err)
		g := load(f, nil)
		require.True(t, hint(g, f, s), m)
		cache, phases, max, ok := giniPhases(g)
		require.True(t, ok)
		require.Equal(t, *max, *phases, "%s: phases marked set", m)
		checked := 0
		for i := range in.Messages {
			hops := len(in.Messages[i].Path)
			if m == model.Bufferless {
				hops = 1
			}
			for k := 1; k <= hops; k++ {
				c := f.chainOf(i, k)
				for v := c.lo; v < c.hi; v++ {
					want := int8(-1)
					if s.Messages[i].Cross[k-1] <= v {
						want = 1
					}
					require.Equal(t, want, cache[f.le(c, v)], "%s: message %d hop %d, t <= %d", m, i, k, v)
					checked++
				}
			}
		}
		require.Positive(t, checked, m)
		require.Equal(t, 1, g.Solve(), "%s: the hinted schedule fits the horizon", m)
		d, err := f.Decode(func(v int) bool { return g.Value(z.Dimacs2Lit(v)) })
		require.NoError(t, err)
		require.LessOrEqual(t, d.Makespan, s.Makespan+2)
		require.NoError(t, verify.Schedule(in, d), "%s: the hinted solver's schedule", m)
		// gini's search reads what hint wrote (the checks above read it back
		// through giniPhases itself): the hinted solver's first answer keeps
		// more of the schedule's messages where they were than an unhinted
		// solver's (10-11 of 29 against none on this instance; with the phases
		// not marked set, gini's first solve overwrites them and both keep none).
		u := load(f, nil)
		require.Equal(t, 1, u.Solve(), m)
		du, err := f.Decode(func(v int) bool { return u.Value(z.Dimacs2Lit(v)) })
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, du), "%s: the unhinted solver's schedule", m)
		hinted, unhinted := sameTimes(s, d), sameTimes(s, du)
		require.Greater(t, hinted, unhinted, "%s: messages at the hinted times, hinted and unhinted", m)
	}
}

// sameTimes counts the messages whose crossing times are the same in a and b
// (schedules of one instance, messages in its order).
func sameTimes(a, b *model.Schedule) int {
	n := 0
	for i := range a.Messages {
		if slices.Equal(a.Messages[i].Cross, b.Messages[i].Cross) {
			n++
		}
	}
	return n
}
