package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The program runs every group of the spec (40 moves per chain, one seed and one
// network each) and writes its records, traces, instances, figures and summary.
func TestQuick(t *testing.T) {
	out := t.TempDir()
	require.NoError(t, run("spec.json", out, "", true, io.Discard))
	rs, err := readResults(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile("spec.json")
	require.NoError(t, err)
	require.Equal(t, strings.Count(string(spec), `"name"`), len(rs), "one record per group")
	for _, r := range rs {
		require.FileExists(t, filepath.Join(out, "traces", r.Run+".jsonl"))
		require.FileExists(t, filepath.Join(out, "instances", r.Run+".json"))
		if r.Certificate != "" {
			require.True(t, r.Verified, r.Run)
		}
	}
	for _, f := range []string{"summary.md", "reach.svg", "size.svg"} {
		require.FileExists(t, filepath.Join(out, f))
	}
	// A second run resumes: nothing is run again.
	require.NoError(t, run("spec.json", out, "", true, io.Discard))
	again, err := readResults(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	require.Len(t, again, len(rs))
}

// The committed summary is what the committed records give, and docs/adversary.md
// quotes every row of it.
func TestCommittedSummary(t *testing.T) {
	if _, err := os.Stat("results.jsonl"); os.IsNotExist(err) {
		t.Skip("no committed run yet")
	}
	rs, err := readResults("results.jsonl")
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	summary, err := os.ReadFile("summary.md")
	require.NoError(t, err)
	require.Equal(t, Summary(rs), string(summary), "summary.md is not what results.jsonl gives: rerun the report")
	doc, err := os.ReadFile("../../docs/adversary.md")
	require.NoError(t, err)
	for _, line := range strings.Split(string(summary), "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| ---") {
			require.Contains(t, string(doc), line, "docs/adversary.md does not quote this row of summary.md")
		}
	}
}
