package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// randomDir is issue 27's study: experiments/solver-random/run.sh writes it.
var randomDir = filepath.Join("..", "..", "experiments", "solver-random")

// randomRecord is a line of the study's results.jsonl.
type randomRecord struct {
	Instance    string  `json:"instance"`
	Model       string  `json:"model"`
	Topology    string  `json:"topology"`
	Messages    int     `json:"messages"`
	Flits       int     `json:"flits"`
	Seed        int     `json:"seed"`
	Worms       int     `json:"worms"`
	Makespan    int     `json:"makespan"`
	LowerBound  int     `json:"lower_bound"`
	Optimal     bool    `json:"optimal"`
	Answered    string  `json:"answered"`
	LowerSource string  `json:"lower_source"`
	CPU         float64 `json:"cpu_s"`
}

// TestSolverRandomResults checks the committed records of issue 27's study against
// instances it generates again with wormlab gen: every size, seed and model has
// one record; the worm count is the instance's; the makespan is at least the
// dilation bound and the flit congestion (MODEL.md); the lower bound is at most
// the makespan and optimal means they are equal; where both models are proven
// optimal the wormhole optimum is at most the bufferless one (a bufferless
// schedule is a wormhole schedule); a wormhole solve says which stage answered,
// a bufferless one does not. run.sh verified every schedule before recording it.
// docs/solver.md holds the table made from the records (randomTable) and the
// prose's figures built from them: the count and CPU range of the instances
// proven in both models, the times of the solves the bufferless stage answers
// at seed 1, and the instances open at 20 s.
func TestSolverRandomResults(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(randomDir, "results.jsonl"))
	require.NoError(t, err)
	recs := map[string]randomRecord{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r randomRecord
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		key := r.Instance + " " + r.Model
		_, dup := recs[key]
		require.False(t, dup, "two records of %s", key)
		recs[key] = r
	}
	require.Len(t, recs, 36, "6 sizes, 3 seeds, 2 models")
	proven := map[string]int{}
	for _, r := range recs {
		name := r.Instance + " " + r.Model
		code, out, stderr := runCLI(t, "", "gen", r.Topology, "--routing", "random-shortest", "--traffic", "random",
			"--messages", fmt.Sprint(r.Messages), "--flits", fmt.Sprint(r.Flits), "--seed", fmt.Sprint(r.Seed))
		require.Equal(t, 0, code, stderr)
		var in frontierInst
		require.NoError(t, json.Unmarshal([]byte(out), &in))
		require.Equal(t, len(in.Messages), r.Worms, "%s: worms", name)
		dil, cl := in.bounds()
		require.GreaterOrEqual(t, r.Makespan, max(dil, cl), "%s: makespan below dilation %d or c_L %d", name, dil, cl)
		require.LessOrEqual(t, r.LowerBound, r.Makespan, name)
		require.Equal(t, r.LowerBound == r.Makespan, r.Optimal, name)
		if r.Model == "wormhole" {
			require.Contains(t, []string{"bufferless", "wormhole", ""}, r.Answered, name)
			if b := recs[r.Instance+" bufferless"]; b.Optimal && r.Optimal {
				require.LessOrEqual(t, r.Makespan, b.Makespan, "%s: wormhole optimum above the bufferless one", name)
			}
		} else {
			require.Empty(t, r.Answered, name)
		}
		if r.Optimal {
			proven[r.Model]++
		}
	}
	t.Logf("proven optimal: wormhole %d of 18, bufferless %d of 18", proven["wormhole"], proven["bufferless"])

	// The table of docs/solver.md is these records.
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "solver.md"))
	require.NoError(t, err)
	table := randomTable(recs)
	require.True(t, strings.Contains(string(doc), table), "docs/solver.md must hold the study's table:\n%s", table)

	// So is the sentence after it: how many instances are proven in both
	// models, and the range of their CPU seconds.
	both, lo, hi := 0, math.Inf(1), 0.0
	for _, r := range recs {
		if b, w := recs[r.Instance+" bufferless"], recs[r.Instance+" wormhole"]; r.Model == "wormhole" && b.Optimal && w.Optimal {
			both++
			lo, hi = min(lo, b.CPU, w.CPU), max(hi, b.CPU, w.CPU)
		}
	}
	secs := func(x float64) string {
		if x < 1 {
			return fmt.Sprintf("%.2f", x)
		}
		return fmt.Sprintf("%.1f", x)
	}
	flat := strings.Join(strings.Fields(string(doc)), " ")
	sentence := fmt.Sprintf("%d of the 18 instances are proven optimal in both models within 20 s of CPU, %s-%s s each", both, secs(lo), secs(hi))
	require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)

	// And the prose's times: those of the seed-1 instances whose wormhole solve
	// the bufferless stage answered, in the table's order, wormhole and then
	// bufferless.
	var staged []string
	var stagedCPU []float64
	for _, name := range randomOrder(recs) {
		w, b := recs[name+" wormhole"], recs[name+" bufferless"]
		if w.Seed == 1 && w.Answered == "bufferless" {
			staged = append(staged, fmt.Sprintf("%d in %.2f s", w.Makespan, w.CPU))
			stagedCPU = append(stagedCPU, b.CPU)
		}
	}
	require.NotEmpty(t, staged)
	for _, sentence := range []string{
		"the wormhole solves take " + andWords(staged) + " of CPU (the bufferless solves " + andList(stagedCPU) + " s)",
	} {
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
	}

	// And the instances open at 20 s, in the table's order, with their makespan
	// and bound: one bound where both models agree on both, else each model's.
	var open []string
	for _, name := range randomOrder(recs) {
		w, b := recs[name+" wormhole"], recs[name+" bufferless"]
		if w.Optimal && b.Optimal {
			continue
		}
		what := fmt.Sprintf("the %s mesh of seed %d", strings.TrimPrefix(w.Topology, "mesh:"), w.Seed)
		if w.Topology == "mesh:8x8" {
			what = fmt.Sprintf("the 8x8 mesh of %d messages, seed %d,", w.Messages, w.Seed)
		}
		require.True(t, strings.HasPrefix(w.Topology, "mesh:"), name)
		if w.Makespan == b.Makespan && w.LowerBound == b.LowerBound {
			open = append(open, fmt.Sprintf("%s %d (bound %d)", what, w.Makespan, w.LowerBound))
		} else {
			open = append(open, fmt.Sprintf("%s %d (bound %d) in the wormhole model and %d (bound %d) in the bufferless one", what, w.Makespan, w.LowerBound, b.Makespan, b.LowerBound))
		}
	}
	require.Len(t, open, 18-both, "the instances not proven in both models")
	sentence = fmt.Sprintf("The %s not proven in both models at 20 s: %s.",
		numberWords[len(open)], strings.Join(open, "; "))
	require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
}

