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

// Check foresees Write's failures without writing: a directory that does not
// exist or cannot take a new file (/proc), a path that is a directory; and it
// leaves nothing behind where Write would succeed.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "out.json")
	require.NoError(t, Check(ok))
	_, err := os.Stat(ok)
	require.True(t, os.IsNotExist(err))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, entries)
	require.Error(t, Check(filepath.Join(dir, "no", "such")))
	require.ErrorContains(t, Check(dir), "is a directory")
	if _, err := os.Stat("/proc/version"); err == nil && os.Geteuid() >= 0 {
		err := Check("/proc/version")
		require.Error(t, err)
		require.Error(t, Write("/proc/version", []byte("x")), "Check and Write agree")
	}
	require.NoError(t, Check(os.DevNull))
}
