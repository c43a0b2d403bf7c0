package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/experiments/internal/study"
)

// committed is the study's committed run (go run ./experiments/analytic -only
// PARTS -doc docs/analytic-model.md docs/analytic).
const committed = "../../docs/analytic"

// The committed tables and figures are those of the committed points: the report
// run again on docs/analytic/points.jsonl rewrites summary.md, figures.json and every
// SVG byte for byte.
func TestCommittedReportRegenerates(t *testing.T) {
	diff, err := study.Regenerate(committed, Report)
	require.NoError(t, err)
	require.Empty(t, diff, "rerun: go run ./experiments/analytic -report -doc docs/analytic-model.md docs/analytic")
}

// docs/analytic-model.md quotes every table of the committed summary where its markers
// stand, verbatim: filling the page from summary.md leaves it as it is.
func TestDocQuotesSummary(t *testing.T) {
	doc, err := os.ReadFile("../../docs/analytic-model.md")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(committed, "summary.md"))
	require.NoError(t, err)
	filled, missing, err := study.Fill(string(doc), string(sum))
	require.NoError(t, err)
	require.Empty(t, missing) // every part was run
	require.Equal(t, string(doc), filled, "docs/analytic-model.md does not quote summary.md: go run ./experiments/analytic -report -doc docs/analytic-model.md docs/analytic")
	for name := range study.Sections(string(sum)) {
		require.Contains(t, string(doc), "<!-- table "+name+" -->\n", "the page does not quote table %s", name)
	}
}

// The committed points are what the simulator gives: the test scale (the tables'
// rates 0.001 and 0.005 on every torus, 3 seeds) run again reproduces every figure
// the report reads within the committed interval and the rerun's own (the runs are
// deterministic, so in practice exactly).
func TestRerunReproducesCommitted(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("WORMLAB_LONG=1 reruns the study's test scale")
	}
	out := t.TempDir()
	ps := parts("test")
	require.NoError(t, study.Run(context.Background(), study.Options{Out: out, Workers: 2}, ps))
	recs, err := study.Load(out, ps)
	require.NoError(t, err)
	rerun := study.Points(recs, fields)
	require.NotEmpty(t, rerun)
	old, err := study.ReadPoints(committed)
	require.NoError(t, err)
	require.Empty(t, study.Differences(old, rerun, fields, 0))
}