// numberWords spells small counts as the docs do.
var numberWords = []string{"none", "one", "two", "three", "four", "five", "six"}

// andWords joins phrases as "a, b and c".
func andWords(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// randomOrder is the study's instances in run.sh's order.
func randomOrder(recs map[string]randomRecord) []string {
	var order []string
	for _, r := range recs {
		if r.Model == "wormhole" {
			order = append(order, r.Instance)
		}
	}
	pos := func(name string) string {
		for x, p := range []string{"mesh-10x10-400", "mesh-6x6-288", "mesh-8x8-512", "mesh-8x8-256", "torus-6x6-576", "mesh-8x8-768"} {
			if strings.HasPrefix(name, p) {
				return fmt.Sprintf("%d %s", x, name)
			}
		}
		return name
	}
	slices.SortFunc(order, func(a, b string) int { return strings.Compare(pos(a), pos(b)) })
	return order
}

// randomTable is the markdown table of the study, one row per instance in run.sh's
// order: worms, then per model "makespan optimal" or "makespan / lower bound",
// the CPU seconds, and for the wormhole model the stage that answered (b: the
// bufferless stage, w: the wormhole search).
func randomTable(recs map[string]randomRecord) string {
	order := randomOrder(recs)
	cell := func(r randomRecord) string {
		c := fmt.Sprintf("%d / %d", r.Makespan, r.LowerBound)
		if r.Optimal {
			c = fmt.Sprintf("%d optimal", r.Makespan)
		}
		c += fmt.Sprintf(", %.2f s", r.CPU)
		switch r.Answered {
		case "bufferless":
			c += " (b)"
		case "wormhole":
			c += " (w)"
		}
		return c
	}
	var b strings.Builder
	b.WriteString("| instance | worms | wormhole | bufferless |\n| --- | --- | --- | --- |\n")
	for _, name := range order {
		w, bl := recs[name+" wormhole"], recs[name+" bufferless"]
		fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", name, w.Worms, cell(w), cell(bl))
	}
	return b.String()
}

// anytimeRecord is a line of experiments/solver-random/anytime.jsonl.
type anytimeRecord struct {
	Instance   string  `json:"instance"`
	Solver     string  `json:"solver"`
	CPU        float64 `json:"cpu_s"`
	Makespan   int     `json:"makespan"`
	LowerBound int     `json:"lower_bound"`
	Formula    float64 `json:"formula_cpu_s"`
	SatCPU     float64 `json:"sat_cpu_s"`
}

// TestSolverAnytimeResults checks the committed run of anytime.sh: per instance
// and solver, CPU seconds never decrease and makespans never increase, every
// makespan is at least the instance's dilation bound and flit congestion and at
// least the solver's lower bound, cadical's rows are within the 20 s and each
// names the CPU of its formula; and docs/solver.md holds the table made from the
// records (anytimeTable) and the prose's figures built from them (cadical's
// formula, wormlab's first schedule, when wormlab is never worse again, cadical's
// largest lead on the 6x6 mesh, wormlab's last schedule on the 8x8 mesh of 768
// messages against the family's run).
func TestSolverAnytimeResults(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(randomDir, "anytime.jsonl"))
	require.NoError(t, err)
	series := map[string][]anytimeRecord{}
	var order []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r anytimeRecord
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		require.Contains(t, []string{"wormlab", "cadical"}, r.Solver, l)
		if !slices.Contains(order, r.Instance) {
			order = append(order, r.Instance)
		}
		series[r.Instance+" "+r.Solver] = append(series[r.Instance+" "+r.Solver], r)
	}
	require.NotEmpty(t, order)
	for _, name := range order {
		bound := instanceBound(t, name)
		for _, solver := range []string{"wormlab", "cadical"} {
			rs := series[name+" "+solver]
			require.NotEmpty(t, rs, "%s %s", name, solver)
			for x, r := range rs {
				require.GreaterOrEqual(t, r.Makespan, max(bound, r.LowerBound), "%s %s", name, solver)
				if x > 0 {
					require.GreaterOrEqual(t, r.CPU, rs[x-1].CPU, "%s %s", name, solver)
					require.LessOrEqual(t, r.Makespan, rs[x-1].Makespan, "%s %s", name, solver)
				}
				if solver == "cadical" {
					require.LessOrEqual(t, r.CPU, 20.0, "%s cadical", name)
					require.Positive(t, r.Formula, "%s cadical", name)
				}
			}
		}
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "solver.md"))
	require.NoError(t, err)
	table := anytimeTable(order, series)
	require.True(t, strings.Contains(string(doc), table), "docs/solver.md must hold the anytime table:\n%s", table)

	// So are the prose's figures, per instance in the records' order: the CPU of
	// cadical's first formula, that of wormlab's first schedule (the greedy
	// one) and that of the start of its SAT search (where cadical starts).
	var formula, first, sat []float64
	for _, name := range order {
		formula = append(formula, series[name+" cadical"][0].Formula)
		w := series[name+" wormlab"][0]
		require.GreaterOrEqual(t, w.SatCPU, w.CPU, name)
		first = append(first, w.CPU)
		sat = append(sat, w.SatCPU)
	}
	flat := strings.Join(strings.Fields(string(doc)), " ")
	for _, sentence := range []string{
		"its first formula took `solve --dimacs` " + andList(formula) + " s of CPU",
		"its first schedule (the greedy one) comes at " + andList(first) + " s of CPU and its SAT search starts at " + andList(sat) + " s",
	} {
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
	}

	// The prose on where cadical is ahead: from when wormlab is never worse
	// (the end of cadical's last interval ahead, per instance; an interval open
	// to the end of the run would make that claim false); on the 6x6 mesh, that
	// end, and cadical's largest lead: its best then and since when, against
	// wormlab's best then and until when.
	// (An interval open to the end of the run is said as "not by 20 s".)
	var never []string
	for _, name := range order {
		a := cadicalAhead(series[name+" wormlab"], series[name+" cadical"])
		switch {
		case len(a.intervals) == 0:
			never = append(never, "from 0.00 s")
		case a.intervals[len(a.intervals)-1][1] < 0:
			never = append(never, "not by 20 s")
		default:
			never = append(never, fmt.Sprintf("from %.2f s", a.intervals[len(a.intervals)-1][1]))
		}
	}
	const m6 = "mesh-6x6-288-L4-s1"
	w6, c6 := series[m6+" wormlab"], series[m6+" cadical"]
	require.NotEmpty(t, w6, m6)
	a6 := cadicalAhead(w6, c6)
	m6Sentence := "on the 6x6 mesh cadical is never ahead"
	if len(a6.intervals) > 0 && a6.lead > 0 {
		cc, cw := bestAt(c6, a6.leadAt), bestAt(w6, a6.leadAt)
		since := slices.IndexFunc(c6, func(r anytimeRecord) bool { return r.Makespan == cc })
		until := slices.IndexFunc(w6, func(r anytimeRecord) bool { return r.Makespan < cw })
		require.True(t, since >= 0 && until >= 0, m6)
		end := "20"
		if e := a6.intervals[len(a6.intervals)-1][1]; e >= 0 {
			end = fmt.Sprintf("%.2f", e)
		}
		m6Sentence = fmt.Sprintf("on the 6x6 mesh cadical stays ahead until %s s (%d at %.2f s against wormlab's %d until %.2f s)",
			end, cc, c6[since].CPU, cw, w6[until].CPU)
	}

	// The 8x8 mesh of 768 messages, seed 2: wormlab's last schedule in this run
	// against the family's run (results.jsonl, bufferless) at 20 s.
	const m8 = "mesh-8x8-768-L2-s2"
	w8 := series[m8+" wormlab"]
	require.NotEmpty(t, w8, m8)
	fam, err := os.ReadFile(filepath.Join(randomDir, "results.jsonl"))
	require.NoError(t, err)
	famBest := 0
	for _, l := range strings.Split(strings.TrimSpace(string(fam)), "\n") {
		var r randomRecord
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		if r.Instance == m8 && r.Model == "bufferless" {
			famBest = r.Makespan
		}
	}
	require.Positive(t, famBest, m8)
	// The 10x10 mesh of seed 3: where the SAT search starts, and wormlab's
	// first schedule after that.
	w10 := series["mesh-10x10-400-L4-s3 wormlab"]
	sat10 := slices.IndexFunc(w10, func(r anytimeRecord) bool { return r.CPU >= r.SatCPU })
	require.True(t, sat10 >= 1, "mesh-10x10-400-L4-s3")
	for _, sentence := range []string{
		"holds " + andWords(never) + " of CPU on these " + numberWords[len(order)],
		m6Sentence,
		fmt.Sprintf("its SAT search starts at %.2f s from %d, and its next schedule (%d) comes at %.2f s",
			w10[sat10].SatCPU, w10[sat10-1].Makespan, w10[sat10].Makespan, w10[sat10].CPU),
		fmt.Sprintf("this run reached %d on the 8x8 mesh of 768 messages at %.2f s, the family's run above %d at 20 s",
			w8[len(w8)-1].Makespan, w8[len(w8)-1].CPU, famBest),
	} {
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
	}

	// At 20 s, per instance: wormlab's best against cadical's, and on how
	// many wormlab is ahead or level.
	var at20 []string
	level := 0
	for _, name := range order {
		w, c := bestAt(series[name+" wormlab"], 20), bestAt(series[name+" cadical"], 20)
		require.True(t, w > 0 && c > 0, name)
		if w <= c {
			level++
		}
		if w == c {
			at20 = append(at20, fmt.Sprintf("%d and %d", w, c))
		} else {
			at20 = append(at20, fmt.Sprintf("%d against %d", w, c))
		}
	}
	sentence := fmt.Sprintf("At 20 s wormlab is ahead or level on %s of the %s (%s;", numberWords[level], numberWords[len(order)], strings.Join(at20, "; "))
	require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
}

