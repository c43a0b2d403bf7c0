package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endlessInput is a proof that never ends (/dev/zero, a pipe never closed).
type endlessInput struct{ n int64 }

func (e *endlessInput) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'd'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// readProof reads at most its limit of an input that never ends and refuses it
// (check-proof read the proof with os.ReadFile, which grew until the process was
// killed); a regular file over the limit is refused before it is read, and one
// within it is read whole.
func TestReadProofBounded(t *testing.T) {
	r := &endlessInput{}
	_, err := readProof(r, 1<<20)
	require.EqualError(t, err, "more than 1048576 bytes, the most a proof may have")
	assert.LessOrEqual(t, r.n, int64(1<<20+1<<16), "read past the limit")

	path := filepath.Join(t.TempDir(), "p.drat")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("1 0\n", 10)), 0o644))
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	_, err = readProof(f, 39)
	require.EqualError(t, err, "40 bytes, more than 39, the most a proof may have")
	data, err := readProof(f, 40)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("1 0\n", 10), string(data))
}
