package model

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// MODEL.md does not require "makespan": a schedule without it is read, marked, and
// its makespan computed from the crossing times.
func TestScheduleWithoutMakespan(t *testing.T) {
	in, err := ParseInstance([]byte(`{"network":{"edges":[["a","b"],["b","c"]]},"flits":2,
	  "messages":[{"id":"m0","path":["a","b","c"]},{"id":"m1","path":["b","c"],"flits":3}]}`))
	require.NoError(t, err)
	s, err := ParseSchedule([]byte(`{"model":"wormhole","messages":[{"id":"m0","cross":[1,2]},{"id":"m1","cross":[4]}]}`))
	require.NoError(t, err)
	require.True(t, s.NoMakespan)
	s.FillMakespan(in)
	require.Equal(t, 6, s.Makespan) // m1: 4 + 3 - 1
	// A given makespan is kept, even a wrong one (the verifier judges it).
	s, err = ParseSchedule([]byte(`{"model":"wormhole","makespan":9,"messages":[{"id":"m0","cross":[1,2]},{"id":"m1","cross":[4]}]}`))
	require.NoError(t, err)
	require.False(t, s.NoMakespan)
	s.FillMakespan(in)
	require.Equal(t, 9, s.Makespan)
	// A message missing: left at 0.
	s, err = ParseSchedule([]byte(`{"model":"wormhole","messages":[{"id":"m0","cross":[1,2]}]}`))
	require.NoError(t, err)
	s.FillMakespan(in)
	require.Equal(t, 0, s.Makespan)
}

func TestStoreAndForwardModelRead(t *testing.T) {
	s, err := ParseSchedule([]byte(`{"model":"store-and-forward","makespan":3,"messages":[{"id":"m0","cross":[1,3]}]}`))
	require.NoError(t, err)
	require.Equal(t, StoreAndForward, s.Model)
}
