package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// n one-hop worms crossing one edge at step 1 conflict n(n-1)/2 times; verify
// --all lists the first verifyListed of them, in All's order, and counts the
// rest exactly (text, JSON, the line on stderr), and draw marks as many and says
// so in its title, where both held every pair (5000 such worms: 4.0 GB for
// verify --all, 4.9 GB for draw). Before, the listing had all 1770 here.
func TestVerifyAllManyConflicts(t *testing.T) {
	const n = 60 // 1770 conflicts
	var in, s strings.Builder
	in.WriteString(`{"network":{"edges":[["a","b"]]},"messages":[`)
	s.WriteString(`{"model":"wormhole","makespan":1,"messages":[`)
	for i := range n {
		if i > 0 {
			in.WriteByte(',')
			s.WriteByte(',')
		}
		fmt.Fprintf(&in, `{"id":"m%d","path":["a","b"]}`, i)
		fmt.Fprintf(&s, `{"id":"m%d","cross":[1]}`, i)
	}
	in.WriteString(`]}`)
	s.WriteString(`]}`)
	dir := t.TempDir()
	inst, sched := filepath.Join(dir, "in.json"), filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(inst, []byte(in.String()), 0o644))
	require.NoError(t, os.WriteFile(sched, []byte(s.String()), 0o644))
	all := n * (n - 1) / 2

	code, stdout, stderr := runArgs("verify", "--all", inst, sched)
	require.Equal(t, 1, code, stderr)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Equal(t, fmt.Sprintf("illegal wormhole schedule: %d violations", all), lines[0])
	require.Len(t, lines, 1+verifyListed+1)
	require.Equal(t, `  edge 0 (a->b) held by "m0" and "m1" at time 1`, lines[1])
	require.Equal(t, `  edge 0 (a->b) held by "m20" and "m30" at time 1`, lines[verifyListed], "the 1000th pair in (i, j) order: 990 pairs have i < 20")
	require.Equal(t, fmt.Sprintf("  ... and %d more conflicts, not listed (the first %d are)", all-verifyListed, verifyListed), lines[len(lines)-1])
	require.Contains(t, stderr, fmt.Sprintf("(and %d more)", all-1))

	code, stdout, _ = runArgs("verify", "--all", "--json", inst, sched)
	require.Equal(t, 1, code)
	var r struct {
		Violations    []json.RawMessage `json:"violations"`
		MoreConflicts int               `json:"more_conflicts"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &r))
	require.Len(t, r.Violations, verifyListed)
	require.Equal(t, all-verifyListed, r.MoreConflicts)

	svg := filepath.Join(dir, "d.svg")
	code, _, stderr = runArgs("draw", inst, sched, "-o", svg)
	require.Equal(t, 0, code, stderr)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.Contains(t, string(b), fmt.Sprintf("ILLEGAL (%d violations); the first 1000 conflicts marked", all))
}
