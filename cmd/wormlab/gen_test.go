package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every shipped instance whose README line gives a `wormlab gen` command is what
// that command writes today, byte for byte: the commands in instances/README.md stay
// true and generation stays deterministic.
func TestShippedInstances(t *testing.T) {
	readme, err := os.ReadFile("../../instances/README.md")
	require.NoError(t, err)
	cmdRE := regexp.MustCompile("`wormlab (gen [^`]*)`")
	found := 0
	for _, m := range cmdRE.FindAllStringSubmatch(string(readme), -1) {
		args := strings.Fields(m[1])
		out := -1
		for i, a := range args {
			if a == "-o" && i+1 < len(args) {
				out = i + 1
			}
		}
		require.GreaterOrEqual(t, out, 0, "command %q writes no file", m[1])
		shipped := filepath.Join("../..", args[out])
		tmp := filepath.Join(t.TempDir(), "out.json")
		args[out] = tmp
		var stdout, stderr bytes.Buffer
		code := run(args, nil, &stdout, &stderr, false)
		require.Equal(t, 0, code, "%s: %s", m[1], stderr.String())
		want, err := os.ReadFile(shipped)
		require.NoError(t, err)
		got, err := os.ReadFile(tmp)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got), "%s", m[1])
		found++
	}
	require.GreaterOrEqual(t, found, 6)
}
