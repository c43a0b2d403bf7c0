package sim_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
	"pgregory.net/rapid"
)

// manyWordTopologies are networks of two to three words of routers, some
// uneven (mesh:65's second word and torus:129's third hold one router).
var manyWordTopologies = []string{"mesh:65", "torus:129", "mesh:3x43", "torus:12x12", "dragonfly:a=6,p=1,h=3", "cmesh:9x9,c=2"}

// Lemma (claims and temporal blocking, block.go; parking, engine.passBy): a run
// is the same, Result for Result and error for error, whatever its threads (2
// to 7, more than its partitions too), whichever thread claims which word
// (StealFirst: most words run on another partition's thread), with GOMAXPROCS
// 1, 2 or 4 (the barrier's spin never pays with one), as the run cycle by cycle
// on one thread with every waiting head tried every cycle (WithoutPass).
// Drawn as TestRandomConfigsSame's configurations, on networks of several
// words, uneven ones among them, and pipelines up to the longest delays
// (stages of up to 64 cycles, links and credits of up to 64: blocks as long
// as 64 cycles and wheels of 128 slots and more). The draws stealing first
// that took blocks stole words (so it fails with stealing a no-op). Run with -tags simbounds,
// every access elem serves is checked.
func TestRandomStealSame(t *testing.T) {
	var stealRuns, stealBlocks, stolen int64 // runs with StealFirst, their blocks and words stolen
	rapid.Check(t, func(t *rapid.T) {
		r := drawRandomRunOn(t, manyWordTopologies)
		if rapid.Bool().Draw(t, "long delays") {
			d := rapid.SampledFrom([]int{0, 1, 2, 5, 17, 33, 64})
			l := rapid.SampledFrom([]int{1, 2, 3, 8, 9, 33, 64})
			r.cfg.Pipeline = sim.Pipeline{Route: d.Draw(t, "route"), VCAlloc: d.Draw(t, "vcalloc"), SwAlloc: d.Draw(t, "swalloc"),
				Traverse: d.Draw(t, "traverse"), Inject: d.Draw(t, "inject"), Eject: d.Draw(t, "eject"),
				Link: l.Draw(t, "link"), Credit: l.Draw(t, "credit")}
			if r.cfg.DeadlockCycles > 0 {
				r.cfg.DeadlockCycles = 5000
			}
			if r.cfg.Validate() != nil {
				t.Skip("refused")
			}
		}
		base := r.cfg
		base.Threads = 1
		sim.WithoutBlocks(&base)
		sim.WithoutPass(&base)
		want, wantErr := sim.RunOpen(context.Background(), base, r.w, r.m)
		cfg := r.cfg
		cfg.Threads = rapid.SampledFrom([]int{2, 3, 4, 7}).Draw(t, "threads")
		if rapid.Bool().Draw(t, "blocks") {
			sim.ForceBlocks(&cfg)
		}
		steal := rapid.Bool().Draw(t, "steal")
		if steal {
			sim.StealFirst(&cfg)
		}
		var s sim.BlockStats
		sim.CountBlocks(&cfg, &s)
		old := runtime.GOMAXPROCS(rapid.SampledFrom([]int{1, 2, 4}).Draw(t, "gomaxprocs"))
		got, gotErr := sim.RunOpen(context.Background(), cfg, r.w, r.m)
		runtime.GOMAXPROCS(old)
		if steal {
			stealRuns++
			stealBlocks += s.Blocks()
			stolen += s.Stolen()
		}
		require.Equal(t, wantErr, gotErr, "%s, %d threads", r.desc, cfg.Threads)
		require.Equal(t, want, got, "%s, %d threads, pipeline %+v", r.desc, cfg.Threads, r.cfg.Pipeline)
	})
	t.Logf("%d runs stealing first: %d blocks, %d words stolen", stealRuns, stealBlocks, stolen)
	if stealBlocks > 0 {
		// a block of several partitions stealing first steals its first word
		require.Positive(t, stolen, "no word stolen in %d blocks stealing first", stealBlocks)
	}
}
