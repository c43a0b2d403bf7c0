package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/experiments/internal/study"
	"github.com/wormlab/wormlab/internal/docfig"
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
	length := fmt.Sprintf("%s to %s cycles", docfig.Thousands(runLength["min-cycles"].(int)), docfig.Thousands(runLength["max-cycles"].(int)))
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
	keys, reps := study.Cases(parts("full")), map[string]int{}
	for _, p := range parts("full") {
		reps[p.Name] = p.Spec.Replications
	}
	n := 0
	for _, p := range parts("test") {
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			_, ok := keys[p.Name+"|"+c.Name]
			require.True(t, ok, "%s %s: not a point of the full scale", p.Name, c.Name)
			require.Equal(t, reps[p.Name], p.Spec.Replications, p.Name)
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

// A claim resting on gains is decided by their intervals, read back here from the
// committed claims table's cells: claim 5 (the largest gain smaller with 64-flit
// packets) holds in a column only when the two intervals are disjoint that way and
// is level when they overlap; claim 4 holds only when the gain's interval lies
// strictly inside 15-35% and fails only when it lies wholly outside. The verdict is the
// columns': reproduced when all hold, not reproduced when all fail, level when all
// are level. At saturation (5a) both claims are level: +21.5% ± 4.6 against +17.6%
// ± 7.3 overlap, and +17.6% ± 7.3 holds 15%.
func TestClaimsLevelWhereIntervalsOverlap(t *testing.T) {
	sum, err := os.ReadFile(filepath.Join(committed, "summary.md"))
	require.NoError(t, err)
	gainRe := regexp.MustCompile(`([+-]\d+\.\d)% ± (\d+\.\d)`)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return v
	}
	verdicts := map[string]string{}
	for _, line := range strings.Split(study.Sections(string(sum))["claims"], "\n") {
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) < 3 || !regexp.MustCompile(`^[45][ab]\. `).MatchString(cells[0]) {
			continue
		}
		claim := cells[0][:2]
		var outs []string
		for _, c := range cells[1 : len(cells)-1] {
			gs := gainRe.FindAllStringSubmatch(c, -1)
			switch claim[0] {
			case '4':
				require.Len(t, gs, 1, "%s: %s", claim, c)
				g, h := num(gs[0][1]), num(gs[0][2])
				switch {
				case g-h > 15 && g+h < 35: // touching an end is level, as study.Compare has it
					outs = append(outs, "holds")
				case g+h < 15 || g-h > 35:
					outs = append(outs, "fails")
				default:
					outs = append(outs, "level")
				}
			case '5':
				require.Len(t, gs, 2, "%s: %s", claim, c)
				g8, h8, g64, h64 := num(gs[0][1]), num(gs[0][2]), num(gs[1][1]), num(gs[1][2])
				switch {
				case g64+h64 < g8-h8:
					outs = append(outs, "holds")
				case g64-h64 > g8+h8:
					outs = append(outs, "fails")
				default:
					outs = append(outs, "level")
				}
			}
		}
		var want string
		switch {
		case strings.Join(outs, " ") == "holds holds holds holds":
			want = "reproduced"
		case strings.Join(outs, " ") == "fails fails fails fails":
			want = "not reproduced"
		case strings.Join(outs, " ") == "level level level level":
			want = "level (inconclusive: the intervals overlap)"
		case slices.Contains(outs, "holds") && slices.Contains(outs, "fails"):
			want = "depends on a choice"
		default: // one outcome with level columns (TestOutcomeVerdict names them)
			require.Contains(t, cells[len(cells)-1], "where the intervals separate", "claim %s: columns %v", claim, outs)
			want = cells[len(cells)-1]
		}
		require.Equal(t, want, cells[len(cells)-1], "claim %s: columns %v", claim, outs)
		verdicts[claim] = cells[len(cells)-1]
	}
	require.Len(t, verdicts, 4)
	require.Equal(t, "level (inconclusive: the intervals overlap)", verdicts["5a"])
	require.Equal(t, "level (inconclusive: the intervals overlap)", verdicts["4a"])
	require.Equal(t, "reproduced", verdicts["5b"])
	require.Equal(t, "not reproduced", verdicts["4b"])
}

// outcomeVerdict names every mixture of columns: one outcome throughout gives
// that outcome's verdict; holding and failing columns together depend on a
// choice; level columns with the others say how many are level.
func TestOutcomeVerdict(t *testing.T) {
	H, F, L := study.Holds, study.Fails, study.Inconclusive
	for _, c := range []struct {
		outs []study.Outcome
		want string
	}{
		{nil, "not run"},
		{[]study.Outcome{H, H}, "reproduced"},
		{[]study.Outcome{F, F, F}, "not reproduced"},
		{[]study.Outcome{L, L}, "level (inconclusive: the intervals overlap)"},
		{[]study.Outcome{H, F}, "depends on a choice"},
		{[]study.Outcome{H, F, L}, "depends on a choice"},
		{[]study.Outcome{H, L, H, H}, "reproduced where the intervals separate (level in 1 of 4)"},
		{[]study.Outcome{L, F, L}, "not reproduced where the intervals separate (level in 2 of 3)"},
	} {
		require.Equal(t, c.want, outcomeVerdict(c.outs), "%v", c.outs)
	}
}
