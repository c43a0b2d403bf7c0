package sim_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/booksim.md's table of min_adapt through --config is the committed run of
// scripts/booksim-compare.sh configadapt (docs/booksim/configadapt.csv): per load,
// the means over the seeds of BookSim2 reading the file (its default islip) and
// with separable_input_first, and of wormlab reading the same two files (min_adapt
// as minadapt-booksim-islip under islip, as minadapt-booksim under
// separable_input_first). The test formats each row from the file and checks the
// page quotes it and the figures its prose repeats, and checks the page's claims:
// with separable_input_first on both sides wormlab is within 2% of BookSim2 at
// every load; reading the file as it is, within 2% at 0.05 and 0.1 and more than
// 2% below at 0.15 (65% of saturation, about 0.23: a finding).
func TestConfigAdaptDocFigures(t *testing.T) {
	data, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	doc := string(data)
	rates, n, mean := rateMeans(t, readCSV(t, "../docs/booksim/configadapt.csv"), []string{"booksim", "wormlab", "booksim_sif", "wormlab_sif"})
	require.Equal(t, []string{"0.05", "0.1", "0.15"}, rates)
	flat := strings.Join(strings.Fields(doc), " ")
	// the separable_input_first diffs nearest and furthest from BookSim2, which
	// the prose under the table quotes
	near, far := math.Inf(1), 0.0
	for _, rate := range rates {
		m := func(c string) float64 { return mean(rate, c) }
		d := func(c, ref string) float64 { return 100 * (m(c) - m(ref)) / m(ref) }
		if x := d("wormlab_sif", "booksim_sif"); math.Abs(x) < math.Abs(near) {
			near = x
		}
		if x := d("wormlab_sif", "booksim_sif"); math.Abs(x) > math.Abs(far) {
			far = x
		}
		if rate == "0.15" {
			q := fmt.Sprintf("wormlab is %.1f%% below at 0.15", -d("wormlab", "booksim"))
			require.True(t, strings.Contains(flat, q), "docs/booksim.md should say %s", q)
		}
		line := fmt.Sprintf("| %s | %d | %.2f | %.2f (%+.1f%%) | %.2f | %.2f (%+.1f%%) |", rate, n[rate],
			m("booksim"), m("wormlab"), d("wormlab", "booksim"), m("booksim_sif"), m("wormlab_sif"), d("wormlab_sif", "booksim_sif"))
		require.True(t, strings.Contains(doc, line), "docs/booksim.md should quote the committed configadapt run:\n%s", line)
		require.Less(t, math.Abs(d("wormlab_sif", "booksim_sif")), 2.0, "configadapt.csv at %s: with separable_input_first within 2%%", rate)
		if rate == "0.15" {
			require.Less(t, d("wormlab", "booksim"), -2.0, "configadapt.csv at %s: the page says --config's latency is more than 2%% below BookSim2's", rate)
		} else {
			require.Less(t, math.Abs(d("wormlab", "booksim")), 2.0, "configadapt.csv at %s: --config's latency within 2%% of BookSim2's", rate)
		}
	}
	q := fmt.Sprintf("the agreement holds at every load (%+.1f%% to %+.1f%%)", near, far)
	require.True(t, strings.Contains(flat, q), "docs/booksim.md should say %s", q)
}

