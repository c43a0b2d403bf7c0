package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/experiments/internal/study"
)

// committed is the study's committed run (go run ./experiments/seed001 -doc
// docs/seed001.md docs/seed001).
const committed = "../../docs/seed001"

// The committed tables and figures are those of the committed points: the report
// run again on docs/seed001/points.jsonl rewrites summary.md and every SVG byte for
// byte.
func TestCommittedReportRegenerates(t *testing.T) {
	diff, err := study.Regenerate(committed, func(dir string) error { return Report(context.Background(), dir) })
	require.NoError(t, err)
	require.Empty(t, diff, "rerun: go run ./experiments/seed001 -report -doc docs/seed001.md docs/seed001")
}

// docs/seed001.md quotes every table of the committed summary where its markers
// stand, verbatim, and every table the summary has; none is left out.
func TestDocQuotesSummary(t *testing.T) {
	missing, err := study.Quotes("../../docs/seed001.md", committed)
	require.NoError(t, err)
	require.Empty(t, missing)
}

// Every figure the page's prose and README's seed 001 finding quote (a number
// with a decimal point or a percentage, outside the quoted tables) stands as a
// number in the committed summary, or is one of Chien's published module delays, a
// setting of the study or the earlier page's figure the prose names (+92%, commit
// ce64eb9); and every gain quoted with its interval ("+21.5% ± 4.6") stands in the
// summary as written, so that a half-width changed to another of the summary's
// numbers is caught too.
func TestDocProseFiguresInSummary(t *testing.T) {
	doc, err := os.ReadFile("../../docs/seed001.md")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(committed, "summary.md"))
	require.NoError(t, err)
	prose := study.Prose(string(doc))
	texts := map[string]string{"docs/seed001.md": prose, "README.md": readmeFinding(t)}
	figs := study.Figures{Signed: true, Known: map[string]bool{"2.7": true, "0.6": true, "0.4": true, "2.2": true, "1.24": true, "0.8": true, "0.005": true,
		"95%": true, "15%": true, "25%": true, "+92%": true}}
	for file, text := range texts {
		unheld, err := figs.Unheld(text, string(sum))
		require.NoError(t, err, file)
		require.Empty(t, unheld, "%s quotes figures the committed summary does not hold", file)
		flat := strings.Join(strings.Fields(text), " ") // a figure may wrap
		pairs := regexp.MustCompile(`[+-]?\d+(\.\d+)?% ± \d+(\.\d+)?`).FindAllString(flat, -1)
		for _, p := range pairs {
			require.True(t, strings.Contains(string(sum), p), "%s quotes %q, which the committed summary does not hold as written", file, p)
		}
	}
	require.NotEmpty(t, regexp.MustCompile(`% ± `).FindAllString(prose, -1))
}

// readmeFinding is README's seed 001 finding, up to the next finding.
func readmeFinding(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(readme), "- **Seed 001.**")
	require.True(t, ok, "README.md has no seed 001 finding")
	finding, _, _ := strings.Cut(rest, "\n- **")
	return finding
}

// The page and README's finding say the scale the committed run was run at: the
// runs' length (runLength, which the committed specs hold), and, on the page,
// every part of the full scale the committed run left out, by name.
func TestDocStatesScale(t *testing.T) {
	doc, err := os.ReadFile("../../docs/seed001.md")
	require.NoError(t, err)
	length := fmt.Sprintf("%s to %s cycles", thousands(runLength["min-cycles"].(int)), thousands(runLength["max-cycles"].(int)))
	for file, text := range map[string]string{"docs/seed001.md": string(doc), "README.md": readmeFinding(t)} {
		require.Contains(t, strings.Join(strings.Fields(text), " "), length, "%s does not say the runs' length", file)
	}
	spec, err := os.ReadFile(filepath.Join(committed, "specs", "sat-uniform-8.json"))
	require.NoError(t, err)
	for k, v := range runLength {
		require.Regexp(t, fmt.Sprintf(`"%s": %d\b`, k, v), string(spec), "the committed specs' %s", k)
	}
	cpu, err := study.ReadCPU(committed)
	require.NoError(t, err)
	_, notRun, ok := strings.Cut(string(doc), "## Not in the committed run")
	require.True(t, ok, "docs/seed001.md has no section 'Not in the committed run'")
	left := 0
	for _, p := range parts("full") {
		if _, ran := cpu[p.Name]; !ran {
			require.Contains(t, notRun, "`"+p.Name+"`", "the committed run left out %s", p.Name)
			left++
		}
	}
	require.Less(t, left, len(parts("full")))
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Every latency curve has its shape: at least six points, steady in every seed, at
// loads below the routing's own saturation (the searches' mean highest stable load).
func TestCurvesHaveShape(t *testing.T) {
	pts, err := study.ReadPoints(committed)
	require.NoError(t, err)
	d := collect(pts)
	n := 0
	for _, p := range mains() {
		for _, a := range algs {
			s := d[p.name][a.name]
			require.NotNil(t, s, "%s %s", p.name, a.name)
			require.NotNil(t, s.sat, "%s %s: no saturation search", p.name, a.name)
			require.GreaterOrEqual(t, s.sat.seeds, 3, "%s %s", p.name, a.name)
			require.GreaterOrEqual(t, s.below(), 6, "%s %s: steady points below saturation %.4f", p.name, a.name, s.sat.lo.Mean)
			n++
		}
	}
	require.Equal(t, 30, n)
}

// The committed points are what the simulator gives: the test scale (uniform
// traffic with 8-flit packets: the searches and two loads, the full scale's seeds)
// run again reproduces every value the report reads within the committed interval
// and the rerun's own (the runs are deterministic, so in practice exactly).
func TestRerunReproducesCommitted(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("WORMLAB_LONG=1 reruns the study's test scale")
	}
	diff, err := study.Rerun(context.Background(), t.TempDir(), committed, parts("test"), fields)
	require.NoError(t, err)
	require.Empty(t, diff)
}

// The test scale's points are points of the full scale with its seeds.
func TestTestScaleWithinFull(t *testing.T) {
	keys := map[string]int{}
	for _, p := range parts("full") {
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			keys[p.Name+"|"+c.Name] = p.Spec.Replications
		}
	}
	n := 0
	for _, p := range parts("test") {
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			reps, ok := keys[p.Name+"|"+c.Name]
			require.True(t, ok, "%s %s: not a point of the full scale", p.Name, c.Name)
			require.Equal(t, reps, p.Spec.Replications, p.Name)
			n++
		}
	}
	require.Greater(t, n, 3)
}

// The grid puts seven loads evenly below 95% of the lowest saturation, four more
// on to 15% past the highest and two on to 10% past the throughput beyond
// saturation when that is higher, rising.
func TestCurve(t *testing.T) {
	xs := curve([3]float64{0.14, 0.2, 0.15})
	require.Len(t, xs, 11)
	require.InDelta(t, 0.019, xs[0], 1e-9)
	require.InDelta(t, 0.133, xs[6], 1e-9)
	require.InDelta(t, 0.23, xs[10], 1e-9)
	ys := curve([3]float64{0.08, 0.09, 0.15})
	require.Len(t, ys, 13)
	require.InDelta(t, 0.165, ys[12], 1e-9)
	for _, zs := range [][]float64{xs, ys} {
		for i := 1; i < len(zs); i++ {
			require.Greater(t, zs[i], zs[i-1])
		}
	}
}
