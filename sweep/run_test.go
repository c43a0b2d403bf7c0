package sweep

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// fakeRunner computes values from the parameters and seed alone (as a deterministic
// command does), fails where told, and counts calls.
type fakeRunner struct {
	calls   atomic.Int64
	failAt  string        // a value of parameter "a" that fails
	panicAt string        // a value of "a" that panics
	sleep   time.Duration // per point
	block   chan struct{} // when set, points wait for it (or their context)
}

func (f *fakeRunner) Run(ctx context.Context, p Point) (map[string]any, error) {
	f.calls.Add(1)
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	time.Sleep(f.sleep)
	a := p.Params["a"].Text
	if a == f.failAt {
		return map[string]any{"partial": 1}, fmt.Errorf("exit 1: deadlock at a=%s", a)
	}
	if a == f.panicAt {
		panic("boom")
	}
	n, _ := strconv.Atoi(a)
	return map[string]any{"y": n * 10, "seed_mod": p.Seed % 1000, "rep": p.Replication}, nil
}

const smallSpec = `{"command": "fake", "seed": 5, "replications": 2, "params": {"b": "x"}, "axes": {"a": {"from": 1, "to": 10, "step": 1}, "c": [true, false]}}`

func readAll(t *testing.T, path string) []*Record {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	c, err := ReadResults(path, f, "")
	require.NoError(t, err)
	require.False(t, c.Torn)
	return c.Records
}

// canonical is the file's records sorted by key, timings aside, one line each.
func canonical(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := Merge([]Input{{path, f}})
	require.NoError(t, err)
	var b strings.Builder
	for _, r := range recs {
		line, err := r.WithoutTimings().Line()
		require.NoError(t, err)
		b.Write(line)
	}
	return b.String()
}

func TestRunRecordsEveryPointAndResumes(t *testing.T) {
	s := parse(t, smallSpec)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	f := &fakeRunner{failAt: "3", panicAt: "7"}
	sum, err := Run(context.Background(), s, f, path, Options{Workers: 3, Version: "test"})
	require.NoError(t, err)
	require.Equal(t, Summary{Points: 40, Done: 40, Failed: 8}, *sum)
	recs := readAll(t, path)
	require.Len(t, recs, 40)
	byKey := map[string]*Record{}
	for _, r := range recs {
		byKey[r.Key] = r
	}
	for _, p := range s.Points() {
		r := byKey[p.Key]
		require.NotNil(t, r, "point %s recorded", p.Key)
		require.Equal(t, p.Seed, r.Seed)
		require.Equal(t, p.Params, r.Params)
		require.Equal(t, s.Hash(), r.Spec)
		require.Equal(t, "test", r.Version)
		switch p.Params["a"].Text {
		case "3":
			require.Equal(t, StatusFailed, r.Status)
			require.Equal(t, "exit 1: deadlock at a=3", r.Message)
			require.Equal(t, "1", fmt.Sprint(r.Values["partial"]))
		case "7":
			require.Equal(t, StatusFailed, r.Status)
			require.Equal(t, "panic: boom", r.Message)
		default:
			require.Equal(t, StatusOK, r.Status)
			require.Equal(t, p.Params["a"].Text+"0", fmt.Sprint(r.Values["y"]))
			require.Equal(t, fmt.Sprint(p.Seed%1000), fmt.Sprint(r.Values["seed_mod"]))
		}
		require.GreaterOrEqual(t, r.WallMS, 0.0)
	}
	// Rerun: nothing to do. --retry-failed: the 8 failed points only.
	f.calls.Store(0)
	sum, err = Run(context.Background(), s, f, path, Options{Workers: 3})
	require.NoError(t, err)
	require.Equal(t, Summary{Points: 40, Skipped: 40}, *sum)
	require.Zero(t, f.calls.Load())
	f.failAt, f.panicAt = "", ""
	sum, err = Run(context.Background(), s, f, path, Options{Workers: 3, RetryFailed: true})
	require.NoError(t, err)
	require.Equal(t, Summary{Points: 40, Skipped: 32, Done: 8}, *sum)
	require.Len(t, readAll(t, path), 40)
}

