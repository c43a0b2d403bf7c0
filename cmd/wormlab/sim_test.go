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

// On a terminal, sim of several points redraws a progress line on stderr (points
// done, the time left) and ends it; off a terminal stderr stays empty.
func TestSimProgressOnTerminal(t *testing.T) {
	args := []string{"sim", "--topology", "mesh:3x3", "--flits", "4", "--min-cycles", "1000", "--max-cycles", "2000", "--rate", "0.05,0.1", "--csv"}
	for _, tty := range []bool{true, false} {
		var stdout, stderr bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr, tty)
		require.Equal(t, 0, code, stderr.String())
		require.Equal(t, 3, strings.Count(stdout.String(), "\n"), "a header and two rows")
		if !tty {
			require.Empty(t, stderr.String())
			continue
		}
		require.Contains(t, stderr.String(), "\r\x1b[Ksim: 1/2 points, ")
		require.Contains(t, stderr.String(), "\r\x1b[Ksim: 2/2 points, ")
		require.Contains(t, stderr.String(), " left")
		require.True(t, strings.HasSuffix(stderr.String(), "\n"), "%q", stderr.String())
		require.Equal(t, 1, strings.Count(stderr.String(), "\n"))
	}
}
