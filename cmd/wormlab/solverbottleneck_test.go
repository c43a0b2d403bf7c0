package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSolverBottleneckResults checks the committed run of
// experiments/solver-random/bottleneck.sh (issue 27's two instances open at
// 20 s against their saturated edges). Restrictions: the worms kept with and
// without the saturated edges add up to the instance's worms, regenerated
// here, and the first are the worms crossing those edges, counted here (and
// where there are two, the prose's count on each, no worm crossing both);
// each schedule's makespan is at least its lower bound, optimal exactly when
// they meet, and a restriction being a relaxation (a legal schedule
// stays legal without some of its worms), no restriction's proven lower bound
// exceeds the makespan of the instance's best known schedule
// (certify/testdata/issue27). Fixed starts: every answer is sat, unsat or
// none; "none" means gini ran out of its CPU limit, not that it failed early;
// worms are fixed in every row but the one that fixes none, and they are the
// worms crossing the saturated edges (as many as the first restriction keeps);
// a sat answer's schedule (which the script verified) is within the horizon;
// starts taken from the best known schedule at a horizon at or above its
// makespan are never refuted (that schedule satisfies them). docs/solver.md
// holds both tables (restrict.md, fixed.md) as the script wrote them, and its
// prose's CPU seconds are the records', as are its makespan and bound of a
// restriction left open and, beside them, the whole instance's in the
// family's committed run (results.jsonl).
func TestSolverBottleneckResults(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "solver.md"))
	require.NoError(t, err)
	known := func(name string) int {
		data, err := os.ReadFile(filepath.Join("..", "..", "certify", "testdata", "issue27", name+".schedule.json"))
		require.NoError(t, err)
		var s struct {
			Model    string `json:"model"`
			Makespan int    `json:"makespan"`
		}
		require.NoError(t, json.Unmarshal(data, &s))
		require.Positive(t, s.Makespan)
		// the formulas are bufferless, and their units fix t_1: a wormhole
		// schedule's t_1 would not give its order (a worm may wait later)
		require.Equal(t, "bufferless", s.Model, name)
		return s.Makespan
	}
	type restrictRec struct {
		Instance, Edges, Keep string
		Worms, Makespan       int
		Lower                 int `json:"lower_bound"`
		Optimal               bool
		CPU                   float64 `json:"cpu_s"`
	}
	data, err := os.ReadFile(filepath.Join(randomDir, "restrict.jsonl"))
	require.NoError(t, err)
	kept := map[string]map[string]int{}
	saturated := map[string][]string{}
	var open []restrictRec // the restrictions without the saturated edges left open
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for _, l := range lines {
		var r restrictRec
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		if r.Keep == "without" && !r.Optimal {
			open = append(open, r)
		}
		require.GreaterOrEqual(t, r.Makespan, r.Lower, l)
		require.Equal(t, r.Makespan == r.Lower, r.Optimal, l)
		require.LessOrEqual(t, r.Lower, known(r.Instance), "%s: a relaxation's bound above a known schedule", l)
		if kept[r.Instance] == nil {
			kept[r.Instance] = map[string]int{}
		}
		kept[r.Instance][r.Keep] = r.Worms
		saturated[r.Instance] = strings.Split(r.Edges, ";")
	}
	require.Len(t, kept, 2)
	flat := strings.Join(strings.Fields(string(doc)), " ")
	for name, k := range kept {
		in := familyInstance(t, name)
		require.Len(t, in.Messages, k["with"]+k["without"], name)
		require.Positive(t, k["with"], name)
		// the worms crossing the saturated edges, counted here from the
		// instance (bottleneck.py restrict counted them on its own)
		edges := saturated[name]
		each := make([]int, len(edges))
		crossing := 0
		for _, m := range in.Messages {
			hit := false
			for k := 1; k < len(m.Path); k++ {
				for x, e := range edges {
					if m.Path[k-1]+"->"+m.Path[k] == e {
						each[x]++
						hit = true
					}
				}
			}
			if hit {
				crossing++
			}
		}
		require.Equal(t, crossing, k["with"], "%s: the worms crossing %s", name, edges)
		if len(edges) == 2 {
			require.Equal(t, crossing, each[0]+each[1], "%s: docs/solver.md says no worm crosses both of %s", name, edges)
			require.Equal(t, each[0], each[1], name)
			sentence := fmt.Sprintf("(%d each; no shortest path crosses both)", each[0])
			require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
		}
	}
	// the prose's figures for a restriction left open, and beside them the
	// whole instance's in the family's committed run (results.jsonl,
	// bufferless)
	require.NotEmpty(t, open, "restrict.jsonl: no restriction without the saturated edges is open, as docs/solver.md says one is")
	data, err = os.ReadFile(filepath.Join(randomDir, "results.jsonl"))
	require.NoError(t, err)
	whole := map[string]restrictRec{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			restrictRec
			Model string
		}
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		if r.Model == "bufferless" {
			whole[r.Instance] = r.restrictRec
		}
	}
	for _, r := range open {
		w, ok := whole[r.Instance]
		require.True(t, ok, "results.jsonl: no bufferless record of %s", r.Instance)
		sentence := fmt.Sprintf("the other %d end at %d / %d at 20 s", r.Worms, r.Makespan, r.Lower)
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
		sentence = fmt.Sprintf("the whole instance ends at %d / %d in the family's run", w.Makespan, w.Lower)
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
	}
	type fixedRec struct {
		Instance, Edges, From, Answer string
		Horizon, Fixed, Makespan      int
		CPU                           float64 `json:"cpu_s"`
		Limit                         float64 `json:"limit_s"`
	}
	data, err = os.ReadFile(filepath.Join(randomDir, "fixed.jsonl"))
	require.NoError(t, err)
	flines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var prose []string
	for _, l := range flines {
		var r fixedRec
		require.NoError(t, json.Unmarshal([]byte(l), &r), l)
		switch {
		case r.From == "known" && r.Answer == "sat":
			prose = append(prose, fmt.Sprintf("lets gini find a schedule of %d in %.2f s", r.Makespan, r.CPU))
		case r.From == "jackson" && r.Answer == "unsat":
			prose = append(prose, fmt.Sprintf("is refuted at %d in %.2f s", r.Horizon, r.CPU))
		case r.From == "none" && r.Answer == "sat":
			prose = append(prose, fmt.Sprintf("finds a schedule of %d in %.2f s", r.Makespan, r.CPU))
		}
		require.Equal(t, r.From == "none", r.Fixed == 0, "%s: worms fixed unless none are", l)
		if r.From != "none" {
			require.Equal(t, kept[r.Instance]["with"], r.Fixed, "%s: the worms fixed are those crossing the edges (restrict.jsonl)", l)
		}
		require.LessOrEqual(t, r.CPU, r.Limit+1, l)
		switch r.Answer {
		case "sat":
			require.Positive(t, r.Makespan, l)
			require.LessOrEqual(t, r.Makespan, r.Horizon, l)
		case "unsat":
			require.False(t, r.From == "known" && r.Horizon >= known(r.Instance), "%s: the known schedule's starts refuted", l)
		case "none":
			require.GreaterOrEqual(t, r.CPU, 0.9*r.Limit, "%s: no answer before its CPU limit", l)
		default:
			t.Fatalf("%s: answer %q", l, r.Answer)
		}
	}
	require.Len(t, prose, 3, "the prose quotes a sat answer from the known order, a refuted Jackson order and the restriction's answer")
	for _, sentence := range prose {
		require.True(t, strings.Contains(flat, sentence), "docs/solver.md must say: %s", sentence)
	}
	for run, n := range map[string]int{"restrict": len(lines), "fixed": len(flines)} {
		md, err := os.ReadFile(filepath.Join(randomDir, run+".md"))
		require.NoError(t, err)
		require.Len(t, strings.Split(strings.TrimSpace(string(md)), "\n"), n+2, "%s.md: a header, its rule and a row per record", run)
		require.True(t, strings.Contains(string(doc), string(md)), "docs/solver.md must hold %s.md:\n%s", run, md)
	}
}
