package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/experiments/internal/study"
)

// committed is the study's committed run (sh scripts/fattree-study.sh OUTDIR, then
// go run ./experiments/fattree -report -doc docs/fattree-study.md docs/fattree on
// its points).
const committed = "../../docs/fattree"

// The committed tables and figures are those of the committed points: the report
// run again on docs/fattree/points.jsonl rewrites summary.md and every SVG byte for
// byte.
func TestCommittedReportRegenerates(t *testing.T) {
	diff, err := study.Regenerate(committed, Report)
	require.NoError(t, err)
	require.Empty(t, diff, "rerun: go run ./experiments/fattree -report -doc docs/fattree-study.md docs/fattree")
}

// docs/fattree-study.md quotes every table of the committed summary where its
// markers stand, verbatim (the claims with their verdicts among them): filling the
// page from summary.md leaves it as it is.
func TestDocQuotesSummary(t *testing.T) {
	missing, err := study.Quotes("../../docs/fattree-study.md", committed)
	require.NoError(t, err, "go run ./experiments/fattree -report -doc docs/fattree-study.md docs/fattree")
	require.Empty(t, missing, "the committed run lacks parts the page quotes")
}

// committedData is the committed run as the report reads it.
func committedData(t *testing.T) map[string]map[string]map[int]val {
	t.Helper()
	pts, err := study.ReadPoints(committed)
	require.NoError(t, err)
	return collect(pts)
}

// The figures the page's prose and README's finding quote outside the tables are
// the committed run's: each sentence is rebuilt from the committed points and must
// stand in the file as written.
func TestProseFigures(t *testing.T) {
	data := committedData(t)
	lat := func(part, label string, n int) string {
		v, ok := data[part][label][n]
		require.True(t, ok, "%s %s @%d: not in the committed run", part, label, n)
		return fmt.Sprintf("%.0f", v.lat.Mean)
	}
	ci := func(part, label string, n int) string {
		v := data[part][label][n]
		return fmt.Sprintf("%.0f ± %.0f", v.lat.Mean, v.lat.Half)
	}
	t2 := func(L int) val { return table2(data, L)[4096] }
	f16, ok := fit(table2(data, 16))
	require.True(t, ok)
	lo16, hi16 := fitInterval(table2(data, 16))
	cpu, err := study.ReadCPU(committed)
	require.NoError(t, err)
	minutes := 60 * study.CPUHours(cpu, study.Keys(cpu)...)
	checks := map[string][]string{
		"../../README.md": {
			fmt.Sprintf("p = %.2f (99%% bootstrap interval %.2f to %.2f", f16.P, lo16, hi16),
			fmt.Sprintf("SPLIT with GP-FF beats WORM with RP-RR (%s against %s at N = 4096)",
				lat("fig5", "SPLIT-GP-FF", 4096), lat("table1", "WORM-RP-RR random", 4096)),
			fmt.Sprintf("c %.1f, latency / c %.1f at N = 4096 against its 34.3 and 46.4", t2(32).c.Mean, t2(32).perC.Mean),
			fmt.Sprintf("random %s against STORE's %s at N = 4096", lat("fig2", "UNIV with ghosts", 4096), lat("table1", "STORE-RP-RR random", 4096)),
		},
		"../../docs/fattree-study.md": {
			fmt.Sprintf("%.0f CPU-minutes", minutes),
			fmt.Sprintf("SPLIT-GP-FF %s against WORM-RP-RR %s at N = 4096",
				ci("fig5", "SPLIT-GP-FF", 4096), ci("table1", "WORM-RP-RR random", 4096)),
			fmt.Sprintf("p = %.3f, 99%% bootstrap interval %.3f to %.3f", f16.P, lo16, hi16),
		},
	}
	// "the SAT optimum equals the best lower bound on every instance solved": every
	// run proven, and the optimum's mean the bound's (no run's optimum is below its
	// bound, so equal means are equal runs)
	for _, part := range []string{"fp-optimal", "fp-optimal64"} {
		for n, o := range data[part]["WORM-FP-RR optimum"] {
			require.Equal(t, o.runs, o.solved, "%s @%d: runs not proven", part, n)
			require.InDelta(t, o.lb, o.opt, 1e-9, "%s @%d: optimum against bound", part, n)
		}
	}
	// "greedy WORM falls further behind the bound as N grows"
	prev := 0.0
	for _, n := range sizes {
		v := data["fp-bounds"]["WORM-FP-RR bounds"][n]
		require.Greater(t, v.lat.Mean/v.lb, prev, "WORM / bound at N = %d", n)
		prev = v.lat.Mean / v.lb
	}
	for file, want := range checks {
		text, err := os.ReadFile(file)
		require.NoError(t, err)
		flat := strings.Join(strings.Fields(string(text)), " ") // a sentence may wrap
		for _, w := range want {
			require.True(t, strings.Contains(flat, w), "%s does not say %q (the committed run's figures)", file, w)
		}
	}
}