// instanceBound regenerates an instance of issue 27's family from its name
// (familyInstance) and returns the larger of its dilation bound and flit
// congestion.
func instanceBound(t *testing.T, name string) int {
	t.Helper()
	in := familyInstance(t, name)
	dil, cl := in.bounds()
	return max(dil, cl)
}

// familyInstance regenerates an instance of issue 27's family from its name
// (mesh-10x10-400-L4-s3: topology mesh:10x10, 400 messages, 4 flits, seed 3).
func familyInstance(t *testing.T, name string) frontierInst {
	t.Helper()
	parts := strings.Split(name, "-")
	require.Len(t, parts, 5, name)
	var msgs, flits, seed int
	_, err := fmt.Sscanf(parts[2]+" "+parts[3]+" "+parts[4], "%d L%d s%d", &msgs, &flits, &seed)
	require.NoError(t, err, name)
	code, out, stderr := runCLI(t, "", "gen", parts[0]+":"+parts[1], "--routing", "random-shortest", "--traffic", "random",
		"--messages", fmt.Sprint(msgs), "--flits", fmt.Sprint(flits), "--seed", fmt.Sprint(seed))
	require.Equal(t, 0, code, stderr)
	var in frontierInst
	require.NoError(t, json.Unmarshal([]byte(out), &in))
	return in
}

