//go:build linux

package model

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A mapped file that another program truncates while ReadPaths reads it (a
// shell's `>` over the instance wormlab color is reading) faults on the pages
// past its new end: ReadPaths returns errShrank instead of the process dying of
// SIGBUS with a stack trace (which it did, from bytes.Count in the sizing, before
// readMappedPaths). The cuts fall on page boundaries, so that every one leaves
// a page the reading must fault on: at the start (the sizing's count faults,
// on the goroutine counting ahead, countAhead, and again on this one),
// before the middle (the reading from the start faults), and after it, where
// the goroutine reading the second half of the list (splitMin 0, two cores)
// faults first (the cut made after the sizing, which reads the whole text
// first). The file read whole afterwards still reads (nothing was left
// set: the fault panics are this goroutine's, the counter's and the split's
// only).
func TestReadPathsFileShrinks(t *testing.T) {
	defer func(n int) { mapMin = n }(mapMin)
	defer func(n int) { splitMin = n }(splitMin)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	mapMin, splitMin = 0, 0
	var b bytes.Buffer
	b.WriteString(`{"network": {"edges": [["a", "b"], ["b", "c"]]}, "flits": 2, "messages": [`)
	const n = 20000
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"id": "m%d", "path": ["a", "b", "c"]}`, i)
	}
	b.WriteString("]}\n")
	text := b.Bytes()
	page := os.Getpagesize()
	pages := len(text) / page
	require.Greater(t, pages, 16)
	name := filepath.Join(t.TempDir(), "in.json")
	for _, cut := range []int{0, 1, pages / 3, pages / 2, 3 * pages / 4, pages - 1} {
		f := writeFile(t, name, text)
		data, unmap, ok := mapText(f)
		require.True(t, ok, "not mapped")
		require.NoError(t, os.Truncate(name, int64(cut*page)))
		ps, err := readMappedPaths(data)
		require.ErrorIs(t, err, errShrank, "cut at page %d of %d", cut, pages)
		require.Nil(t, ps)
		// Cut after the sizings, the list's and its second half's (fork
		// waits for the counts made ahead, countAhead, and counts the rest of
		// a chunk on this goroutine), before the second half's goroutine
		// starts: where the cut is past its start, it faults there.
		require.NoError(t, os.WriteFile(name, text, 0o644))
		sink := cutSink{newPathsSink(data), func() { require.NoError(t, os.Truncate(name, int64(cut*page))) }}
		joins := splitJoins.Load()
		require.True(t, faultsIn(data, func() { parseFast(data, sink) }), "cut at page %d of %d", cut, pages)
		require.Equal(t, joins, splitJoins.Load(), "a half read from a cut text joined")
		unmap()
		f.Close()
	}
	f := writeFile(t, name, text)
	defer f.Close()
	joins := splitJoins.Load()
	ps, err := ReadPaths(f)
	require.NoError(t, err)
	require.Equal(t, n, ps.Len())
	require.Greater(t, splitJoins.Load(), joins, "the list was not read on two cores")
}

// cutSink is a pathsSink that calls cut when the list's second half is forked.
type cutSink struct {
	*pathsSink
	cut func()
}

func (s cutSink) fork(text []byte) messageSink {
	o := s.pathsSink.fork(text)
	s.cut()
	return o
}
