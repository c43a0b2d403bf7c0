package main

// docs/dragonfly.md's tables are built from experiments/dragonfly/results.csv
// (scripts/dragonfly-compare.sh's runs of BookSim2 and wormlab); this test rebuilds
// them and compares them with the doc (go test ./cmd/wormlab -run DragonflyDoc
// -update rewrites them), and checks the claims the doc makes of the figures:
// issue 25's agreement criterion with BookSim2 and the qualitative results of Kim,
// Dally, Scott and Abts (ISCA 2008, section 4.3) as the doc states them.

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/steady"
)

// dfRow is one run of results.csv.
type dfRow struct {
	sim, kase, routing, traffic      string
	rate, latency, ci, accepted, cpu float64
	seed                             float64
	hasLat, hasCI, hasAcc            bool
	status                           string
}

func readDragonflyResults(t *testing.T, path string) []dfRow {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(rec []string, name string) (float64, bool) {
		s := rec[col[name]]
		if s == "" {
			return 0, false
		}
		v, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err, "%s %q", name, s)
		return v, true
	}
	var rows []dfRow
	for _, rec := range recs[1:] {
		r := dfRow{sim: rec[col["sim"]], kase: rec[col["case"]], routing: rec[col["routing"]], traffic: rec[col["traffic"]], status: rec[col["status"]]}
		if sel := rec[col["select"]]; sel != "" && sel != "first" {
			r.routing += " --select " + sel // a wormlab run with another VC selection than its default
		}
		if c, ok := col["switch_input"]; ok && rec[c] != "" && rec[c] != "vc" {
			r.routing += " --switch-input " + rec[c] // and another switch allocator input stage
		}
		r.seed, _ = num(rec, "seed")
		r.rate, _ = num(rec, "rate")
		r.latency, r.hasLat = num(rec, "latency")
		r.ci, r.hasCI = num(rec, "latency_ci")
		if r.traffic == "bad_dragon" { // BookSim2's name of the worst case
			r.traffic = "worstcase"
		}
		r.accepted, r.hasAcc = num(rec, "accepted")
		r.cpu, _ = num(rec, "cpu_s")
		rows = append(rows, r)
	}
	return rows
}

// dfCell is the runs (seeds) of one simulator, routing and rate: the mean latency
// of the steady runs (NaN unless every run was steady) and the mean accepted load
// (NaN when no run reported one: BookSim2's unstable runs), each with the 95%
// half-width of Student's t over the runs (0 with one run), and the runs' status
// when not steady.
type dfCell struct {
	lat, latCI, acc, accCI float64
	n                      int
	status                 string
}

