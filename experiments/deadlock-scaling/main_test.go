package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// committed reads one of the committed run's JSONL files.
func committed(t *testing.T, name string) []row {
	t.Helper()
	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	var rows []row
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r row
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r), sc.Text())
		rows = append(rows, r)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, rows)
	return rows
}

// docs/deadlock.md says "Every registered routing on a 16x16 torus is decided in
// at most ..." from registry16.jsonl: it must hold one row for each routing the
// registry has for a 16x16 torus (MinVCs applies), at that routing's VC count and
// the reallocation rule the simulator gives it (Atomic), and none for another.
// A routing registered after the run fails here until the run is repeated.
func TestCommittedCoversRegistry(t *testing.T) {
	type key struct {
		vcs    int
		atomic bool
	}
	net, err := topology.Parse("torus:16x16")
	require.NoError(t, err)
	want := map[string]key{}
	for _, name := range routing.Names() {
		alg, err := routing.Lookup(name)
		require.NoError(t, err)
		need, err := alg.MinVCs(net)
		if err != nil {
			continue
		}
		want[alg.Name] = key{need, alg.Atomic}
	}
	require.NotEmpty(t, want)
	got := map[string]key{}
	for _, r := range committed(t, "registry16.jsonl") {
		require.Equal(t, "registry", r.Case, r.Routing)
		require.Equal(t, 16, r.K, r.Routing)
		_, dup := got[r.Routing]
		require.False(t, dup, "registry16.jsonl has %s twice", r.Routing)
		got[r.Routing] = key{r.VCs, r.Atomic}
	}
	require.Equal(t, want, got, "registry16.jsonl is not the registry's torus routings (a routing registered or changed since the run): rerun go run ./experiments/deadlock-scaling OUTDIR and copy its files here")
	doc, err := os.ReadFile("../../docs/deadlock.md")
	require.NoError(t, err)
	require.Contains(t, strings.Join(strings.Fields(string(doc)), " "), "Every registered routing on a 16x16 torus is decided")
}

// summary.md is the summary of the committed results.jsonl and registry16.jsonl.
func TestSummaryOfCommitted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	summary(path, committed(t, "results.jsonl"), committed(t, "registry16.jsonl"))
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	got, err := os.ReadFile("summary.md")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "summary.md is not the summary of the committed JSONL files")
}
