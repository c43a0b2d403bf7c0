package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// The schedule writer writes a plain entry (id, start, crossing times) by hand
// instead of through encoding/json: every entry line must be what encoding/json
// gives for the id and the lists, whatever the id's bytes (escapes, HTML
// characters, invalid UTF-8, control characters).
func TestScheduleEntriesAsEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := &model.Schedule{Model: model.Bufferless, Makespan: rapid.IntRange(0, 1<<40).Draw(t, "makespan")}
		n := rapid.IntRange(1, 5).Draw(t, "n")
		var want []string
		for i := range n {
			tm := model.Times{
				ID:    rapid.OneOf(rapid.String(), rapid.StringMatching(`[a-z0-9<>&"\\]{1,4}`), rapid.Map(rapid.SliceOf(rapid.Byte()), func(b []byte) string { return string(b) })).Draw(t, fmt.Sprintf("id%d", i)),
				Cross: rapid.SliceOfN(rapid.IntRange(-1<<40, 1<<40), 0, 5).Draw(t, fmt.Sprintf("cross%d", i)),
			}
			id, err := json.Marshal(tm.ID)
			require.NoError(t, err)
			cross := tm.Cross
			if cross == nil {
				cross = []int{}
			}
			cb, err := json.Marshal(cross)
			require.NoError(t, err)
			line := `{ "id": ` + string(id)
			if rapid.Bool().Draw(t, fmt.Sprintf("hasStart%d", i)) {
				st := rapid.IntRange(-1<<40, 1<<40).Draw(t, fmt.Sprintf("start%d", i))
				tm.Start = &st
				line += fmt.Sprintf(`, "start": %d`, st)
			}
			line += `, "cross": ` + string(cb) + ` }`
			want = append(want, line)
			s.Messages = append(s.Messages, tm)
		}
		var b bytes.Buffer
		require.NoError(t, model.WriteSchedule(&b, s))
		lines := strings.Split(b.String(), "\n")
		// {, "model", "makespan", "messages": [, the entries, ], }, "".
		require.Len(t, lines, n+7, b.String())
		for i, w := range want {
			got := strings.TrimSuffix(strings.TrimPrefix(lines[4+i], "    "), ",")
			require.Equal(t, w, got)
		}
		require.True(t, json.Valid(b.Bytes()), b.String())
	})
}

// WriteBufferless writes the same bytes as WriteSchedule of the schedule FromStarts
// builds, with the same top-level fields, on any instance and any starts.
func TestWriteBufferlessAsFromStarts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(6, 5, 3).Draw(t, "instance")
		starts := rapid.SliceOfN(rapid.IntRange(0, 100), len(in.Messages), len(in.Messages)).Draw(t, "starts")
		s := model.FromStarts(in, starts)
		if rapid.Bool().Draw(t, "bound") {
			s.SetBound(rapid.IntRange(0, 50).Draw(t, "lower"), rapid.Bool().Draw(t, "optimal"))
		}
		s.Extra = genExtra(t, "sx")
		var want, got bytes.Buffer
		require.NoError(t, model.WriteSchedule(&want, s))
		head := *s
		head.Messages = nil
		require.NoError(t, model.WriteBufferless(&got, &head, in, starts))
		require.Equal(t, want.String(), got.String())
	})
}

