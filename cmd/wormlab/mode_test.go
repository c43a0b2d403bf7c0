package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Output files get 0666 less the umask, like the shell's >, and a replaced file
// keeps its permissions (CreateTemp alone gives 0600).
func TestWriteOutMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	e := &env{stdout: io.Discard, stderr: io.Discard}
	write := func(w io.Writer) error { _, err := io.WriteString(w, "x\n"); return err }
	p := filepath.Join(dir, "new.json")
	require.NoError(t, writeOut(e, p, write))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, writeOut(e, p, write))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	syscall.Umask(0o077)
	q := filepath.Join(dir, "private.json")
	require.NoError(t, writeOut(e, q, write))
	fi, err = os.Stat(q)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
}

// wormlab run --algo store writes a schedule that wormlab verify and wormlab draw
// take (store-and-forward hop lists).
func TestStoreRunVerifiesAndDraws(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "s.json")
	var out, errb bytes.Buffer
	inst := "../../instances/mesh4x4-transpose.json"
	require.Equal(t, 0, run([]string{"run", "--algo", "store", "--seed", "3", inst, "-o", s}, nil, &out, &errb, false), errb.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"verify", inst, s}, nil, &out, &errb, false), errb.String())
	require.True(t, strings.HasPrefix(out.String(), "legal store-and-forward schedule"), out.String())
	out.Reset()
	require.Equal(t, 0, run([]string{"draw", inst, s, "-o", filepath.Join(dir, "s.svg")}, nil, &out, &errb, false), errb.String())
}
