package simrun

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// endless is an input that never ends (/dev/zero, a pipe never closed).
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// ParseBookSim reads at most MaxConfigBytes of a configuration that never ends and
// refuses it, naming the file (before, io.ReadAll grew until the process was
// killed).
func TestParseBookSimEndlessInput(t *testing.T) {
	r := &endless{}
	_, err := ParseBookSim(r, "x.cfg")
	require.EqualError(t, err, "x.cfg: more than 16777216 bytes (16 MiB), the most a configuration may have")
	require.LessOrEqual(t, r.n, int64(MaxConfigBytes+1<<16), "read past the limit")
}
