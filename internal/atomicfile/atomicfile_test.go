//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// A new file gets 0666 less the umask; a replaced one keeps its mode; the content
// is replaced whole; a missing directory is an error naming the target.
func TestWrite(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	require.NoError(t, Write(p, []byte("one\n")))
	fi, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
	require.NoError(t, os.Chmod(p, 0o600))
	require.NoError(t, Write(p, []byte("two\n")))
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "two\n", string(got))
	fi, err = os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	err = Write(filepath.Join(dir, "no", "f"), nil)
	require.ErrorContains(t, err, filepath.Join(dir, "no", "f"))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "a temporary file was left behind")
}
