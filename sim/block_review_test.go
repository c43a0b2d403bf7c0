package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// runBoth runs cfg, w, m cycle by cycle and in blocks forced (block.go) and
// requires the same Result field for field and the same error; it returns the
// blocked run's and the count of its blocks.
func runBoth(t *testing.T, cfg sim.Config, w sim.Workload, m sim.Measure) (*sim.Result, error, *sim.BlockStats) {
	t.Helper()
	run := func(blocks bool) (*sim.Result, error, *sim.BlockStats) {
		cfg := cfg
		var s sim.BlockStats
		sim.CountBlocks(&cfg, &s)
		sim.ForceBlocks(&cfg)
		if !blocks {
			sim.WithoutBlocks(&cfg)
		}
		res, err := sim.RunOpen(testCtx(t), cfg, w, m)
		return res, err, &s
	}
	want, wantErr, s0 := run(false)
	got, gotErr, s := run(true)
	require.Zero(t, s0.Blocks())
	require.Equal(t, wantErr, gotErr)
	require.Equal(t, want, got)
	return got, gotErr, s
}

// columnPattern sends every packet to another node of its column of a k x k
// grid (node row*k + col): under DOR each column is a ring of its own, and on
// a torus of 16 columns a ring crosses the four words of routers.
type columnPattern struct{ k int }

func (p columnPattern) Dest(src int, r *rand.Rand) int {
	row, col := src/p.k, src%p.k
	return (row+1+r.IntN(p.k-1))%p.k*p.k + col
}

// A deadlock on a network of several words of routers is declared in the same
// cycle, with the same idle time, blocked or not. A move sets its partition's
// last move to its cycle, and a block runs word after word its cycles: the
// block's last move is the latest of any word's, not the last word's. Before
// block.go kept the latest, seed 13 was declared at cycle 2235 blocked and
// 2240 cycle by cycle (a worm's last flits moving in a lower word a few cycles
// after the last move of a higher one).
func TestBlocksDeadlockManyWords(t *testing.T) {
	net := mustNet(t, "torus:16x16")
	w := sim.Workload{Rate: 0.3, Sizes: sim.Sizes{Flits: []int{4, 12}, Weight: []float64{1, 1}}, Pattern: columnPattern{16}}
	m := sim.Measure{MaxCycles: 50000, MaxQueue: 1 << 20}
	for seed := uint64(10); seed <= 16; seed++ {
		cfg := sim.Config{Net: net, Routing: mustRouting(t, net, "dor", 1), VCs: 1, Buf: 2,
			Pipeline: sim.Pipeline{Link: 12, Credit: 12}, Seed: seed, DeadlockCycles: 40, Threads: 1}
		_, err, s := runBoth(t, cfg, w, m)
		var dl *sim.DeadlockError
		require.ErrorAs(t, err, &dl, "seed %d", seed)
		require.Positive(t, s.Blocks())
	}
}

// failing is a routing that has no choice for a head at a router of a word
// after the first having crossed hops links: a routing error in the middle of
// a run, in a word that runs a block's cycles after the first word.
type failing struct {
	sim.Routing
	hops int32
}

func (f failing) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if at >= 64 && h.Hops >= f.hops {
		return out
	}
	return f.Routing.Route(at, h, out)
}

// A routing error ends a blocked run as it ends a run cycle by cycle: the same
// error, and the same Result so far (cycles, deliveries, channel counts), though
// the words before the one that met it have run the block's later cycles.
func TestBlocksRoutingError(t *testing.T) {
	net := mustNet(t, "torus:16x16")
	w := sim.Workload{Rate: 0.3, Sizes: sim.Sizes{Flits: []int{4}, Weight: []float64{1}}}
	var err error
	w.Pattern, err = sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	m := sim.Measure{MaxCycles: 20000, Nodes: true}
	for _, hops := range []int32{6, 9, 12} {
		cfg := sim.Config{Net: net, Routing: failing{mustRouting(t, net, "dor-booksim", 2), hops}, VCs: 2, Buf: 4,
			Pipeline: sim.BookSim(net), Seed: 3, DeadlockCycles: 300, Threads: 1}
		_, err, s := runBoth(t, cfg, w, m)
		var re *sim.RoutingError
		require.ErrorAs(t, err, &re, "hops %d", hops)
		require.Positive(t, s.Blocks())
	}
}
