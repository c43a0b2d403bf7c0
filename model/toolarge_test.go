package model

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// An input of more than maxInputBytes is refused as such, before it is read:
// ReadInstance, ReadPaths and ReadSchedule of a (sparse) file one byte longer
// say that it is too large. They read the first GiB (2 GB resident, 7-14 s) and
// then reported the JSON of the zeros, or, for a JSON text cut at the limit by
// the reading, "unexpected end of JSON input" at byte 1073741824.
func TestReadRefusesTooLarge(t *testing.T) {
	name := filepath.Join(t.TempDir(), "big.json")
	f, err := os.Create(name)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(maxInputBytes+1))
	require.NoError(t, f.Close())
	for what, read := range map[string]func(*os.File) error{
		"instance": func(f *os.File) error { _, err := ReadInstance(f); return err },
		"paths":    func(f *os.File) error { _, err := ReadPaths(f); return err },
		"schedule": func(f *os.File) error { _, err := ReadSchedule(f); return err },
	} {
		f, err := os.Open(name)
		require.NoError(t, err)
		err = read(f)
		f.Close()
		require.ErrorContains(t, err, "1073741825 bytes: more than 1 GiB", what)
	}
}