// The page's example is the command's golden test, output and all.
func TestDocExampleIsGolden(t *testing.T) {
	golden, err := os.ReadFile("../../cmd/wormlab/testdata/script/fattree-worm.txt")
	require.NoError(t, err)
	parts := strings.Split(string(golden), "-- ")
	var cmd, stdout string
	for _, p := range parts {
		if body, ok := strings.CutPrefix(p, "cmd --\n"); ok {
			cmd = strings.TrimSpace(body)
		}
		if body, ok := strings.CutPrefix(p, "stdout --\n"); ok {
			stdout = strings.TrimSpace(body)
		}
	}
	require.NotEmpty(t, stdout)
	doc, err := os.ReadFile("../../docs/fattree-study.md")
	require.NoError(t, err)
	require.Contains(t, string(doc), "    wormlab "+cmd+"\n    "+stdout+"\n")
}

// Every figure's series have styles of their own (colour and glyph: plotutil's
// seven), and a series keeps its style across the figures.
func TestFigureStyles(t *testing.T) {
	data := committedData(t)
	fs := figs(data)
	require.Len(t, fs, 6)
	for _, f := range fs {
		seen := map[int]string{}
		for _, c := range f.curves {
			s, ok := style[c.Name]
			require.True(t, ok, "%s: %s has no style", f.file, c.Name)
			require.Less(t, s, 7)
			require.Empty(t, seen[s], "%s: %s and %s share a style", f.file, c.Name, seen[s])
			seen[s] = c.Name
			require.NotEmpty(t, c.X, "%s: %s has no points", f.file, c.Name)
		}
	}
}

// The committed points are what wormlab fattree gives: the test scale (every part
// at N = 16 and 256, 93 points of 20 runs, 10 for Figure 5 and the FP bounds) run
// again reproduces every value the report reads (the runs are seeded, so exactly).
// About a CPU-minute.
func TestRerunReproducesCommitted(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("WORMLAB_LONG=1 reruns the study's test scale")
	}
	diff, err := study.Rerun(context.Background(), t.TempDir(), committed, parts("test"), fields)
	require.NoError(t, err)
	require.Empty(t, diff)
}

// The test scale is the full scale's points at N = 16 and 256, with the same runs
// (so the gated rerun compares like with like).
func TestTestScaleWithinFull(t *testing.T) {
	full := map[string]study.Case{}
	runs := map[string]any{}
	small := map[string]bool{}
	for _, p := range parts("full") {
		runs[p.Name] = p.Spec.Params["runs"]
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			full[p.Name+"|"+c.Name] = c
			if n := c.Params["n"]; n == 16 || n == 256 {
				small[p.Name+"|"+c.Name] = true
			}
		}
	}
	test := map[string]bool{}
	for _, p := range parts("test") {
		require.Equal(t, runs[p.Name], p.Spec.Params["runs"], p.Name)
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			f, ok := full[p.Name+"|"+c.Name]
			require.True(t, ok, "%s %s: not a point of the full scale", p.Name, c.Name)
			require.Equal(t, f.Params, c.Params)
			test[p.Name+"|"+c.Name] = true
		}
	}
	require.Equal(t, small, test)
	require.Len(t, test, 93)
}

// The report reads every run of a point: no part has more runs than maxRuns.
func TestRunsWithinFields(t *testing.T) {
	for _, d := range defs("full") {
		require.LessOrEqual(t, d.runs, maxRuns, d.name)
	}
}