// andList writes seconds as "a, b and c", two decimals each.
func andList(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.2f", x))
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// anytimeTable: per instance, each solver's best makespan known at 2, 5, 10
// and 20 s of CPU ("-": none yet), as "wormlab / cadical", and the intervals
// of CPU time in which cadical's best was better than wormlab's ("never" if
// none; wormlab having none yet counts as worse) with cadical's largest lead in
// steps where both had one.
func anytimeTable(order []string, series map[string][]anytimeRecord) string {
	cell := func(v int) string {
		if v == 0 {
			return "-"
		}
		return fmt.Sprint(v)
	}
	var b strings.Builder
	b.WriteString("| instance | at 2 s | at 5 s | at 10 s | at 20 s | cadical ahead (CPU s) |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, name := range order {
		w, c := series[name+" wormlab"], series[name+" cadical"]
		fmt.Fprintf(&b, "| %s |", name)
		for _, t := range []float64{2, 5, 10, 20} {
			fmt.Fprintf(&b, " %s / %s |", cell(bestAt(w, t)), cell(bestAt(c, t)))
		}
		a := cadicalAhead(w, c)
		var ahead []string
		for _, iv := range a.intervals {
			if iv[1] < 0 {
				ahead = append(ahead, fmt.Sprintf("%.2f-20", iv[0]))
			} else {
				ahead = append(ahead, fmt.Sprintf("%.2f-%.2f", iv[0], iv[1]))
			}
		}
		if len(ahead) == 0 {
			ahead = []string{"never"}
		} else {
			ahead[len(ahead)-1] += fmt.Sprintf(" (by up to %d)", a.lead)
		}
		fmt.Fprintf(&b, " %s |\n", strings.Join(ahead, ", "))
	}
	return b.String()
}

// bestAt is the best makespan of a series known at t seconds of CPU, 0 if none.
func bestAt(rs []anytimeRecord, t float64) int {
	b := 0
	for _, r := range rs {
		if r.CPU <= t && (b == 0 || r.Makespan < b) {
			b = r.Makespan
		}
	}
	return b
}

// ahead is where cadical's best was better than wormlab's on one instance:
// the intervals [from, to) of CPU seconds (to -1: to the end of the run), its
// largest lead in steps where both had a schedule, and the first time it had
// that lead.
type ahead struct {
	intervals [][2]float64
	lead      int
	leadAt    float64
}

// cadicalAhead: cadical is ahead on [t, next event) when its best at t is below
// wormlab's (or wormlab has none yet); the events are both solvers' rows.
func cadicalAhead(w, c []anytimeRecord) ahead {
	var times []float64
	for _, r := range append(append([]anytimeRecord(nil), w...), c...) {
		times = append(times, r.CPU)
	}
	slices.Sort(times)
	var a ahead
	from := -1.0
	for x, t := range times {
		cw, cc := bestAt(w, t), bestAt(c, t)
		if cc != 0 && (cw == 0 || cc < cw) {
			if from < 0 {
				from = t
			}
			if cw != 0 && cw-cc > a.lead {
				a.lead, a.leadAt = cw-cc, t
			}
		} else if from >= 0 {
			a.intervals = append(a.intervals, [2]float64{from, t})
			from = -1
		}
		if x == len(times)-1 && from >= 0 {
			a.intervals = append(a.intervals, [2]float64{from, -1})
		}
	}
	return a
}

// TestSolverCompareQuoted: docs/solver.md quotes the committed run of
// scripts/solver-compare.sh (experiments/solver-random/compare.md, the
// script's output as it printed it) as it is: its table, row for row.
func TestSolverCompareQuoted(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(randomDir, "compare.md"))
	require.NoError(t, err)
	var rows []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	require.Greater(t, len(rows), 2, "a header, its rule and rows")
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "solver.md"))
	require.NoError(t, err)
	table := strings.Join(rows, "\n") + "\n"
	require.True(t, strings.Contains(string(doc), table), "docs/solver.md must hold the side-by-side table:\n%s", table)
}
