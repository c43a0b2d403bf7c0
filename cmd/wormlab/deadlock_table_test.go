package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// deadlock --write-table is refused by its own floor (tablePairBytes a
// source-destination pair), not the exact decision's (deadlockPairBytes): on
// mesh:16x16 (65,280 pairs) a budget of 1M refuses the enumeration (8.4 MB at
// 128 bytes a pair) but lets the table be written (522 kB at 8), and 100k
// refuses the table too, naming what it refuses.
func TestDeadlockWriteTableFloor(t *testing.T) {
	args := []string{"deadlock", "--topology", "mesh:16x16", "--routing", "dor"}
	code, _, stderr := runCLI(t, "", append(args, "--max-memory", "1M")...)
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr, "enumerating dor on mesh:16x16")

	file := filepath.Join(t.TempDir(), "dor.table")
	code, _, stderr = runCLI(t, "", append(args, "--max-memory", "1M", "--write-table", file)...)
	require.Equal(t, 0, code, stderr)
	require.FileExists(t, file)

	code, _, stderr = runCLI(t, "", append(args, "--max-memory", "100k", "--write-table", file)...)
	require.NotEqual(t, 0, code)
	require.Contains(t, stderr, "writing the routing table of dor on mesh:16x16")
}
