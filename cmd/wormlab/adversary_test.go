package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/lower/adversary/corpus"
)

// The progress trace is JSON Lines with a row per chain event (start, improved,
// sync, end) whose best ratio never drops, and wormlab plot draws it.
func TestAdversaryTrace(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.jsonl")
	code, _, errs := runArgs("adversary", "--topology", "mesh:3x3", "--messages", "3", "--objective", "opt/lower",
		"--iters", "100", "--workers", "2", "--trace", trace)
	require.Equal(t, 0, code, errs)
	f, err := os.Open(trace)
	require.NoError(t, err)
	defer f.Close()
	best := map[int]float64{}
	events := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row struct {
			T, CPU, Best float64
			Chain        int
			Event        string
			Evaluations  int
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &row))
		require.GreaterOrEqual(t, row.Best, best[row.Chain])
		best[row.Chain] = row.Best
		events[row.Event]++
	}
	require.Equal(t, 2, events["start"])
	require.Equal(t, 2, events["end"])
	require.Positive(t, events["sync"])
	code, _, errs = runArgs("plot", trace, "--x", "t", "--y", "best", "--series", "chain", "-o", filepath.Join(dir, "trace.svg"))
	require.Equal(t, 0, code, errs)
}

// --corpus adds a result to an empty corpus with its certificate, which
// check-certificate accepts; a second search that does not beat it leaves it.
func TestAdversaryCorpus(t *testing.T) {
	dir := t.TempDir()
	args := []string{"adversary", "--topology", "mesh:3x3", "--messages", "3", "--objective", "opt/lower",
		"--iters", "60", "--workers", "1", "--corpus", dir}
	code, out, errs := runArgs(args...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "added mesh-3x3-opt-over-lower")
	es, err := corpus.Load(dir)
	require.NoError(t, err)
	require.Len(t, es, 1)
	require.Equal(t, "wormlab adversary --topology mesh:3x3 --messages 3 --objective opt/lower --iters 60 --workers 1", es[0].Command)
	rep, err := certify.Check(filepath.Join(dir, es[0].Name))
	require.NoError(t, err)
	require.True(t, rep.Verified, rep.Failure)
	require.NoError(t, corpus.Check(context.Background(), dir, es[0]))
	require.NoError(t, corpus.CheckIndex(dir))
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	require.Contains(t, string(readme), corpus.Table(es))
	code, out, errs = runArgs(args...)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "not added")
}

func runArgs(args ...string) (int, string, string) {
	var out, errb strings.Builder
	code := run(args, strings.NewReader(""), &out, &errb, false)
	return code, out.String(), errb.String()
}

// adversary's --cpu, the old spelling of --cpu-limit, still sets the limit: its
// value is the one checked (golden adversary-cpu-deprecated, whose --iters ends the
// search first, passes with the value dropped).
func TestAdversaryOldCPUCarriesItsValue(t *testing.T) {
	code, _, errs := runArgs("adversary", "--topology", "line:4", "--timeout", "0", "--cpu", "-1s")
	require.Equal(t, 2, code, errs)
	require.Contains(t, errs, "--cpu is deprecated; use --cpu-limit")
	require.Contains(t, errs, "--cpu-limit: -1s is negative", "not: --timeout 0 needs --iters or --cpu-limit")
}