func TestRunSameResultAnyWorkersAnyShards(t *testing.T) {
	s := parse(t, smallSpec)
	dir := t.TempDir()
	one := filepath.Join(dir, "one.jsonl")
	_, err := Run(context.Background(), s, &fakeRunner{}, one, Options{Workers: 1})
	require.NoError(t, err)
	many := filepath.Join(dir, "many.jsonl")
	_, err = Run(context.Background(), s, &fakeRunner{}, many, Options{Workers: 8})
	require.NoError(t, err)
	require.Equal(t, canonical(t, one), canonical(t, many))
	var inputs []Input
	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i))
		sum, err := Run(context.Background(), s, &fakeRunner{}, p, Options{Workers: 2, Shard: Shard{i, 3}})
		require.NoError(t, err)
		require.InDelta(t, 40.0/3, sum.Points, 1)
		f, err := os.Open(p)
		require.NoError(t, err)
		defer f.Close()
		inputs = append(inputs, Input{p, f})
	}
	recs, err := Merge(inputs)
	require.NoError(t, err)
	var b strings.Builder
	for _, r := range recs {
		line, _ := r.WithoutTimings().Line()
		b.Write(line)
	}
	require.Equal(t, canonical(t, one), b.String())
}

// Property: for any number of points and any N, the shards 0/N .. N-1/N partition
// the points (each point in exactly one shard) and their sizes differ by at most one.
func TestShardsPartition(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "points")
		shards := rapid.IntRange(1, 12).Draw(t, "shards")
		s, err := ParseSpec(strings.NewReader(fmt.Sprintf(`{"command": "x", "axes": {"a": {"from": 1, "to": %d, "step": 1}}}`, n)))
		require.NoError(t, err)
		pts := s.Points()
		count := map[string]int{}
		lo, hi := n, 0
		for i := range shards {
			sel := Shard{i, shards}.Select(pts)
			lo, hi = min(lo, len(sel)), max(hi, len(sel))
			for _, p := range sel {
				count[p.Key]++
			}
		}
		require.Len(t, count, n)
		for k, c := range count {
			require.Equal(t, 1, c, "point %s", k)
		}
		require.LessOrEqual(t, hi-lo, 1)
	})
}

func TestRunTimeout(t *testing.T) {
	s := parse(t, `{"command": "fake", "timeout": "20ms", "axes": {"a": [1, 2]}}`)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	block := make(chan struct{})
	defer close(block)
	sum, err := Run(context.Background(), s, &fakeRunner{block: block}, path, Options{Workers: 2})
	require.NoError(t, err)
	require.Equal(t, 2, sum.Failed)
	for _, r := range readAll(t, path) {
		require.Equal(t, StatusFailed, r.Status)
		require.True(t, strings.HasPrefix(r.Message, "timeout after 20ms"), r.Message)
	}
}

// stopRunner is a runner that ignores its context, as most commands do: its
// stopAt-th point cancels the sweep (the interrupt, stop) and every point that
// finds the sweep cancelled keeps running, ignoring it, until release is closed.
// It counts the points that started and those that ended.
type stopRunner struct {
	fakeRunner
	stopAt         int64
	stop           func()
	release        chan struct{}
	started, ended atomic.Int64
}

func (f *stopRunner) Run(ctx context.Context, p Point) (map[string]any, error) {
	defer f.ended.Add(1)
	if f.started.Add(1) == f.stopAt {
		f.stop()
	}
	if ctx.Err() != nil {
		<-f.release
	}
	return f.fakeRunner.Run(context.Background(), p)
}

// An interrupted sweep returns at once, measured in points, not time: a sweep of
// 200 points cancelled by its 20th records at most the points that had ended by
// then (at most 19: the 20th still runs), as whole records, returns while the
// points that saw the cancellation still run (they ignore it), and says it was
// interrupted; a rerun does the rest, and the whole equals one uninterrupted run.
func TestRunInterruptAndResume(t *testing.T) {
	s := parse(t, `{"command": "fake", "replications": 4, "axes": {"a": {"from": 1, "to": 50, "step": 1}}}`)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	r := &stopRunner{stopAt: 20, stop: cancel, release: make(chan struct{})}
	var sum *Summary
	var err error
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		sum, err = Run(ctx, s, r, path, Options{Workers: 2})
	}()
	select {
	case <-returned:
	case <-time.After(time.Minute): // a guard against a sweep that waits forever, not a measure
		close(r.release)
		<-returned
		t.Fatal("Run did not return after the interrupt")
	}
	running := r.started.Load() - r.ended.Load()
	close(r.release)
	require.NoError(t, err)
	require.True(t, sum.Interrupted)
	require.LessOrEqual(t, sum.Done, 19, "points recorded after the interrupt")
	require.Positive(t, running, "Run waited for the points still running")
	require.Len(t, readAll(t, path), sum.Done)
	sum, err = Run(context.Background(), s, &fakeRunner{}, path, Options{Workers: 2})
	require.NoError(t, err)
	require.False(t, sum.Interrupted)
	require.Equal(t, 200, sum.Skipped+sum.Done)
	whole := filepath.Join(dir, "whole.jsonl")
	_, err = Run(context.Background(), s, &fakeRunner{}, whole, Options{Workers: 2})
	require.NoError(t, err)
	require.Equal(t, canonical(t, whole), canonical(t, path))
}

