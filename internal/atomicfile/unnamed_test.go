//go:build linux

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// While WriteFunc streams a file, the directory holds nothing new: the content
// goes into an unnamed file (O_TMPFILE) that gets a name only once it is whole,
// so a process killed while it writes (Ctrl-C on wormlab color or gen writing
// 170 MB, whose signal nothing catches) leaves nothing behind, where it left a
// hidden temporary file of the size written so far (91 MB seen). After the
// write, the target holds the content with the mode of Write's rules, and no
// other file is left. Skipped where the file system has no unnamed files
// (WriteFunc then writes a named temporary file, as before).
func TestWriteLeavesNothingWhileWriting(t *testing.T) {
	dir := t.TempDir()
	if f, ok := openUnnamed(dir); !ok {
		t.Skip("no O_TMPFILE on this file system")
	} else {
		f.Close()
	}
	for _, existing := range []bool{false, true} {
		p := filepath.Join(dir, "out.json")
		if existing {
			require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o600))
		}
		before, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.NoError(t, WriteFunc(p, func(w io.Writer) error {
			if _, err := io.WriteString(w, "new "); err != nil {
				return err
			}
			during, err := os.ReadDir(dir)
			require.NoError(t, err)
			require.Equal(t, names(before), names(during), "a name in the directory while writing")
			_, err = io.WriteString(w, "content\n")
			return err
		}))
		got, err := os.ReadFile(p)
		require.NoError(t, err)
		require.Equal(t, "new content\n", string(got))
		fi, err := os.Stat(p)
		require.NoError(t, err)
		want := os.FileMode(0o666) &^ os.FileMode(Umask())
		if existing {
			want = 0o600
		}
		require.Equal(t, want, fi.Mode().Perm(), "existing %v", existing)
		after, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Equal(t, []string{"out.json"}, names(after))
		require.NoError(t, os.Remove(p))
	}
	// A write that fails leaves the directory as it was.
	require.Error(t, WriteFunc(filepath.Join(dir, "f"), func(w io.Writer) error { return io.ErrUnexpectedEOF }))
	after, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, after)
}

func names(entries []os.DirEntry) []string {
	var s []string
	for _, e := range entries {
		s = append(s, e.Name())
	}
	return s
}
