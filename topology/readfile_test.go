package topology

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endless is a network file that never ends (/dev/zero, a pipe never closed).
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// readBounded reads at most its limit of an input that never ends and refuses it
// (the file: and anynet: kinds read with os.ReadFile, which grew until the process
// was killed on file:/dev/zero); a regular file over the limit is refused before
// it is read, and one within it is read whole.
func TestReadBounded(t *testing.T) {
	r := &endless{}
	_, err := readBounded(r, 1<<20)
	require.EqualError(t, err, "more than 1048576 bytes, the most a network file may have")
	assert.LessOrEqual(t, r.n, int64(1<<20+1<<16), "read past the limit")

	path := filepath.Join(t.TempDir(), "net.json")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("x", 40)), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = readBounded(f, 39)
	require.EqualError(t, err, "40 bytes, more than 39, the most a network file may have")
	data, err := readBounded(f, 40)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("x", 40), string(data))
}
