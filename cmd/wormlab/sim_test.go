package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// An unknown routing is bad input: exit 2, one line naming the flag and the name
// (the list of known routings after it grows as algorithms are added, so it is not
// a golden).
func TestSimUnknownRouting(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"sim", "--routing", "xyz"}, strings.NewReader(""), &stdout, &stderr, false)
	require.Equal(t, 2, code)
	require.Empty(t, stdout.String())
	require.True(t, strings.HasPrefix(stderr.String(), `wormlab sim: --routing: unknown routing "xyz" (want one of `), stderr.String())
	require.Equal(t, 1, strings.Count(stderr.String(), "\n"))
}
