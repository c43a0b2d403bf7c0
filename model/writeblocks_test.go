package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// The schedule writers at their own block size (4,096 entries; the odd blocks
// formatted on a second goroutine and the writes on a third from four blocks on), at the counts around
// the block and goroutine boundaries: WriteBufferless, WriteBufferlessPaths and
// WriteSchedule of FromStarts write the same bytes, and encoding/json reads
// them back as the schedule written (every id, start and crossing time, in
// order), ids with escapes, HTML characters and non-ASCII runes among them.
func TestScheduleWritersAtBlockBoundaries(t *testing.T) {
	twoProcs(t)
	net := &model.Network{Nodes: []string{"a", "b", "c"}}
	net.Edges = []model.Edge{{From: 0, To: 1}, {From: 1, To: 2}}
	ids := []string{"m%d", `q"%d`, `<&>%d`, "\u00e9%d", "x\\%d", "\u2028%d"}
	for _, n := range []int{0, 1, 4095, 4096, 4097, 8192, 12288, 12289, 16383, 16384, 16385, 20481} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			in := &model.Instance{Net: net, Flits: 1}
			starts := make([]int, n)
			for i := range n {
				path := []int{0, 1}[:1+i%2]
				in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf(ids[i%len(ids)], i), Path: path, L: 1 + i%3})
				starts[i] = (i * 7919) % 1000
			}
			s := model.FromStarts(in, starts)
			head := &model.Schedule{Model: model.Bufferless, Makespan: s.Makespan}
			var a, b, c bytes.Buffer
			require.NoError(t, model.WriteSchedule(&a, s))
			require.NoError(t, model.WriteBufferless(&b, head, in, starts))
			require.NoError(t, model.WriteBufferlessPaths(&c, head, model.PathsOf(in), starts))
			require.Equal(t, a.String(), b.String(), "WriteBufferless")
			require.Equal(t, a.String(), c.String(), "WriteBufferlessPaths")
			var got struct {
				Makespan int
				Messages []struct {
					ID    string
					Start *int
					Cross []int
				}
			}
			require.NoError(t, json.Unmarshal(a.Bytes(), &got))
			require.Equal(t, s.Makespan, got.Makespan)
			require.Len(t, got.Messages, n)
			for i, m := range got.Messages {
				require.Equal(t, in.Messages[i].ID, m.ID, "entry %d", i)
				require.NotNil(t, m.Start, "entry %d", i)
				require.Equal(t, starts[i], *m.Start, "entry %d", i)
				require.Equal(t, s.Messages[i].Cross, m.Cross, "entry %d", i)
			}
			// A legal schedule of the same instance (message i starts at 3i:
			// L at most 3, so no two share an edge at a step), written by the
			// block writer, read back and verified.
			legal := make([]int, n)
			for i := range legal {
				legal[i] = 3 * i
			}
			want := model.FromStarts(in, legal)
			var d bytes.Buffer
			legalHead := &model.Schedule{Model: model.Bufferless, Makespan: want.Makespan}
			require.NoError(t, model.WriteBufferlessPaths(&d, legalHead, model.PathsOf(in), legal))
			back, err := model.ReadSchedule(&d)
			require.NoError(t, err)
			require.NoError(t, verify.Schedule(in, back), "the written schedule, read back")
			require.Equal(t, want.Messages, back.Messages)
		})
	}
}

// The bufferless writers count a path's crossing times up from the start's
// digits instead of converting each (appendStarts): for every start from 0 to
// 3,000, and for every start within 40 below each power of ten up to 10^12 and
// below 2^31, paths of 1 to 40 hops, WriteBufferlessPaths writes the bytes
// WriteSchedule writes for FromStarts's schedule (every number through
// strconv): the count carries through 9 -> 10, 99 -> 100, ..., 10^7 - 1 ->
// 10^7 (8 digits) and beyond alike.
func TestBufferlessCountingAtEveryCarry(t *testing.T) {
	var starts []int
	for s := range 3001 {
		starts = append(starts, s)
	}
	for p := 10; p <= 1e12; p *= 10 {
		for s := max(0, p-41); s <= p; s++ {
			starts = append(starts, s)
		}
	}
	for s := 1<<31 - 41; s <= 1<<31; s++ {
		starts = append(starts, s)
	}
	names := make([]string, 41)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	net := &model.Network{Nodes: names}
	for i := range 40 {
		net.Edges = append(net.Edges, model.Edge{From: i, To: i + 1})
	}
	in := &model.Instance{Net: net, Flits: 1}
	var all []int
	for i, s := range starts {
		d := 1 + i%40
		path := make([]int, d)
		for k := range path {
			path[k] = k
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: 1})
		all = append(all, s)
	}
	s := model.FromStarts(in, all)
	head := &model.Schedule{Model: model.Bufferless, Makespan: s.Makespan}
	var want, got bytes.Buffer
	require.NoError(t, model.WriteSchedule(&want, s))
	require.NoError(t, model.WriteBufferlessPaths(&got, head, model.PathsOf(in), all))
	if want.String() != got.String() {
		w, g := strings.Split(want.String(), "\n"), strings.Split(got.String(), "\n")
		for i := range min(len(w), len(g)) {
			require.Equal(t, w[i], g[i], "line %d", i)
		}
		require.Equal(t, len(w), len(g), "lines")
	}
}
