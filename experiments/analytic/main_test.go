package main

import (
	"context"
	"os"
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
	missing, err := study.Quotes("../../docs/analytic-model.md", committed)
	require.NoError(t, err, "go run ./experiments/analytic -report -doc docs/analytic-model.md docs/analytic")
	require.Empty(t, missing) // every part was run
}

// The committed points are what the simulator gives: the test scale (the tables'
// rates 0.001 and 0.005 on every torus, 3 seeds) run again reproduces every figure
// the report reads within the committed interval and the rerun's own (the runs are
// deterministic, so in practice exactly).
func TestRerunReproducesCommitted(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("WORMLAB_LONG=1 reruns the study's test scale")
	}
	diff, err := study.Rerun(context.Background(), t.TempDir(), committed, parts("test"), fields)
	require.NoError(t, err)
	require.Empty(t, diff)
}