// meanCI is the mean of xs and the 95% half-width of Student's t over them (0 for
// one value).
func meanCI(xs []float64) (float64, float64) {
	n := float64(len(xs))
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= n
	if len(xs) < 2 {
		return m, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, steady.TQuantile(len(xs)-1, 0.975) * math.Sqrt(v/(n-1)/n)
}

func dfCells(rows []dfRow, kase, traffic string) map[string]map[float64]dfCell {
	type runs struct {
		lat, acc []float64
		n        int
		status   string
	}
	all := map[string]map[float64]*runs{}
	for _, r := range rows {
		if r.kase != kase || r.traffic != traffic {
			continue
		}
		key := r.sim + ":" + r.routing
		if all[key] == nil {
			all[key] = map[float64]*runs{}
		}
		a := all[key][r.rate]
		if a == nil {
			a = &runs{}
			all[key][r.rate] = a
		}
		a.n++
		if r.hasAcc {
			a.acc = append(a.acc, r.accepted)
		}
		if r.status == "ok" && r.hasLat {
			a.lat = append(a.lat, r.latency)
		} else {
			a.status = r.status
		}
	}
	out := map[string]map[float64]dfCell{}
	for key, m := range all {
		out[key] = map[float64]dfCell{}
		for rate, a := range m {
			c := dfCell{lat: math.NaN(), acc: math.NaN(), n: a.n, status: a.status}
			if len(a.acc) > 0 {
				c.acc, c.accCI = meanCI(a.acc)
			}
			if len(a.lat) == a.n {
				c.lat, c.latCI = meanCI(a.lat)
			}
			out[key][rate] = c
		}
	}
	return out
}

func rates(m map[float64]dfCell) []float64 {
	var rs []float64
	for r := range m {
		rs = append(rs, r)
	}
	sort.Float64s(rs)
	return rs
}

// fmtLat is a cell's latency, with its interval over the seeds when ci is set and
// there were several.
func fmtLat(c dfCell, ci bool) string {
	if math.IsNaN(c.lat) {
		return c.status
	}
	if ci && c.n > 1 {
		return fmt.Sprintf("%.1f ± %.1f", c.lat, c.latCI)
	}
	return fmt.Sprintf("%.1f", c.lat)
}

// fmtAcc is a cell's accepted load, with its interval as fmtLat's.
func fmtAcc(c dfCell, ci bool) string {
	if math.IsNaN(c.acc) {
		return "-"
	}
	if ci && c.n > 1 {
		return fmt.Sprintf("%.3f ± %.3f", c.acc, c.accCI)
	}
	return fmt.Sprintf("%.3f", c.acc)
}

// agreeTable is the side-by-side table of an agreement case, BookSim2's routing bs
// against each of wormlab's runs wls (a routing, with " --select S" for another
// VC selection), and the checks of issue 25's criterion: saturation (accepted load
// at offered 1.0) within 5%, and latency within 5% at every offered load up to 80%
// of BookSim's saturation. diffs gets each wormlab run's latency difference in
// percent at each offered load below 1.0 and its saturation difference at 1.0.
func agreeTable(t *testing.T, rows []dfRow, kase, bs string, diffs map[string]map[float64]float64, wls ...string) string {
	cells := dfCells(rows, kase, "uniform")
	b := cells["booksim:"+bs]
	require.NotEmpty(t, b, kase)
	var ws []map[float64]dfCell
	for _, wl := range wls {
		require.NotEmpty(t, cells["wormlab:"+wl], "%s: no wormlab runs of %s", kase, wl)
		ws = append(ws, cells["wormlab:"+wl])
	}
	sat := b[1.0].acc
	require.False(t, math.IsNaN(sat), "%s: BookSim2 has no saturation run", kase)
	// a column's name: the selection (and the switch allocator's input stage
	// when not the default) when several runs are side by side
	name := func(what string, i int) string {
		if len(wls) == 1 {
			return "wormlab " + what
		}
		sel := "first"
		if _, after, ok := strings.Cut(wls[i], " --select "); ok {
			sel = strings.Replace(after, " --switch-input ", "`, `", 1)
		}
		return fmt.Sprintf("wormlab %s, `%s`", what, sel)
	}
	var s strings.Builder
	s.WriteString("| offered | BookSim2 latency |")
	for i := range wls {
		s.WriteString(" " + name("latency", i) + " | difference |")
	}
	s.WriteString(" BookSim2 accepted |")
	for i := range wls {
		s.WriteString(" " + name("accepted", i) + " |")
	}
	s.WriteString("\n|---|---|" + strings.Repeat("---|---|", len(wls)) + "---|" + strings.Repeat("---|", len(wls)) + "\n")
	for _, r := range rates(b) {
		bc := b[r]
		if r == 1.0 {
			s.WriteString("| saturation (1.0) | |")
			for i, w := range ws {
				wc := w[r]
				require.Equal(t, bc.n, wc.n, "%s at %.2f: %d BookSim2 runs, %d wormlab runs of %s", kase, r, bc.n, wc.n, wls[i])
				d := 100 * (wc.acc - bc.acc) / bc.acc
				diffs[wls[i]][r] = d
				fmt.Fprintf(&s, " | %+.1f%% |", d)
				require.LessOrEqual(t, math.Abs(d), 5.0, "%s %s: saturation throughput differs by %.1f%%", kase, wls[i], d)
			}
			fmt.Fprintf(&s, " %.3f |", bc.acc)
			for _, w := range ws {
				fmt.Fprintf(&s, " %.3f |", w[r].acc)
			}
			s.WriteString("\n")
			continue
		}
		fmt.Fprintf(&s, "| %.2f (%.0f%%) | %s |", r, 100*r/sat, fmtLat(bc, false))
		for i, w := range ws {
			wc := w[r]
			require.Equal(t, bc.n, wc.n, "%s at %.2f: %d BookSim2 runs, %d wormlab runs of %s", kase, r, bc.n, wc.n, wls[i])
			d := "-"
			if !math.IsNaN(bc.lat) && !math.IsNaN(wc.lat) {
				x := 100 * (wc.lat - bc.lat) / bc.lat
				diffs[wls[i]][r] = x
				d = fmt.Sprintf("%+.1f%%", x)
				if r <= 0.8*sat {
					require.LessOrEqual(t, math.Abs(x), 5.0, "%s %s: latency at %.2f (%.0f%% of saturation) differs by %.1f%%", kase, wls[i], r, 100*r/sat, x)
				}
			} else if r <= 0.8*sat {
				t.Errorf("%s %s: no steady latency to compare at %.2f, below 80%% of saturation %.3f", kase, wls[i], r, sat)
			}
			fmt.Fprintf(&s, " %s | %s |", fmtLat(wc, true), d)
		}
		fmt.Fprintf(&s, " %s |", fmtAcc(bc, false))
		for _, w := range ws {
			fmt.Fprintf(&s, " %s |", fmtAcc(w[r], false))
		}
		s.WriteString("\n")
	}
	return s.String()
}

// studyTable is latency / accepted load per routing at each offered load, for the
// routings with runs.
func studyTable(rows []dfRow, kase, traffic string, keys []string) string {
	cells := dfCells(rows, kase, traffic)
	var have []string
	all := map[float64]bool{}
	for _, k := range keys {
		if len(cells[k]) == 0 {
			continue
		}
		have = append(have, k)
		for r := range cells[k] {
			all[r] = true
		}
	}
	var s strings.Builder
	s.WriteString("| offered |")
	for _, k := range have {
		s.WriteString(" " + k + " |")
	}
	s.WriteString("\n|---|" + strings.Repeat("---|", len(have)) + "\n")
	var rs []float64
	for r := range all {
		rs = append(rs, r)
	}
	sort.Float64s(rs)
	for _, r := range rs {
		fmt.Fprintf(&s, "| %.2f |", r)
		for _, k := range have {
			c, ok := cells[k][r]
			switch {
			case !ok:
				s.WriteString(" |")
			case r == 1.0:
				fmt.Fprintf(&s, " accepted %s |", fmtAcc(c, true))
			default:
				fmt.Fprintf(&s, " %s / %s |", fmtLat(c, true), fmtAcc(c, true))
			}
		}
		s.WriteString("\n")
	}
	return s.String()
}

// replaceTable puts body between "<!-- table NAME -->" and the next "<!-- end -->".
func replaceTable(t *testing.T, doc, name, body string) string {
	open := "<!-- table " + name + " -->\n"
	i := strings.Index(doc, open)
	require.GreaterOrEqual(t, i, 0, "docs/dragonfly.md has no %q", open)
	j := strings.Index(doc[i:], "<!-- end -->")
	require.GreaterOrEqual(t, j, 0, "table %s has no end mark", name)
	return doc[:i+len(open)] + body + doc[i+j:]
}

// The study's network: BookSim2's dragonflynew with k = 4.
const (
	dfA, dfP, dfH = 8, 4, 4
	dfGroups      = dfA*dfH + 1
)

func TestDragonflyDoc(t *testing.T) {
	rows := readDragonflyResults(t, "../../experiments/dragonfly/results.csv")
	keys := []string{"wormlab:df-min", "wormlab:df-valiant", "wormlab:df-ugal-l", "wormlab:df-ugal-g", "wormlab:df-par", "booksim:min", "booksim:ugal"}
	// diffs[case][wormlab run][offered]: latency differences, and at 1.0 the
	// saturation difference, in percent
	diffs := map[string]map[string]map[float64]float64{}
	agree := func(kase, bs string, wls ...string) string {
		diffs[kase] = map[string]map[float64]float64{}
		for _, wl := range wls {
			diffs[kase][wl] = map[float64]float64{}
		}
		return agreeTable(t, rows, kase, bs, diffs[kase], wls...)
	}
	tables := map[string]string{
		"agree-df":     agree("agree-df", "min", "df-min"),
		"agree-ff":     agree("agree-ff", "ran_min", "hx-dor", "hx-dor --select rotate", "hx-dor --select rotate --switch-input output"),
		"agree-cmesh":  agree("agree-cmesh", "dor_no_express", "dor", "dor --select rotate", "dor --select rotate --switch-input output"),
		"agree-anynet": agree("agree-anynet", "min", "any-updown", "any-updown --select rotate", "any-updown --select rotate --switch-input output"),
		"uniform":      studyTable(rows, "study", "uniform", keys),
		"worstcase":    studyTable(rows, "study", "worstcase", keys),
	}
	// at1 is the accepted load at offered 1.0 (NaN without the run), peak the
	// highest accepted load over the offered loads run
	at1 := func(kase, traffic, key string) float64 {
		c, ok := dfCells(rows, kase, traffic)[key][1.0]
		if !ok {
			return math.NaN()
		}
		return c.acc
	}
	peak := func(kase, traffic, key string) float64 {
		p := math.NaN()
		for _, c := range dfCells(rows, kase, traffic)[key] {
			if !math.IsNaN(c.acc) && !(c.acc <= p) {
				p = c.acc
			}
		}
		return p
	}
	f3 := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%.3f", x)
	}
	// c1 is the accepted load at offered 1.0 with its interval over the seeds
	c1 := func(kase, traffic, key string) string {
		c, ok := dfCells(rows, kase, traffic)[key][1.0]
		if !ok {
			return "-"
		}
		return fmtAcc(c, true)
	}
	var sum strings.Builder
	sum.WriteString("| routing | uniform at 1.0 | uniform, peak | worst case at 1.0 | worst case, peak | uniform at 1.0, 2 VCs a class | worst case at 1.0, 2 VCs a class |\n|---|---|---|---|---|---|---|\n")
	for _, k := range keys {
		fmt.Fprintf(&sum, "| %s | %s | %s | %s | %s | %s | %s |\n", k, c1("study", "uniform", k), f3(peak("study", "uniform", k)),
			c1("study", "worstcase", k), f3(peak("study", "worstcase", k)), c1("study-x2", "uniform", k), c1("study-x2", "worstcase", k))
	}
	tables["saturation"] = sum.String()

	// the claims the doc makes of the figures (wormlab's runs, accepted load at
	// offered 1.0)
	sat := func(traffic, key string) float64 {
		x := at1("study", traffic, "wormlab:"+key)
		require.False(t, math.IsNaN(x), "study %s %s: no run at offered 1.0", traffic, key)
		return x
	}
	minUR, valUR, ulUR, ugUR := sat("uniform", "df-min"), sat("uniform", "df-valiant"), sat("uniform", "df-ugal-l"), sat("uniform", "df-ugal-g")
	minWC, valWC, ugWC := sat("worstcase", "df-min"), sat("worstcase", "df-valiant"), sat("worstcase", "df-ugal-g")
	// minimal routing under worst-case traffic: the a*p terminals of a group share
	// its one global channel to the next group
	require.Less(t, minWC, 1.0/(dfA*dfP), "minimal routing's worst case above one channel's share")
	require.Less(t, minWC, 0.1*valWC, "Valiant carries ten times minimal routing's worst case")
	// Valiant: a packet crosses two global channels (one when the intermediate
	// group is its source's or destination's), so at most about half the uniform
	// load; below minimal routing's, but not half of it (docs/dragonfly.md)
	require.Less(t, valUR, 0.5*dfGroups/(dfGroups-2), "Valiant above its bound")
	require.Less(t, valUR, minUR, "Valiant above minimal routing under uniform traffic")
	require.InDelta(t, 0.75, valUR/minUR, 0.05, "the doc and README say Valiant keeps about three quarters of minimal routing's uniform throughput")
	// UGAL tracks minimal routing under uniform traffic; under the worst case
	// UGAL-G is between minimal routing and Valiant
	require.GreaterOrEqual(t, ulUR, 0.95*minUR, "UGAL-L under uniform traffic")
	require.GreaterOrEqual(t, ugUR, 0.95*minUR, "UGAL-G under uniform traffic")
	require.Greater(t, ugWC, 5*minWC, "UGAL-G under worst-case traffic against minimal routing")
	ugPeak := peak("study", "worstcase", "wormlab:df-ugal-g")
	require.Less(t, ugPeak, valWC, "the doc says UGAL-G stays below Valiant under worst-case traffic")
	require.Less(t, ugWC, ugPeak, "the doc says UGAL-G carries less at offered 1.0 than at its peak")
	// minimal routing's worst case at two thirds of the channel's share: packets of
	// 4 flits on one output VC, two cycles between them
	require.InDelta(t, 2.0/3, minWC*dfA*dfP, 0.05, "minimal routing's worst case against two thirds of the share")
	// PAR: more worst-case load than either UGAL, less than Valiant; minimal
	// routing's uniform load; a much higher latency below saturation
	parPeak := peak("study", "worstcase", "wormlab:df-par")
	require.Greater(t, parPeak, ugPeak, "PAR against UGAL-G, worst case")
	require.Greater(t, parPeak, peak("study", "worstcase", "wormlab:df-ugal-l"), "PAR against UGAL-L, worst case")
	require.Less(t, parPeak, valWC, "PAR against Valiant, worst case")
	require.GreaterOrEqual(t, sat("uniform", "df-par"), 0.95*minUR, "PAR under uniform traffic")
	ur := dfCells(rows, "study", "uniform")
	require.Greater(t, ur["wormlab:df-par"][0.35].lat, 2*ur["wormlab:df-min"][0.35].lat, "PAR's latency at 0.35 against minimal routing's")
	lmin, lval := ur["wormlab:df-min"][0.1].lat, ur["wormlab:df-valiant"][0.1].lat
	require.Greater(t, ur["wormlab:df-par"][0.1].lat, (lmin+lval)/2, "PAR's latency at 0.1 nearer Valiant's than minimal routing's")
	require.Greater(t, ur["wormlab:df-ugal-l"][0.1].lat, lmin, "UGAL-L's latency at 0.1 above minimal routing's")
	require.Less(t, ur["wormlab:df-ugal-l"][0.1].lat, lval, "UGAL-L's latency at 0.1 below Valiant's")
	var claims strings.Builder
	fmt.Fprintf(&claims, "| quantity | value |\n|---|---|\n")
	fmt.Fprintf(&claims, "| minimal, worst case, against one global channel's share 1/(a p) = %.4f | %.4f (%.0f%%) |\n", 1.0/(dfA*dfP), minWC, 100*minWC*dfA*dfP)
	fmt.Fprintf(&claims, "| Valiant / minimal, worst case | %.1f |\n", valWC/minWC)
	fmt.Fprintf(&claims, "| Valiant / minimal, uniform | %.2f |\n", valUR/minUR)
	fmt.Fprintf(&claims, "| UGAL-L / minimal, UGAL-G / minimal, uniform | %.2f, %.2f |\n", ulUR/minUR, ugUR/minUR)
	fmt.Fprintf(&claims, "| UGAL-G / minimal, UGAL-G / Valiant, worst case | %.1f, %.2f |\n", ugWC/minWC, ugWC/valWC)
	// BookSim2's min on the study's network, uniform traffic, at offered 1.0
	bsMinUR := at1("study", "uniform", "booksim:min")
	require.False(t, math.IsNaN(bsMinUR), "the doc compares BookSim2's min at 1.0 on the study's network")
	require.InDelta(t, 0, minUR/bsMinUR-1, 0.01, "the doc says df-min saturates within 1%% of BookSim2's min on the study's network")
	fmt.Fprintf(&claims, "| df-min / BookSim2's min, uniform | %.3f |\n", minUR/bsMinUR)
	bsLat, wlLat := ur["booksim:min"][0.3].lat, ur["wormlab:df-min"][0.3].lat
	require.InDelta(t, 0, wlLat/bsLat-1, 0.01, "the doc says df-min's latency at 0.3 is within 1%% of BookSim2's min's")
	fmt.Fprintf(&claims, "| df-min's latency / BookSim2's min's, uniform, 0.3 | %.3f |\n", wlLat/bsLat)
	// the uniform rows past saturation run at one seed: each routing's accepted load
	// there within 2% of its load at 1.0 (docs/dragonfly.md, what is not done)
	for _, k := range keys[:5] {
		for r, c := range ur[k] {
			if r > 0.45 && r < 1 && c.n == 1 {
				require.InDelta(t, 0, c.acc/at1("study", "uniform", k)-1, 0.02, "%s at %.2f against 1.0", k, r)
			}
		}
	}
	// the drain cut's check: each cut run of agree-df at 1.0 (agree-df-cut) gives
	// the accepted rate of the full run of its seed, and the doc quotes them
	full, cut := map[float64]float64{}, map[float64]float64{}
	for _, r := range rows {
		if r.sim == "booksim" && r.rate == 1.0 && r.kase == "agree-df" {
			full[r.seed] = r.accepted
		}
		if r.sim == "booksim" && r.rate == 1.0 && r.kase == "agree-df-cut" {
			cut[r.seed] = r.accepted
		}
	}
	require.Len(t, cut, 3, "agree-df-cut: the cut runs of seeds 1-3")
	require.Equal(t, full, cut, "the cut runs of agree-df at 1.0 against its full runs, by seed")
	cutQuote := fmt.Sprintf("report %g, %g and %g", cut[1], cut[2], cut[3])
	// the drain's cost the doc gives: minimal routing carries 0.021 of the 1 flit a
	// cycle offered under worst-case traffic, so the drain delivers about fifty
	// times the measured cycles' worth
	require.Equal(t, "0.021", f3(minWC), "the doc says df-min carries 0.021 under worst-case traffic at 1.0")
	require.InDelta(t, 50, 1/minWC, 5, "the doc says the drain is about fifty times the measured cycles' worth")
	// and the CPU of BookSim2's cut runs under worst-case traffic at 1.0, each
	// routing's least and most over the seeds in whole seconds ("30-31 and 60-69
	// CPU-s a run")
	for rt, want := range map[string][2]float64{"min": {30, 31}, "ugal": {60, 69}} {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, r := range rows {
			if r.sim == "booksim" && r.kase == "study" && r.routing == rt && r.traffic == "worstcase" && r.rate == 1.0 {
				lo, hi = min(lo, r.cpu), max(hi, r.cpu)
			}
		}
		require.Equal(t, want, [2]float64{math.Round(lo), math.Round(hi)}, "the doc gives BookSim2's %s runs under worst-case traffic at 1.0 as %v CPU-s", rt, want)
	}
	// BookSim2 under worst-case traffic at offered 1.0 (throughput mode, its drain
	// cut: scripts/dragonfly-compare.sh's BS_CUT)
	bsMinWC, bsUgalWC := at1("study", "worstcase", "booksim:min"), at1("study", "worstcase", "booksim:ugal")
	require.False(t, math.IsNaN(bsMinWC) || math.IsNaN(bsUgalWC), "the doc quotes BookSim2's min and ugal under worst-case traffic at 1.0")
	require.InDelta(t, 0, minWC/bsMinWC-1, 0.02, "the doc says df-min's worst case is within 2%% of BookSim2's min's")
	ulWC := sat("worstcase", "df-ugal-l")
	require.Greater(t, bsUgalWC, 2*bsMinWC, "the doc says BookSim2's ugal carries more than twice its min's worst case")
	require.Less(t, bsUgalWC, 0.5*min(ulWC, ugWC), "the doc says BookSim2's ugal carries less than half of df-ugal-l's and df-ugal-g's worst case")
	fmt.Fprintf(&claims, "| df-min / BookSim2's min, worst case | %.3f |\n", minWC/bsMinWC)
	fmt.Fprintf(&claims, "| BookSim2's ugal / its min, worst case; / df-ugal-l, / df-ugal-g | %.1f; %.2f, %.2f |\n", bsUgalWC/bsMinWC, bsUgalWC/ulWC, bsUgalWC/ugWC)
	wc := dfCells(rows, "study", "worstcase")
	for _, k := range []string{"booksim:min", "booksim:ugal"} {
		require.Equal(t, "unstable", wc[k][0.2].status, "the doc says %s is unstable under worst-case traffic at 0.2", k)
	}
	for _, k := range []string{"wormlab:df-valiant", "wormlab:df-ugal-g", "wormlab:df-par"} {
		require.False(t, math.IsNaN(wc[k][0.2].lat), "the doc says %s is steady under worst-case traffic at 0.2", k)
	}
	// with two VCs a class (study-x2)
	x2 := func(traffic, key string) float64 {
		x := at1("study-x2", traffic, "wormlab:"+key)
		require.False(t, math.IsNaN(x), "study-x2 %s %s: no run at offered 1.0", traffic, key)
		return x
	}
	minUR2, valUR2, ulUR2, ugUR2 := x2("uniform", "df-min"), x2("uniform", "df-valiant"), x2("uniform", "df-ugal-l"), x2("uniform", "df-ugal-g")
	minWC2, valWC2, ulWC2, ugWC2, parWC2 := x2("worstcase", "df-min"), x2("worstcase", "df-valiant"), x2("worstcase", "df-ugal-l"), x2("worstcase", "df-ugal-g"), x2("worstcase", "df-par")
	require.Greater(t, minWC2*dfA*dfP, 0.85, "the doc says two VCs a class let minimal routing's worst case near one channel's share")
	require.Greater(t, minUR2, 1.2*minUR, "the doc says minimal routing's uniform throughput grows with two VCs a class")
	require.Less(t, valUR2/minUR2, valUR/minUR, "the doc says Valiant's share of minimal routing's uniform throughput falls with two VCs a class")
	require.Greater(t, valUR2/minUR2, 0.5, "the doc says it stays above a half")
	require.GreaterOrEqual(t, min(ulUR2, ugUR2), 0.9*minUR2, "the doc says UGAL tracks minimal routing with two VCs a class")
	require.Greater(t, valWC2, valWC, "Valiant's worst case with two VCs a class")
	require.Greater(t, ulWC2, at1("study", "worstcase", "wormlab:df-ugal-l"), "UGAL-L's worst case with two VCs a class")
	require.Greater(t, parWC2, at1("study", "worstcase", "wormlab:df-par"), "PAR's worst case with two VCs a class")
	require.Less(t, ugWC2, ugWC, "the doc says UGAL-G's worst case does not grow with two VCs a class")
	fmt.Fprintf(&claims, "| two VCs a class: minimal, worst case, against 1/(a p) | %.4f (%.0f%%) |\n", minWC2, 100*minWC2*dfA*dfP)
	fmt.Fprintf(&claims, "| two VCs a class: Valiant / minimal, uniform | %.2f |\n", valUR2/minUR2)
	fmt.Fprintf(&claims, "| two VCs a class: UGAL-L / minimal, UGAL-G / minimal, uniform | %.2f, %.2f |\n", ulUR2/minUR2, ugUR2/minUR2)
	fmt.Fprintf(&claims, "| two VCs a class: UGAL-G / Valiant, worst case | %.2f |\n", ugWC2/valWC2)
	bsUgalUR := at1("study", "uniform", "booksim:ugal")
	require.Less(t, bsUgalUR, min(ulUR, ugUR), "the doc says BookSim2's ugal carries less uniform traffic than df-ugal-l and df-ugal-g")
	tables["claims"] = claims.String()

	// the CPU the committed runs took, by case and simulator
	cpu := map[string]float64{}
	for _, r := range rows {
		cpu[r.kase+" "+r.sim] += r.cpu
	}
	var cs strings.Builder
	cs.WriteString("| case | BookSim2 | wormlab |\n|---|---|---|\n")
	for _, k := range []string{"agree-df", "agree-ff", "agree-cmesh", "agree-anynet", "study", "study-x2"} {
		fmt.Fprintf(&cs, "| %s | %.0f s | %.0f s |\n", k, cpu[k+" booksim"], cpu[k+" wormlab"])
	}
	tables["cpu"] = cs.String()
	ugal := map[string]float64{}
	tables["ugal-trace"] = ugalTrace(t, rows, ugal)

	data, err := os.ReadFile("../../docs/dragonfly.md")
	require.NoError(t, err)
	doc := string(data)
	require.Contains(t, strings.Join(strings.Fields(doc), " "), cutQuote, "the doc quotes the cut runs")
	checkRotateClaims(t, diffs)
	ejectTrace(t, rows, doc)
	require.Contains(t, strings.Join(strings.Fields(doc), " "), fmt.Sprintf("`ugal-groupmid`, %.0f-%.0f CPU-s a run", ugal["bs:group-mid cpu lo"], ugal["bs:group-mid cpu hi"]), "the doc's CPU of BookSim2's ugal-groupmid runs")
	// the CPU of df-ugal-g's rerun (every seed, study and study-x2: 45 runs)
	ugCPU, ugN := 0.0, 0
	for _, r := range rows {
		if r.sim == "wormlab" && r.routing == "df-ugal-g" && (r.kase == "study" || r.kase == "study-x2") {
			ugCPU += r.cpu
			ugN++
		}
	}
	require.Contains(t, strings.Join(strings.Fields(doc), " "), fmt.Sprintf("`df-ugal-g`'s %d runs were rerun alone at load 5-8 when its routing stopped reading a local channel's queue for traffic within a group (9da961b), `SIDES=wormlab WL_ROUTINGS=df-ugal-g`, %.1f s", ugN, ugCPU), "the doc's CPU of df-ugal-g's rerun")
	any1, anyR := diffs["agree-anynet"]["any-updown"], diffs["agree-anynet"]["any-updown --select rotate"]
	flat := strings.Join(strings.Fields(doc), " ")
	for _, q := range []string{
		fmt.Sprintf("within %.1f%% of BookSim2's up to 65%% of saturation but %.1f%% above it at 81%% and %.1f%% at 98%%", any1[0.08], any1[0.1], any1[0.12]),
		fmt.Sprintf("falls from %+.1f%% to %+.1f%%, within the issue's 5%%, and at 98%% from %+.1f%% to %+.1f%%", any1[0.1], anyR[0.1], any1[0.12], anyR[0.12]),
		fmt.Sprintf("(%+.1f%% at 98%% on the tree, %+.1f%% at 99%% on the concentrated mesh)", anyR[0.12], diffs["agree-cmesh"]["dor --select rotate"][0.2]),
	} {
		require.Contains(t, flat, q, "the doc's figures of the VC selection on the tree")
	}
	checkSwitchInputClaims(t, rows, diffs, flat)
	for _, name := range []string{"agree-df", "agree-ff", "agree-cmesh", "agree-anynet", "uniform", "worstcase", "saturation", "claims", "cpu", "ugal-trace"} {
		doc = replaceTable(t, doc, name, tables[name])
	}
	if *update {
		require.NoError(t, os.WriteFile("../../docs/dragonfly.md", []byte(doc), 0o644))
		return
	}
	require.Equal(t, string(data), doc, "docs/dragonfly.md's tables differ from experiments/dragonfly/results.csv (go test ./cmd/wormlab -run DragonflyDoc -update)")
}

