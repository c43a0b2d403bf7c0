package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{arg}, nil, &out, &errb, false))
		require.True(t, strings.HasPrefix(out.String(), "wormlab "), out.String())
		require.Contains(t, out.String(), "go1.")
		require.Empty(t, errb.String())
	}
}

// `wormlab CMD -h` prints its help on stdout and exits 0, for every command.
func TestHelpOnStdout(t *testing.T) {
	for name := range commands {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{name, "-h"}, nil, &out, &errb, false), name)
		require.Contains(t, out.String(), "usage: wormlab "+name, name)
		require.Empty(t, errb.String(), name)
	}
}
