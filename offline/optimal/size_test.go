package optimal

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// BenchmarkFormulaBytes is the basis of BytesPerClause: the live heap of a
// formula and of one gini solver loaded with it, in bytes per clause
// ("formula-B/clause", "gini-B/clause"; after a collection, so the
// garbage of encoding is not counted), and estimateClauses over the
// clauses built ("estimate/clauses", at least 1: the estimate is an upper
// one), on issue 27's 6x6 mesh of seed 1 at horizon 84 in both models and
// its 8x8 mesh of 768 messages, seed 2, at 85 (bufferless), with the
// busy-slot clauses at the lower bound as Solve builds them
// (`go test ./offline/optimal -run '^$' -bench FormulaBytes -benchtime 1x`).
func BenchmarkFormulaBytes(b *testing.B) {
	mesh6 := instances.Spec{Kind: "mesh", Sides: []int{6, 6}, Routing: "random-shortest",
		Traffic: "random", Messages: 288, Flits: 4, Seed: 1}
	cases := []struct {
		name      string
		spec      instances.Spec
		model     string
		T, busyAt int
	}{
		{"mesh6x6-288-L4-s1-bufferless-T84", mesh6, model.Bufferless, 84, 78},
		{"mesh6x6-288-L4-s1-wormhole-T84", mesh6, model.Wormhole, 84, 78},
		{"mesh8x8-768-L2-s2-bufferless-T85", instances.Spec{Kind: "mesh", Sides: []int{8, 8}, Routing: "random-shortest",
			Traffic: "random", Messages: 768, Flits: 2, Seed: 2}, model.Bufferless, 85, 78},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			in, err := instances.Generate(c.spec)
			require.NoError(b, err)
			var formula, solver, clauses uint64
			var estimate float64
			for b.Loop() {
				h0 := liveHeap()
				f, err := encode(in, c.model, c.T, encodeOptions{symmetry: true, cards: true, busy: true, busyAt: c.busyAt})
				require.NoError(b, err)
				h1 := liveHeap()
				g := load(f, nil)
				h2 := liveHeap()
				runtime.KeepAlive(f)
				runtime.KeepAlive(g)
				formula += h1 - h0
				solver += h2 - h1
				clauses += uint64(len(f.Clauses))
				estimate += estimateClauses(in, c.model, c.T)
			}
			b.ReportMetric(float64(formula)/float64(clauses), "formula-B/clause")
			b.ReportMetric(float64(solver)/float64(clauses), "gini-B/clause")
			b.ReportMetric(estimate/float64(clauses), "estimate/clauses")
		})
	}
}

// liveHeap is the heap in use after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
