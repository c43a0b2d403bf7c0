package sweep

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
)

// ParseSpec reads at most MaxSpecBytes of an input that never ends and refuses it
// (before, io.ReadAll grew until the process was killed).
func TestParseSpecEndlessInput(t *testing.T) {
	r := &fixture.Endless{}
	_, err := ParseSpec(r)
	require.EqualError(t, err, "spec: more than 67108864 bytes (64 MiB), the most a spec may have")
	require.LessOrEqual(t, r.N, int64(MaxSpecBytes+1<<16), "read past the limit")
}
