package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
)

// parse builds an instance from MODEL.md JSON.
func parse(t testing.TB, text string) *model.Instance {
	t.Helper()
	in, err := model.ParseInstance([]byte(text))
	require.NoError(t, err)
	return in
}

// genInstance draws a random directed network (cycles allowed unless levelled) and
// random paths: walks that never reuse an edge, lengths 1..5 flits (fixture.Small).
func genInstance(t *rapid.T, levelled bool) *model.Instance {
	s := fixture.Small
	s.Levelled = levelled
	return fixture.Instance(t, s)
}
