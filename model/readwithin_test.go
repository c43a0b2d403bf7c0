package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endless is an input that never ends (/dev/zero, a pipe never closed).
type endlessText struct{ n int64 }

func (e *endlessText) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'd'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// ReadAll reads at most its limit (and a read's worth) of an input that never
// ends and refuses it; a regular file over the limit is refused before it is
// read, and one within it is read whole.
func TestReadWithinBounded(t *testing.T) {
	r := &endlessText{}
	_, err := ReadWithin(r, 1<<20, "a proof")
	require.EqualError(t, err, "more than 1048576 bytes, the most a proof may have")
	assert.LessOrEqual(t, r.n, int64(1<<20+1<<16), "read past the limit")

	path := filepath.Join(t.TempDir(), "p.drat")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("1 0\n", 10)), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = ReadWithin(f, 39, "a network file")
	require.EqualError(t, err, "40 bytes, more than 39, the most a network file may have")
	data, err := ReadWithin(f, 40, "a proof")
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("1 0\n", 10), string(data))
}