// checkRotateClaims checks what docs/dragonfly.md says of the VC selection on the
// small networks (BookSim2's rule, --select rotate, against wormlab's default):
// at every offered load from 40% of saturation up to its last steady one, each of
// agree-ff, agree-cmesh and agree-anynet's latency lies nearer BookSim2's with
// rotate; on the tree at 81% of saturation the difference falls from above 5% to
// below 5%; saturation stays within 2.5% on all three.
func checkRotateClaims(t *testing.T, diffs map[string]map[string]map[float64]float64) {
	for kase, wl := range map[string]string{"agree-ff": "hx-dor", "agree-cmesh": "dor", "agree-anynet": "any-updown"} {
		first, rot := diffs[kase][wl], diffs[kase][wl+" --select rotate"]
		n := 0
		for r, d := range first {
			if r == 1.0 {
				require.LessOrEqual(t, math.Abs(rot[r]), 2.5, "%s: saturation with rotate", kase)
				continue
			}
			if x, ok := rot[r]; ok && d > 1 {
				n++
				require.Less(t, math.Abs(x), math.Abs(d), "%s at %.2f: rotate's latency difference against first's", kase, r)
			}
		}
		require.GreaterOrEqual(t, n, 2, "%s: the loads the claim covers", kase)
	}
	first, rot := diffs["agree-anynet"]["any-updown"][0.1], diffs["agree-anynet"]["any-updown --select rotate"][0.1]
	require.Greater(t, first, 5.0, "the doc says first's latency on the tree at 0.10 is more than 5%% above BookSim2's")
	require.Less(t, rot, 5.0, "the doc says rotate's latency on the tree at 0.10 is within 5%% of BookSim2's")
}

