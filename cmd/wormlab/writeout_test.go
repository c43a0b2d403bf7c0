package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteOutKeepsSpecialFiles checks that -o into a pipe (like /dev/null or
// /dev/stdout) writes into it instead of renaming a new file over it.
func TestWriteOutKeepsSpecialFiles(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	// Open the reading end first without blocking, so the writer's open succeeds.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	require.NoError(t, err)
	defer r.Close()
	e := &env{stdout: io.Discard, stderr: io.Discard}
	require.NoError(t, writeOut(e, fifo, func(w io.Writer) error {
		_, err := io.WriteString(w, "schedule\n")
		return err
	}))
	fi, err := os.Lstat(fifo)
	require.NoError(t, err)
	require.Equal(t, os.ModeNamedPipe, fi.Mode().Type(), "the pipe was replaced by a file")
	got := make([]byte, 64)
	n, _ := r.Read(got)
	require.Equal(t, "schedule\n", string(got[:n]))
}

// TestWriteOutThroughSymlink checks that -o through a symbolic link replaces the
// file it points to and keeps the link.
func TestWriteOutThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	require.NoError(t, os.Symlink(target, link))
	e := &env{stdout: io.Discard, stderr: io.Discard}
	require.NoError(t, writeOut(e, link, func(w io.Writer) error {
		_, err := w.Write([]byte("new"))
		return err
	}))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	require.Equal(t, os.ModeSymlink, fi.Mode().Type())
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	require.True(t, bytes.Equal(data, []byte("new")))
}
