package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/figure"
)

// docs/cli.md says what plot's --max-memory counts: plotInputBytes a byte of input.
func TestPlotMemoryDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	require.Contains(t, strings.Join(strings.Fields(string(doc)), " "),
		fmt.Sprintf("`plot` its input, %d bytes a byte", plotInputBytes))
}

// BenchmarkPlotRowsMemory reads committed sweep records (experiments/online-delayed's
// and experiments/tightness's, each repeated to about 10 MB) into rows, and reports
// the heap the rows hold per byte of input (heap-B/input-B, after a collection, the
// input itself included) and the bytes allocated per byte: plotInputBytes must stay
// above the first.
func BenchmarkPlotRowsMemory(b *testing.B) {
	for _, file := range []string{"../../experiments/online-delayed/results.jsonl", "../../experiments/tightness/results.jsonl"} {
		one, err := os.ReadFile(file)
		require.NoError(b, err)
		in := bytes.Repeat(one, max(1, 10<<20/len(one)))
		b.Run(strings.Split(file, "/")[3], func(b *testing.B) {
			var held float64
			for b.Loop() {
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m0)
				data := bytes.Clone(in)
				rows, err := figure.ReadRows(bytes.NewReader(data))
				require.NoError(b, err)
				runtime.GC()
				runtime.ReadMemStats(&m1)
				held = float64(m1.HeapAlloc-m0.HeapAlloc) / float64(len(in))
				runtime.KeepAlive(rows)
				runtime.KeepAlive(data)
			}
			b.ReportMetric(held, "heap-B/input-B")
			b.SetBytes(int64(len(in)))
		})
	}
}

// A sweep's sim point whose network cannot fit its share of the budget is refused
// before the network is built, in the spec's check and when it runs: the point
// is a failed record whose message is the floor's, counted from the spec ("needs
// at least", the routers and ports), not the estimate of a built network.
func TestSweepPointRefusedUnbuilt(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.json")
	require.NoError(t, os.WriteFile(spec, []byte(`{"command": "sim", "seed": 1, "params": {"topology": "torus:2048x2048", "max-cycles": 1000}, "axes": {"rate": [0.1]}}`), 0o644))
	out := filepath.Join(dir, "out.jsonl")
	code, _, stderr := runCLI(t, "", "sweep", spec, "-o", out, "--workers", "1")
	require.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var rec struct{ Status, Message string }
	require.NoError(t, json.Unmarshal(bytes.TrimSpace(data), &rec))
	require.Equal(t, "failed", rec.Status)
	require.Contains(t, rec.Message, "needs at least 15.5 GiB (4194304 routers, 16777216 ports between them")
}
