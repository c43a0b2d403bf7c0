package certify

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// Issue 10: the typed errors under certify's stay reachable with errors.As/Is: an
// illegal schedule gives a *verify.Error naming the message at fault, a missing
// manifest fs.ErrNotExist.
func TestWriteWrapsTypedErrors(t *testing.T) {
	in := generate(t, instances.Spec{Kind: "tree", Size: 12, Messages: 16, Flits: 4, Seed: 7})
	res := solve(t, in, model.Wormhole)
	bad := *res
	s := *res.Schedule
	s.Messages = append([]model.Times(nil), s.Messages...)
	s.Messages[0] = model.Times{ID: s.Messages[0].ID, Cross: make([]int, len(s.Messages[0].Cross))} // all at time 0
	bad.Schedule = &s
	err := Write(t.TempDir(), in, &bad)
	var ve *verify.Error
	require.True(t, errors.As(err, &ve), "errors.As(*verify.Error) on %v", err)
	_, err = Check(t.TempDir())
	require.ErrorIs(t, err, fs.ErrNotExist)
}
