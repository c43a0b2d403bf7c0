package model_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// compact renders extra fields as compact JSON strings so that equal JSON values
// compare equal whatever their spacing (nil and empty maps alike).
func compact(t require.TestingT, x model.Extra) map[string]string {
	out := map[string]string{}
	for k, v := range x {
		var b bytes.Buffer
		require.NoError(t, json.Compact(&b, v), "extra field %q", k)
		out[k] = b.String()
	}
	return out
}

// requireSameInstance checks two instances are equal field by field; with
// sameForm the path form (AsEdges) must agree too.
func requireSameInstance(t require.TestingT, want, got *model.Instance, sameForm bool) {
	require.Equal(t, want.Name, got.Name)
	require.Equal(t, want.Net.Nodes, got.Net.Nodes)
	require.Equal(t, want.Net.Edges, got.Net.Edges)
	require.Equal(t, compact(t, want.Net.Extra), compact(t, got.Net.Extra))
	require.Equal(t, want.Flits, got.Flits)
	require.Equal(t, compact(t, want.Extra), compact(t, got.Extra))
	require.Len(t, got.Messages, len(want.Messages))
	for i := range want.Messages {
		w, g := &want.Messages[i], &got.Messages[i]
		require.Equal(t, w.ID, g.ID)
		require.Equal(t, w.Path, g.Path, "message %q", w.ID)
		require.Equal(t, w.L, g.L, "message %q", w.ID)
		require.Equal(t, compact(t, w.Extra), compact(t, g.Extra), "message %q", w.ID)
		if sameForm {
			require.Equal(t, w.AsEdges, g.AsEdges, "message %q: path form", w.ID)
		}
	}
}

// requireSameSchedule checks two schedules are equal field by field (an empty and a
// nil cross list alike).
func requireSameSchedule(t require.TestingT, want, got *model.Schedule) {
	require.Equal(t, want.Model, got.Model)
	require.Equal(t, want.Makespan, got.Makespan)
	require.Equal(t, want.LowerBound, got.LowerBound)
	require.Equal(t, want.Optimal, got.Optimal)
	require.Equal(t, compact(t, want.Extra), compact(t, got.Extra))
	require.Len(t, got.Messages, len(want.Messages))
	for i, m := range want.Messages {
		g := got.Messages[i]
		require.Equal(t, m.ID, g.ID)
		if len(m.Cross) == 0 {
			require.Empty(t, g.Cross)
		} else {
			require.Equal(t, m.Cross, g.Cross)
		}
		require.Equal(t, m.Start, g.Start)
		require.Equal(t, compact(t, m.Extra), compact(t, g.Extra))
	}
}

func roundTrip(t require.TestingT, in *model.Instance) *model.Instance {
	var b bytes.Buffer
	require.NoError(t, model.WriteInstance(&b, in))
	back, err := model.ParseInstance(b.Bytes())
	require.NoError(t, err, "%s", b.String())
	return back
}

// MODEL.md, interchange formats: an instance written and read back is the same
// instance, extra fields (top level, network, message) are kept, and the path form
// is kept: a path given as edge indices stays so, a path given by node names stays
// so whenever it is unambiguous (an ambiguous one must be written as edges).
func TestInstanceRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(4, 4, 3).Draw(t, "instance")
		require.NoError(t, in.Validate())
		back := roundTrip(t, in)
		requireSameInstance(t, in, back, false)
		for i, m := range in.Messages {
			ambiguous := false
			for _, e := range m.Path {
				ed := in.Net.Edges[e]
				ambiguous = ambiguous || len(in.Net.EdgesBetween(ed.From, ed.To)) > 1
			}
			require.Equal(t, m.AsEdges || ambiguous, back.Messages[i].AsEdges, "message %q: path form", m.ID)
		}
		// A parsed instance is a fixed point: same form, same bytes.
		again := roundTrip(t, back)
		requireSameInstance(t, back, again, true)
		var b1, b2 bytes.Buffer
		require.NoError(t, model.WriteInstance(&b1, back))
		require.NoError(t, model.WriteInstance(&b2, again))
		require.Equal(t, b1.String(), b2.String())
	})
}

// The generated instances of package instances carry "topology" and "coords" or
// "levels" as extra fields; MODEL.md requires them kept on a round trip, and Coords
// and Levels read them back.
func TestGeneratedRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genGenerated().Draw(t, "instance")
		back := roundTrip(t, in)
		requireSameInstance(t, in, back, true)
		require.Contains(t, back.Extra, "topology")
		cs, hasC, errC := back.Net.Coords()
		lv, hasL, errL := back.Net.Levels()
		require.NoError(t, errC)
		require.NoError(t, errL)
		require.True(t, hasC || hasL, "coords or levels")
		if hasC {
			require.Len(t, cs, len(back.Net.Nodes))
		}
		if hasL {
			require.Len(t, lv, len(back.Net.Nodes))
		}
	})
}

func genSchedule() *rapid.Generator[*model.Schedule] {
	return rapid.Custom(func(t *rapid.T) *model.Schedule {
		s := &model.Schedule{
			Model:    rapid.SampledFrom([]string{model.Wormhole, model.Bufferless}).Draw(t, "model"),
			Makespan: rapid.IntRange(0, 50).Draw(t, "makespan"),
			Extra:    genExtra(t, "sx"),
		}
		if rapid.Bool().Draw(t, "bound") {
			s.SetBound(rapid.IntRange(0, 50).Draw(t, "lower"), rapid.Bool().Draw(t, "optimal"))
		}
		n := rapid.IntRange(0, 4).Draw(t, "n")
		for i := range n {
			tm := model.Times{
				ID:    rapid.StringMatching(`[a-z0-9"]{1,4}`).Draw(t, "id"),
				Cross: rapid.SliceOfN(rapid.IntRange(-2, 30), 0, 5).Draw(t, "cross"),
				Extra: genExtra(t, "tx"),
			}
			if rapid.Bool().Draw(t, "hasStart") {
				st := rapid.IntRange(-1, 30).Draw(t, "start")
				tm.Start = &st
			}
			_ = i
			s.Messages = append(s.Messages, tm)
		}
		return s
	})
}

// MODEL.md, schedule format: a schedule written and read back is the same schedule,
// with its optional fields (start, lower_bound, optimal) and extra fields kept. The
// reader checks format only, so even illegal crossing times must survive.
func TestScheduleRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := genSchedule().Draw(t, "schedule")
		var b bytes.Buffer
		require.NoError(t, model.WriteSchedule(&b, s))
		back, err := model.ParseSchedule(b.Bytes())
		require.NoError(t, err, "%s", b.String())
		requireSameSchedule(t, s, back)
	})
}
