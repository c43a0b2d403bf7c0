package model

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Lemma (a mapped file reads as its text): ReadPaths of a regular file, mapped
// (mapText, mapMin 0) and unmapped before it returns, gives the paths, network
// and extras of ReadPaths of the same bytes from a reader, or the same error;
// what it returns holds nothing of the mapping (the comparison reads every id,
// name and network extra after the unmapping: a string pointing into it would fault).
// A file whose offset is not at its start is read from there, as a reader
// would, and a file read to its end is left at its end.
func TestReadPathsMappedFile(t *testing.T) {
	defer func(n int) { mapMin = n }(mapMin)
	mapMin = 0
	dir := t.TempDir()
	mapped := 0
	rapid.Check(t, func(t *rapid.T) {
		data := adversarialText(t)
		name := filepath.Join(dir, "in.json")
		f := writeFile(t, name, data)
		defer f.Close()
		if _, _, ok := mapText(f); ok {
			mapped++
		}
		_, err := f.Seek(0, io.SeekStart)
		require.NoError(t, err)
		want, werr := ReadPaths(bytes.NewReader(data))
		got, gerr := ReadPaths(f)
		if werr != nil {
			require.EqualError(t, gerr, werr.Error())
			return
		}
		require.NoError(t, gerr)
		requireSamePaths(t, want, got)
		require.Equal(t, want.Net.Nodes, got.Net.Nodes)
		require.Equal(t, want.Net.Extra, got.Net.Extra)
		at, err := f.Seek(0, io.SeekCurrent)
		require.NoError(t, err)
		require.Equal(t, int64(len(data)), at, "offset after the reading")
	})
	require.Positive(t, mapped, "no file was mapped")

	// From an offset: the rest of the file, read (not mapped).
	text := `{"network": {"edges": [["a", "b"]]}, "messages": [{"id": "m", "path": ["a", "b"]}]}`
	name := filepath.Join(dir, "off.json")
	f := writeFile(t, name, []byte("xx"+text))
	defer f.Close()
	_, err := f.Seek(2, io.SeekStart)
	require.NoError(t, err)
	ps, err := ReadPaths(f)
	require.NoError(t, err)
	require.Equal(t, 1, ps.Len())
	require.Equal(t, "m", ps.ID(0))
}

// writeFile writes data to the file name, replacing it, and opens it for
// reading (the mapped-file tests' input).
func writeFile(t require.TestingT, name string, data []byte) *os.File {
	require.NoError(t, os.WriteFile(name, data, 0o644))
	f, err := os.Open(name)
	require.NoError(t, err)
	return f
}