// WriteBufferlessPaths (wormlab color's writer: crossing times by adding one to
// the digits of the one before) writes the bytes WriteSchedule writes for the
// schedule FromStarts builds (every number through strconv) on the instance the
// paths came from, whatever the ids' bytes (escapes, HTML characters, non-ASCII)
// and wherever the crossing times carry (9 -> 10, 19 -> 20, 99 -> 100, 1099 ->
// 1100, 10^6 - 1 -> 10^6
// within a word of digits, 10^7 - 1 -> 10^7 out of it, 10^12 - 1 -> 10^12) or
// start negative.
func TestWriteBufferlessPathsAsFromStarts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(6, 6, 3).Draw(t, "instance")
		for i := range in.Messages {
			odd := rapid.SampledFrom([]string{"", "<&>", `"q"`, `\`, "é", "\t", "\u2028"}).Draw(t, "odd id")
			in.Messages[i].ID = fmt.Sprintf("m%d%s", i, odd)
		}
		starts := make([]int, len(in.Messages))
		for i := range starts {
			// s+1 .. s+d cross a carry within the first few hops.
			starts[i] = rapid.SampledFrom([]int{0, 8, 17, 98, 998, 1097, 999998, 9999998, 1e12 - 2, -2}).Draw(t, "start base") - rapid.IntRange(0, 2).Draw(t, "start shift")
		}
		s := model.FromStarts(in, starts)
		var want, got bytes.Buffer
		require.NoError(t, model.WriteSchedule(&want, s))
		head := *s
		head.Messages = nil
		require.NoError(t, model.WriteBufferlessPaths(&got, &head, model.PathsOf(in), starts))
		require.Equal(t, want.String(), got.String())
	})
}

// The schedule writers format the entries in blocks, the odd ones on another
// goroutine and the writes on a third when there are at least four blocks
// (writeEntries): in blocks of 1 to 5
// entries, WriteSchedule (entries with extra fields among them) and
// WriteBufferlessPaths write the bytes they write in one block, and an entry
// that cannot be written (an extra field that is not JSON) fails the write
// wherever its block falls.
func TestScheduleWritersInBlocks(t *testing.T) {
	twoProcs(t)
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(30, 5, 3).Draw(t, "instance")
		starts := rapid.SliceOfN(rapid.IntRange(0, 100), len(in.Messages), len(in.Messages)).Draw(t, "starts")
		s := model.FromStarts(in, starts)
		for i := range s.Messages {
			s.Messages[i].Extra = genExtra(t, fmt.Sprintf("mx%d", i))
		}
		bad := -1
		if len(s.Messages) > 0 && rapid.IntRange(0, 3).Draw(t, "bad entry") == 0 {
			bad = rapid.IntRange(0, len(s.Messages)-1).Draw(t, "bad")
			s.Messages[bad].Extra = model.Extra{"note": []byte("{")}
		}
		head := *s
		head.Messages = nil
		write := func() (sched, paths string, err error) {
			var a, b bytes.Buffer
			err = model.WriteSchedule(&a, s)
			require.NoError(t, model.WriteBufferlessPaths(&b, &head, model.PathsOf(in), starts))
			return a.String(), b.String(), err
		}
		wantSched, wantPaths, wantErr := write()
		require.Equal(t, bad >= 0, wantErr != nil, "%v", wantErr)
		restore := model.SetEntryBlock(rapid.IntRange(1, 5).Draw(t, "block"))
		defer restore()
		gotSched, gotPaths, gotErr := write()
		require.Equal(t, wantPaths, gotPaths)
		if bad >= 0 {
			require.Error(t, gotErr)
			return
		}
		require.NoError(t, gotErr)
		require.Equal(t, wantSched, gotSched)
	})
}

// twoProcs lets writeEntries format blocks on a second goroutine, which
// it does only with GOMAXPROCS at least 2, for the rest of the test: on one
// processor (go test -cpu 1, a machine of one core) the tests of the block
// writers would otherwise pass without reaching that goroutine.
func twoProcs(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 2 {
		runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	}
}

// failingWriter takes the bytes of its first writes, fails the write numbered
// failAt (from 1) and every one after it, and counts them all.
type failingWriter struct {
	got            bytes.Buffer
	writes, failAt int
}

var errWriteFailed = errors.New("write failed")

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.writes >= w.failAt {
		return 0, errWriteFailed
	}
	return w.got.Write(p)
}

// Lemma (a failed write stops the block writer whole): when the writer fails
// at any of its writes, in blocks of 1 to 5 entries (formatted on two
// goroutines and written on a third from four blocks on, writeEntries), WriteSchedule
// and WriteBufferlessPaths return the writer's error, make no write after the
// failed one, have written a prefix of the bytes they write in full (the
// blocks in order), and leave no goroutine running (the other goroutines are
// stopped and waited for before they return: under -race, the caller's data
// written after the return shows a read after it).
func TestScheduleWritersStopOnWriteError(t *testing.T) {
	twoProcs(t)
	parallel := 0
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(30, 5, 3).Draw(t, "instance")
		starts := rapid.SliceOfN(rapid.IntRange(0, 100), len(in.Messages), len(in.Messages)).Draw(t, "starts")
		s := model.FromStarts(in, starts)
		head := *s
		head.Messages = nil
		block := rapid.IntRange(1, 5).Draw(t, "block")
		restore := model.SetEntryBlock(block)
		defer restore()
		writers := []struct {
			name  string
			write func(w io.Writer) error
		}{
			{"WriteSchedule", func(w io.Writer) error { return model.WriteSchedule(w, s) }},
			{"WriteBufferlessPaths", func(w io.Writer) error { return model.WriteBufferlessPaths(w, &head, model.PathsOf(in), starts) }},
		}
		for _, wr := range writers {
			name, write := wr.name, wr.write
			all := &failingWriter{failAt: math.MaxInt}
			require.NoError(t, write(all), name)
			w := &failingWriter{failAt: rapid.IntRange(1, all.writes).Draw(t, "failing write")}
			before := runtime.NumGoroutine()
			err := write(w)
			require.ErrorIs(t, err, errWriteFailed, name)
			require.Equal(t, w.failAt, w.writes, "%s: writes after the failed one", name)
			require.True(t, strings.HasPrefix(all.got.String(), w.got.String()), "%s: not a prefix of the whole", name)
			// Every value the writers read is written again (the same value):
			// under -race, a read by the other goroutine after the return is a
			// data race.
			for i := range s.Messages {
				for k := range s.Messages[i].Cross {
					s.Messages[i].Cross[k] += 0
				}
			}
			for i := range starts {
				starts[i] += 0
			}
			// The other goroutine's last act is to close the channel the
			// writer waits on, so it may still be counted for a moment after
			// the return (often, under -race); one that never stops is not.
			n := runtime.NumGoroutine()
			for tries := 0; n > before && tries < 1000; tries++ {
				time.Sleep(time.Millisecond)
				n = runtime.NumGoroutine()
			}
			require.LessOrEqual(t, n, before, "%s: a goroutine left running", name)
		}
		if (len(in.Messages)+block-1)/block >= 4 {
			parallel++
		}
	})
	require.Positive(t, parallel, "no schedule of four blocks or more")
}
