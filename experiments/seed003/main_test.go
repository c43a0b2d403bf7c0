package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/experiments/internal/study"
)

// committed is the study's committed run (go run ./experiments/seed003 OUTDIR, then
// -report -doc docs/seed003.md on it; docs/seed003.md says how it was assembled).
const committed = "../../docs/seed003"

// The committed tables and figures are those of the committed points: the report
// run again on docs/seed003/points.jsonl rewrites summary.md, figures.json and every
// SVG byte for byte.
func TestCommittedReportRegenerates(t *testing.T) {
	diff, err := study.Regenerate(committed, Report)
	require.NoError(t, err)
	require.Empty(t, diff, "rerun: go run ./experiments/seed003 -report -doc docs/seed003.md docs/seed003")
}

// docs/seed003.md quotes every table of the committed summary where its markers
// stand, verbatim: filling the page from summary.md leaves it as it is (a table of
// parts the committed run left out says so, study.NotRun).
func TestDocQuotesSummary(t *testing.T) {
	missing, err := study.Quotes("../../docs/seed003.md", committed)
	require.NoError(t, err, "go run ./experiments/seed003 -report -doc docs/seed003.md docs/seed003")
	for _, m := range missing { // only the tables of parts a reduced run may leave out
		require.Contains(t, []string{"limit", "limit-claims", "length", "length-claims", "buffer", "buffer-claims",
			"hotnode", "hotnode-claims", "localshape", "localshape-claims", "packet", "pn4", "mesh"}, m)
	}
}

// The committed points are what the simulator gives: the test scale (two loads of
// every main series of the full scale, with its seeds) run again reproduces
// every figure the report reads within the committed interval and the rerun's own
// (the runs are deterministic, so in practice exactly). About 5 CPU-minutes.
func TestRerunReproducesCommitted(t *testing.T) {
	if os.Getenv("WORMLAB_LONG") == "" {
		t.Skip("WORMLAB_LONG=1 reruns the study's test scale")
	}
	diff, err := study.Rerun(context.Background(), t.TempDir(), committed, parts("test"), fields)
	require.NoError(t, err)
	require.Empty(t, diff)
}

// The test scale's points are points of the full scale, with its seeds (so the
// gated rerun compares like with like against the committed run, whose main parts
// are at the full scale): two loads of each routing in each main part.
func TestTestScaleWithinFull(t *testing.T) {
	keys, reps := study.Cases(parts("full")), map[string]int{}
	for _, p := range parts("full") {
		reps[p.Name] = p.Spec.Replications
	}
	n := 0
	for _, p := range parts("test") {
		require.Equal(t, reps[p.Name], p.Spec.Replications, p.Name)
		for _, c := range p.Spec.Axes["point"].([]study.Case) {
			_, ok := keys[p.Name+"|"+c.Name]
			require.True(t, ok, "%s %s: not a point of the full scale", p.Name, c.Name)
			n++
		}
	}
	require.Equal(t, 5*6*2, n) // five main parts, six routings, two loads
}

// In the committed run every series of a plotted part has at least six loads at
// which every seed reached a steady state (the points of its latency curve): the
// grids do what TestSixLoadsBelowSaturation says on the data, not only on paper.
func TestCommittedSixSteadyLoads(t *testing.T) {
	pts, err := study.ReadPoints(committed)
	require.NoError(t, err)
	data := collect(pts)
	n := 0
	for _, v := range variants() {
		if !v.plots {
			continue
		}
		require.NotNil(t, data[v.part], v.part)
		for _, s := range data[v.part] {
			require.GreaterOrEqual(t, s.steady, 6, "%s %s", v.part, s.alg)
			n++
		}
	}
	require.Equal(t, 5*6+2*3, n) // five main parts of six routings, two packet parts of three
}

// Every series of a plotted part has at least six loads below its saturation at
// the full scale (issue 22): six loads at or below the saturation the reduced run
// and the first full-scale attempt measured (the largest load at which every seed
// was steady; docs/seed003.md), per part and routing class.
func TestSixLoadsBelowSaturation(t *testing.T) {
	// the lowest saturation seen, for e-cube, north-last and Pn and for the hop schemes
	sat := map[string][2]float64{
		"uniform": {0.25, 0.45}, "hotspot-1": {0.24, 0.42}, "hotspot-2": {0.16, 0.25},
		"hotspot-4": {0.12, 0.15}, "local-7x7": {0.25, 0.3}, "packet": {0.45, 0.6}, "packet-4": {0.36, 0.36},
	}
	for _, v := range variants() {
		if !v.plots {
			continue
		}
		s, ok := sat[v.part]
		require.True(t, ok, v.part)
		for _, a := range v.algsUsed() {
			top := s[0]
			if a.fast {
				top = s[1]
			}
			n := 0
			for _, rho := range within(v.grid(a), v.dbar) {
				if rho <= top+1e-9 {
					n++
				}
			}
			require.GreaterOrEqual(t, n, 6, "%s %s: %d loads up to %g", v.part, a.name, n, top)
		}
	}
}

// No point offers more than a flit per node per cycle (the simulator refuses a rate
// above 1): a grid past that is cut to the most a node can offer.
func TestLoadsWithinOneFlit(t *testing.T) {
	for _, scale := range []string{"full", "reduced", "test"} {
		for _, p := range parts(scale) {
			for _, c := range p.Spec.Axes["point"].([]study.Case) {
				r := c.Params["rate"].(float64)
				require.True(t, r > 0 && r <= 1, "%s %s %s: rate %g", scale, p.Name, c.Name, r)
			}
		}
	}
	require.Equal(t, []float64{0.1, 0.2, 0.25, 0.3, 0.45, 0.583}, within(coarse(alg{}), hopsDiamond))
	require.Equal(t, []float64{0.1, 0.2, 0.25, 0.3, 0.45, 0.6, 0.625}, within(coarse(alg{}), hops5x5))
}

// Every figure the page's prose quotes (outside the tables it quotes whole) is one
// the committed summary holds: a number with a decimal point as written there, a
// percentage as written or as the share it is (87% for 0.87); the few figures the
// prose derives or takes from elsewhere are listed with where they come from.
func TestDocProseFiguresInSummary(t *testing.T) {
	doc, err := os.ReadFile("../../docs/seed003.md")
	require.NoError(t, err)
	sum, err := os.ReadFile(filepath.Join(committed, "summary.md"))
	require.NoError(t, err)
	derived := map[string]bool{
		"1.8": true, "1.3": true, "1.2": true, // the lowest hop scheme's peak over e-cube's, from the claims table
		"2.0": true, "1.16": true, "1.5": true, // NBC over Pn (0.602/0.299, 0.728/0.628) and 9 VCs over 6
		"0.02": true, "0.06": true, "0.15": true, "0.18": true, "0.875": true, // loads of the grids (main.go)
		"0.150": true, "0.149": true, "30%": true, "60%": true, // the mesh table's 0.1501, 0.1493, 0.300 and 0.597 rounded
		"3.5":  true,                             // the 7x7 square's mean hops (the configuration table)
		"19.9": true, "23.2": true, "25.1": true, // CPU-minutes of the three runs whose sums the runs table holds (cpu-seconds.json)
	}
	unheld, err := study.Figures{Shares: true, Known: derived}.Unheld(study.Prose(string(doc)), string(sum))
	require.NoError(t, err)
	require.Empty(t, unheld, "the page quotes figures the committed summary does not hold")
}
