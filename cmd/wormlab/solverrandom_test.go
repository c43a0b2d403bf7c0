package main

import (
	"encoding/json"
	"fmt"
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
}

// randomTable is the markdown table of the study, one row per instance in run.sh's
// order: worms, then per model "makespan optimal" or "makespan / lower bound",
// the CPU seconds, and for the wormhole model the stage that answered (b: the
// bufferless stage, w: the wormhole search).
func randomTable(recs map[string]randomRecord) string {
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
