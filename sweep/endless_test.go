package sweep

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// endless is an input that never ends (standard input fed forever, /dev/zero).
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// ParseSpec reads at most MaxSpecBytes of an input that never ends and refuses it
// (before, io.ReadAll grew until the process was killed).
func TestParseSpecEndlessInput(t *testing.T) {
	r := &endless{}
	_, err := ParseSpec(r)
	require.EqualError(t, err, "spec: more than 67108864 bytes (64 MiB), the most a spec may have")
	require.LessOrEqual(t, r.n, int64(MaxSpecBytes+1<<16), "read past the limit")
}
