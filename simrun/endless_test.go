package simrun

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
)

// ParseBookSim reads at most MaxConfigBytes of a configuration that never ends and
// refuses it, naming the file (before, io.ReadAll grew until the process was
// killed).
func TestParseBookSimEndlessInput(t *testing.T) {
	r := &fixture.Endless{}
	_, err := ParseBookSim(r, "x.cfg")
	require.EqualError(t, err, "x.cfg: more than 16777216 bytes (16 MiB), the most a configuration may have")
	require.LessOrEqual(t, r.N, int64(MaxConfigBytes+1<<16), "read past the limit")
}