// docs/booksim.md's verdict on the configlat row at 0.38 (is --config's -1.8%
// noise or a rule?) is the committed runs': seeds 1-3 of
// docs/booksim/configlat.csv and seeds 4-10 of docs/booksim/configlat-seeds.csv
// (scripts/booksim-compare.sh configlat at RATES=0.38). The test computes the
// means and sample deviations over every seed at 0.38, the difference of
// --config's mean from BookSim2's and its standard error (the seeds' spread, both
// simulators), checks the page quotes them, and checks its verdict: a rule when
// the difference is two standard errors or more, noise otherwise.
func TestConfigLatencySeedsDocFigures(t *testing.T) {
	data, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	flat := strings.Join(strings.Fields(string(data)), " ")
	vals := seedStats{}
	cols := []string{"booksim", "booksim_sif", "wormlab", "wormlab_own"}
	for _, f := range []string{"../docs/booksim/configlat.csv", "../docs/booksim/configlat-seeds.csv"} {
		for _, r := range readCSV(t, f) {
			if r["rate"] == "0.38" {
				for _, c := range cols {
					vals[c] = append(vals[c], num(t, r, c))
				}
			}
		}
	}
	n := len(vals["booksim"])
	require.GreaterOrEqual(t, n, 10, "seeds at 0.38")
	st := seedStats(vals)
	mean, variance, diff := st.mean, st.variance, st.diff
	want := fmt.Sprintf("over seeds 1-%d: BookSim2 %.2f (sd %.2f), BookSim2 `separable_input_first` %.2f (sd %.2f), wormlab `--config` %.2f (sd %.2f), wormlab's own rules %.2f (sd %.2f)",
		n, mean("booksim"), math.Sqrt(variance("booksim")), mean("booksim_sif"), math.Sqrt(variance("booksim_sif")),
		mean("wormlab"), math.Sqrt(variance("wormlab")), mean("wormlab_own"), math.Sqrt(variance("wormlab_own")))
	require.True(t, strings.Contains(flat, want), "docs/booksim.md should say:\n%s", want)
	d, se, z := diff("wormlab", "booksim")
	verdict := "noise"
	if math.Abs(z) >= 2 {
		verdict = "a rule, not noise"
	}
	want = fmt.Sprintf("`--config` is %+.2f%% from BookSim2 with a standard error of %.2f%%, %.1f standard errors: %s", d, se, math.Abs(z), verdict)
	require.True(t, strings.Contains(flat, want), "docs/booksim.md should say:\n%s", want)
	d, _, z = diff("wormlab_own", "booksim")
	ds, _, _ := diff("booksim_sif", "booksim")
	want = fmt.Sprintf("(wormlab's own rules %+.2f%%, %.1f standard errors; BookSim2's two allocators %+.2f%%)", d, math.Abs(z), ds)
	require.True(t, strings.Contains(flat, want), "docs/booksim.md should say:\n%s", want)
}

// rateMeans groups a comparison's rows by rate, in the file's order: the rates,
// the rows (seeds) at each, and the mean of a column at a rate.
func rateMeans(t *testing.T, rows []map[string]string, cols []string) (rates []string, n map[string]int, mean func(rate, col string) float64) {
	t.Helper()
	require.NotEmpty(t, rows)
	sum := map[string]map[string]float64{}
	n = map[string]int{}
	for _, r := range rows {
		if sum[r["rate"]] == nil {
			sum[r["rate"]] = map[string]float64{}
			rates = append(rates, r["rate"])
		}
		for _, c := range cols {
			sum[r["rate"]][c] += num(t, r, c)
		}
		n[r["rate"]]++
	}
	return rates, n, func(rate, col string) float64 { return sum[rate][col] / float64(n[rate]) }
}

// seedStats are the samples of each column over seeds (one a row, every column
// of a row): their means, their sample variances, and a column's difference from
// another in percent of the other's mean, with its standard error and the number
// of standard errors.
type seedStats map[string][]float64

func (s seedStats) mean(c string) float64 {
	sum := 0.0
	for _, v := range s[c] {
		sum += v
	}
	return sum / float64(len(s[c]))
}

func (s seedStats) variance(c string) float64 {
	m, sum := s.mean(c), 0.0
	for _, v := range s[c] {
		sum += (v - m) * (v - m)
	}
	return sum / float64(len(s[c])-1)
}

func (s seedStats) diff(c, ref string) (d, se, z float64) {
	d = s.mean(c) - s.mean(ref)
	e := math.Sqrt(s.variance(c)/float64(len(s[c])) + s.variance(ref)/float64(len(s[ref])))
	return 100 * d / s.mean(ref), 100 * e / s.mean(ref), d / e
}
