package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb, false)
	return code, out.String(), errb.String()
}

type sweepLine struct {
	Key         string         `json:"key"`
	Params      map[string]any `json:"params"`
	Seed        uint64         `json:"seed"`
	Status      string         `json:"status"`
	Message     string         `json:"message"`
	Values      map[string]any `json:"values"`
	Replication int            `json:"replication"`
}

func readSweepLines(t *testing.T, path string) []sweepLine {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []sweepLine
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r sweepLine
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		out = append(out, r)
	}
	return out
}

// Each record holds what the command prints when run by hand with the record's
// parameters and seed (the instance generated with that seed too).
func TestSweepRecordsMatchDirectRuns(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(spec, []byte(`{"command": "run", "seed": 9, "replications": 2,
		"params": {"gen.kind": "mesh", "gen.sides": "4x4", "gen.messages": 12, "gen.flits": 3},
		"axes": {"algo": ["greedy", "delayed-greedy"], "arb": ["random", "oldest"]}}`), 0o644))
	res := filepath.Join(dir, "r.jsonl")
	code, _, stderr := runCLI(t, "", "sweep", spec, "-o", res, "--workers", "2")
	require.Equal(t, 0, code, stderr)
	recs := readSweepLines(t, res)
	require.Len(t, recs, 8)
	seeds := map[uint64]bool{}
	for _, r := range recs {
		require.Equal(t, "ok", r.Status)
		seeds[r.Seed] = true
		seed := strconv.FormatUint(r.Seed, 10)
		code, inst, msg := runCLI(t, "", "gen", "mesh", "--sides", "4x4", "--messages", "12", "--flits", "3", "--seed", seed)
		require.Equal(t, 0, code, msg)
		code, sched, msg := runCLI(t, inst, "run", "-", "--algo", r.Params["algo"].(string), "--arb", r.Params["arb"].(string), "--seed", seed)
		require.Equal(t, 0, code, msg)
		var want map[string]any
		require.NoError(t, json.Unmarshal([]byte(sched), &want))
		want["messages"] = float64(len(want["messages"].([]any))) // the record keeps their number
		require.Equal(t, want, r.Values, "record %s", r.Key)
	}
	require.Len(t, seeds, 8, "every point its own seed")
	// The plot of the results draws.
	code, _, stderr = runCLI(t, "", "plot", res, "--x", "arb", "--y", "makespan/online.instance_lower_bound", "--series", "algo", "-o", filepath.Join(dir, "p.svg"))
	require.Equal(t, 0, code, stderr)
}

// A point that deadlocks is recorded as failed with the command's message; the others
// run, and the sweep exits 1.
func TestSweepDeadlockIsAFailedPoint(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.json")
	root, err := filepath.Abs("../../instances")
	require.NoError(t, err)
	// One instance by absolute path, one relative to the spec's directory.
	rel, err := filepath.Rel(dir, filepath.Join(root, "example.json"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(spec, []byte(`{"command": "run", "params": {"rotate": false},
		"axes": {"instance": ["`+root+`/ring4-deadlock.json", "`+rel+`"]}}`), 0o644))
	res := filepath.Join(dir, "r.jsonl")
	code, _, stderr := runCLI(t, "", "sweep", spec, "-o", res)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "2 run, 1 failed")
	recs := readSweepLines(t, res)
	require.Len(t, recs, 2)
	for _, r := range recs {
		if strings.HasSuffix(r.Params["instance"].(string), "ring4-deadlock.json") {
			require.Equal(t, "failed", r.Status)
			require.Contains(t, r.Message, "exit 1: ")
			require.Contains(t, r.Message, "deadlock")
		} else {
			require.Equal(t, "ok", r.Status)
			require.NotNil(t, r.Values["makespan"])
		}
	}
}

// A point over the memory budget is refused before it allocates and recorded as
// failed, naming the budget; the sweep goes on with the others (issue 26: one such
// point took the whole sweep down). Each point gets the sweep's --max-memory
// divided by the workers.
func TestSweepRecordsRefusedPoint(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(spec, []byte(`{"command": "sim", "params": {"topology": "torus:4x4", "min-cycles": 1000, "max-cycles": 2000},
		"axes": {"buf": [8, 1000000000]}}`), 0o644))
	res := filepath.Join(dir, "r.jsonl")
	code, _, stderr := runCLI(t, "", "sweep", spec, "-o", res, "--workers", "2", "--max-memory", "1G")
	require.Equal(t, 1, code, stderr)
	recs := readSweepLines(t, res)
	require.Len(t, recs, 2)
	byBuf := map[string]sweepLine{}
	for _, r := range recs {
		byBuf[strconv.Itoa(int(r.Params["buf"].(float64)))] = r
	}
	require.Equal(t, "ok", byBuf["8"].Status)
	require.Equal(t, "failed", byBuf["1000000000"].Status)
	require.Contains(t, byBuf["1000000000"].Message, "--max-memory")
	require.Contains(t, byBuf["1000000000"].Message, "512.0 MiB", "the budget is the sweep's over its 2 workers")
	_, has := byBuf["8"].Params["max-memory"]
	require.False(t, has, "the budget is not a parameter of the point")
}

// sweep --slurm refuses a spec or results path holding a line break (bad input,
// exit 2, nothing printed): in the script's #SBATCH lines and comment, which are
// not shell, it ended the line and began one the shell ran (a spec named
// "x\necho INJECTED\n.json" printed a script with the line echo INJECTED).
func TestSweepSlurmLineBreak(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "x\necho INJECTED\n.json")
	require.NoError(t, os.WriteFile(spec, []byte(`{"command": "model", "axes": {"msg-rate": [0.001, 0.002]}}`), 0o644))
	code, out, stderr := runCLI(t, "", "sweep", "--slurm", "--tasks", "2", "-o", filepath.Join(dir, "r.jsonl"), spec)
	require.Equal(t, 2, code, stderr)
	require.Empty(t, out)
	require.Contains(t, stderr, "holds a line break")
	require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	ok := filepath.Join(dir, "s.json")
	require.NoError(t, os.WriteFile(ok, []byte(`{"command": "model", "axes": {"msg-rate": [0.001, 0.002]}}`), 0o644))
	code, _, stderr = runCLI(t, "", "sweep", "--slurm", "--tasks", "2", "-o", filepath.Join(dir, "r\necho INJECTED\n"), ok)
	require.Equal(t, 2, code, stderr)
	code, out, stderr = runCLI(t, "", "sweep", "--slurm", "--tasks", "2", "-o", filepath.Join(dir, "r.jsonl"), ok)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "#SBATCH --job-name=wormlab-s\n")
}
