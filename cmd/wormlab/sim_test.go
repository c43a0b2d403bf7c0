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

// The progress line redraws one terminal line: points done of the total, the time
// spent and the time left.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := progressLine(&b, "sim", "points")
	p(1, 4)
	p(2, 4)
	require.Equal(t, 2, strings.Count(b.String(), "\r\x1b[K"))
	require.Contains(t, b.String(), "sim: 1/4 points, ")
	require.Contains(t, b.String(), "sim: 2/4 points, ")
	require.Contains(t, b.String(), " left")
	require.NotContains(t, b.String(), "\n")
}