// ugalRule is a variant of experiments/dragonfly/ugal's trace: BookSim2's UGAL with
// some of its rules set to the paper's, and its row's name in the doc's table.
var ugalRules = []struct{ variant, name string }{
	{"booksim", "BookSim2's (intermediate router, q_min <= 2 q_nonmin + 30, VC = phase)"},
	{"threshold-0", "bias 0 instead of 30"},
	{"hop-weights", "queues weighed by hop counts instead of 1 and 2"},
	{"threshold-0+hop-weights", "both"},
	{"paper-vcs", "the paper's VC classes (the intermediate group's hops on VC 1)"},
	{"group-mid", "intermediate group: the non-minimal phase ends on entering it"},
	{"group-mid+paper-vcs", "intermediate group and the paper's VC classes"},
	{"group-mid+threshold-0+hop-weights", "intermediate group, bias 0, hop counts"},
	{"df-ugal-l", "`df-ugal-l` (the paper's UGAL-L)"},
}

// ugalTrace builds the doc's table of the UGAL trace from experiments/dragonfly/
// ugal.csv (wormlab) and results.csv's BookSim2 runs (its ugal, and ugal-groupmid's
// patched one), and checks what the doc says of it; acc gets each variant's mean.
func ugalTrace(t *testing.T, rows []dfRow, acc map[string]float64) string {
	f, err := os.Open("../../experiments/dragonfly/ugal.csv")
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"variant", "seed", "accepted", "cpu_s"}, recs[0])
	runs := map[string][]float64{}
	for _, r := range recs[1:] {
		x, err := strconv.ParseFloat(r[2], 64)
		require.NoError(t, err)
		runs[r[0]] = append(runs[r[0]], x)
	}
	bs := func(kase string) []float64 {
		var xs []float64
		for _, r := range rows {
			if r.sim == "booksim" && r.kase == kase && r.routing == "ugal" && r.traffic == "worstcase" && r.rate == 1.0 {
				xs = append(xs, r.accepted)
			}
		}
		return xs
	}
	bsRuns := map[string][]float64{"booksim": bs("study"), "group-mid": bs("ugal-groupmid")}
	var s strings.Builder
	s.WriteString("| rules | wormlab, accepted at 1.0 | BookSim2, accepted at 1.0 |\n|---|---|---|\n")
	for _, u := range ugalRules {
		xs := runs[u.variant]
		require.Len(t, xs, 3, "ugal.csv: %s at seeds 1-3", u.variant)
		m, h := meanCI(xs)
		acc[u.variant] = m
		b := ""
		if ys, ok := bsRuns[u.variant]; ok {
			require.Len(t, ys, 3, "BookSim2's %s at seeds 1-3", u.variant)
			bm, bh := meanCI(ys)
			acc["bs:"+u.variant] = bm
			b = fmt.Sprintf("%.3f ± %.3f", bm, bh)
		}
		fmt.Fprintf(&s, "| %s | %.3f ± %.3f | %s |\n", u.name, m, h, b)
	}
	// the doc's statements
	require.InDelta(t, acc["df-ugal-l"], at1Of(t, rows, "worstcase", "wormlab:df-ugal-l"), 1e-5, "ugal.csv's df-ugal-l runs are the study's")
	require.Greater(t, acc["group-mid"], 1.8*acc["booksim"], "the doc says the intermediate group nearly doubles wormlab's figure")
	require.Less(t, acc["group-mid"], 2*acc["booksim"], "the doc says the intermediate group nearly doubles wormlab's figure")
	require.Greater(t, acc["bs:group-mid"], 2*acc["bs:booksim"], "the intermediate group against the router, BookSim2")
	for _, v := range []string{"threshold-0", "hop-weights", "threshold-0+hop-weights"} {
		require.InDelta(t, 1, acc[v]/acc["booksim"], 0.15, "%s moves BookSim2's rules by less than 15%%", v)
	}
	require.Less(t, acc["paper-vcs"], acc["booksim"], "the paper's VC classes with the intermediate router")
	require.Equal(t, acc["group-mid"], acc["group-mid+paper-vcs"], "with the intermediate group the VC classes are the paper's already")
	require.InDelta(t, 1, acc["group-mid+threshold-0+hop-weights"]/acc["df-ugal-l"], 0.06, "the doc says the paper's rules in BookSim2's routing come within 6%% of df-ugal-l")
	require.InDelta(t, 1.5, acc["booksim"]/acc["bs:booksim"], 0.1, "the doc says wormlab with BookSim2's rules carries half as much again as BookSim2")
	require.InDelta(t, 1.1, acc["threshold-0+hop-weights"]/acc["booksim"], 0.02, "the doc says the bias and the weights together move it by a tenth")
	// the CPU of a run: "2-5 CPU-s a run"
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range recs[1:] {
		x, err := strconv.ParseFloat(r[3], 64)
		require.NoError(t, err)
		lo, hi = min(lo, x), max(hi, x)
	}
	require.Equal(t, [2]float64{2, 5}, [2]float64{math.Round(lo), math.Round(hi)}, "the doc says 2-5 CPU-s a run")
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		if r.sim == "booksim" && r.kase == "ugal-groupmid" {
			lo, hi = min(lo, r.cpu), max(hi, r.cpu)
		}
	}
	acc["bs:group-mid cpu lo"], acc["bs:group-mid cpu hi"] = lo, hi
	return s.String()
}