func TestResultsTornAndBad(t *testing.T) {
	s := parse(t, `{"command": "fake", "axes": {"a": [1, 2, 3]}}`)
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	_, err := Run(context.Background(), s, &fakeRunner{}, path, Options{Workers: 1})
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	require.Len(t, lines, 4) // three records and the empty rest

	// A crash cut the last record short: it is dropped with a note and rerun.
	for _, cut := range []int{1, 10, len(lines[2]) - 1} {
		torn := append(append(append([]byte{}, lines[0]...), lines[1]...), lines[2][:cut]...)
		require.NoError(t, os.WriteFile(path, torn, 0o644))
		var notes []string
		f := &fakeRunner{}
		sum, err := Run(context.Background(), s, f, path, Options{Workers: 1, Note: func(n string) { notes = append(notes, n) }})
		require.NoError(t, err)
		require.Equal(t, 1, sum.Done)
		require.Len(t, notes, 1)
		require.Contains(t, notes[0], "dropped a torn last line")
		require.Len(t, readAll(t, path), 3)
	}
	// NUL bytes where a crash lost the data.
	require.NoError(t, os.WriteFile(path, append(append([]byte{}, lines[0]...), 0, 0, 0, 0), 0o644))
	sum, err := Run(context.Background(), s, &fakeRunner{}, path, Options{Workers: 1})
	require.NoError(t, err)
	require.Equal(t, 2, sum.Done)

	bad := map[string]string{
		"not JSON Lines": "hello\n",
		"a text line":    "hello",
		"garbage inside": string(lines[0]) + "{oops}\n" + string(lines[1]),
		"another spec":   strings.Replace(string(lines[0]), s.Hash(), "0123456789abcdef", 1),
		"unknown field":  strings.Replace(string(lines[0]), `"key"`, `"kee":1,"key"`, 1),
	}
	want := map[string]string{
		"not JSON Lines": "line 1: not a sweep record: invalid character 'h' looking for beginning of value",
		"a text line":    `line 1: not a sweep record (a line of JSON with "key" first)`,
		"garbage inside": "line 2: not a sweep record: invalid character 'o' looking for beginning of object key string",
		"another spec":   "line 1: belongs to another spec (spec 0123456789abcdef, this spec " + s.Hash() + ")",
		"unknown field":  `line 1: not a sweep record: json: unknown field "kee"`,
	}
	for name, content := range bad {
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		_, err := Run(context.Background(), s, &fakeRunner{}, path, Options{Workers: 1})
		var le *LineError
		require.ErrorAs(t, err, &le, name)
		require.EqualError(t, err, path+": "+want[name], name)
		after, _ := os.ReadFile(path)
		require.Equal(t, content, string(after), "%s: the file is left alone", name)
	}
}

func TestMergeConflict(t *testing.T) {
	s := parse(t, `{"command": "fake", "axes": {"a": [1, 2]}}`)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	_, err := Run(context.Background(), s, &fakeRunner{}, a, Options{Workers: 1})
	require.NoError(t, err)
	sum, err := Run(context.Background(), s, &fakeRunner{failAt: "2"}, b, Options{Workers: 1})
	require.NoError(t, err)
	require.Equal(t, 1, sum.Failed)
	open := func(p string) Input {
		f, err := os.Open(p)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		return Input{p, f}
	}
	// The same file twice: identical records merge.
	recs, err := Merge([]Input{open(a), open(a)})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	_, err = Merge([]Input{open(a), open(b)})
	var ce *ConflictError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "status ok and failed", ce.Difference)
	require.Equal(t, a, ce.FileA)
	require.Equal(t, b, ce.FileB)
	require.Contains(t, err.Error(), "key "+ce.Key+": ")
}
