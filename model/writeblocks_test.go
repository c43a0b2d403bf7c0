package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// The schedule writers at their own block size (4,096 entries; the odd blocks
// formatted on a second goroutine from four blocks on), at the counts around
// the block and goroutine boundaries: WriteBufferless, WriteBufferlessPaths and
// WriteSchedule of FromStarts write the same bytes, and encoding/json reads
// them back as the schedule written (every id, start and crossing time, in
// order), ids with escapes, HTML characters and non-ASCII runes among them.
func TestScheduleWritersAtBlockBoundaries(t *testing.T) {
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
		})
	}
}