// at1Of is the mean accepted load of the study's runs of key at offered 1.0.
func at1Of(t *testing.T, rows []dfRow, traffic, key string) float64 {
	c, ok := dfCells(rows, "study", traffic)[key][1.0]
	require.True(t, ok, "study %s %s at 1.0", traffic, key)
	return c.acc
}

// ejectTrace checks docs/dragonfly.md's figures of the ejection VC rule against
// experiments/dragonfly/eject.csv (df-min with BookSim2's ejection rule and with
// it hidden, on agree-df's network): with the rule the runs are agree-df's; the
// doc's sentence is built from the runs and agree-df's BookSim2 runs.
func ejectTrace(t *testing.T, rows []dfRow, doc string) {
	f, err := os.Open("../../experiments/dragonfly/eject.csv")
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"rule", "rate", "seed", "latency", "accepted", "cpu_s"}, recs[0])
	type key struct {
		rule       string
		rate, seed float64
	}
	lat, acc := map[key]float64{}, map[key]float64{}
	for _, r := range recs[1:] {
		k := key{rule: r[0]}
		k.rate, _ = strconv.ParseFloat(r[1], 64)
		k.seed, _ = strconv.ParseFloat(r[2], 64)
		if r[3] != "" {
			lat[k], _ = strconv.ParseFloat(r[3], 64)
		}
		acc[k], err = strconv.ParseFloat(r[4], 64)
		require.NoError(t, err)
	}
	for _, r := range rows {
		if r.sim == "wormlab" && r.kase == "agree-df" && (r.rate == 0.5 || r.rate == 1.0) {
			k := key{"booksim", r.rate, r.seed}
			require.InDelta(t, r.accepted, acc[k], 1e-6, "eject.csv's run %v against agree-df's", k)
			if r.hasLat && r.status == "ok" {
				require.InDelta(t, r.latency, lat[k], 1e-4, "eject.csv's run %v against agree-df's", k)
			}
		}
	}
	mean := func(m map[key]float64, rule string, rate float64) float64 {
		var xs []float64
		for s := 1.0; s <= 3; s++ {
			x, ok := m[key{rule, rate, s}]
			require.True(t, ok, "eject.csv: %s at %.1f seed %.0f", rule, rate, s)
			xs = append(xs, x)
		}
		m0, _ := meanCI(xs)
		return m0
	}
	cells := dfCells(rows, "agree-df", "uniform")["booksim:min"]
	bsSat, bsLat := cells[1.0].acc, cells[0.5].lat
	anySat, ruleSat := mean(acc, "any", 1.0), mean(acc, "booksim", 1.0)
	q := fmt.Sprintf("wormlab saturates at %.4f flits/terminal/cycle against BookSim's %.4f (%+.1f%%, seeds 1-3) and has %.0f cycles of latency at 0.5 against %.0f; with it %.4f (%+.1f%%) and %.0f",
		anySat, bsSat, 100*(anySat/bsSat-1), mean(lat, "any", 0.5), bsLat, ruleSat, 100*(ruleSat/bsSat-1), mean(lat, "booksim", 0.5))
	require.Contains(t, strings.Join(strings.Fields(doc), " "), q, "the doc's figures of the ejection VC")
}
