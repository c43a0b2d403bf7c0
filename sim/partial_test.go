package sim_test

// Deadlock of part of the network (deadlock.go, partialDeadlock): a cycle of
// packets waiting for each other while other packets still move is reported as a
// deadlock, and what is reported is checked against the trace, which shares no
// code with the look: the VCs of the reported wait cycle send no flit after the
// look before the report, in a run continued past it without the look.

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
	"pgregory.net/rapid"
)

// partialT is what the helpers need of a test, rapid's or not.
type partialT interface {
	require.TestingT
	Helper()
	Cleanup(func())
}

// partialRun is an open-loop run of DOR on net with vcs VCs (below the dateline's
// two on a torus: unsafe) of buf flits, the BookSim pipeline, uniform traffic of
// size-flit packets at rate, for cycles cycles; trace, if not nil, sees its
// events; opts change its Config last (soundCase's the routing too).
func partialRun(t partialT, net string, vcs, buf, size int, rate float64, seed uint64, idle int, cycles int64, threads int, trace func(sim.Event), opts ...func(*sim.Config)) (*sim.Result, error) {
	n, err := topology.Parse(net)
	require.NoError(t, err)
	rt, err := routing.NewDOR(n, vcs)
	require.NoError(t, err)
	cfg := sim.Config{Net: n, Routing: rt, VCs: vcs, Buf: buf, Pipeline: sim.BookSim(n), Seed: seed, DeadlockCycles: idle, Threads: threads, Trace: trace}
	for _, o := range opts {
		o(&cfg)
	}
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: n})
	require.NoError(t, err)
	return sim.RunOpen(testCtx(t), cfg, sim.Workload{Pattern: pat, Rate: rate, Sizes: sim.Fixed(size)}, sim.Measure{MinCycles: cycles, MaxCycles: cycles})
}

// checkStuck runs again without the look, traced, 3 dl.Idle cycles past the
// report dl, and checks that no VC of its wait cycle sends a flit after the look
// before the report (dl.At - dl.Idle), while other flits still move after it
// (sent, or injected into a buffer from a source queue, the moves of the stall
// test: the deadlock is of part of the network).
func checkStuck(t partialT, dl *sim.DeadlockError, run func(cycles int64, trace func(sim.Event), opts ...func(*sim.Config)) (*sim.Result, error)) {
	t.Helper()
	require.Positive(t, dl.StuckVCs)
	require.GreaterOrEqual(t, dl.StuckVCs, len(dl.Cycle))
	require.NotEmpty(t, dl.Cycle)
	type key struct{ r, p, v int32 }
	inCycle := map[key]bool{}
	for _, w := range dl.Cycle {
		inCycle[key{int32(w.Router), int32(w.Port), int32(w.VC)}] = true
	}
	since := dl.At - dl.Idle
	var stuckSends, otherSends int64
	_, err := run(dl.At+1+3*dl.Idle, func(ev sim.Event) {
		if ev.Kind != sim.Send && ev.Kind != sim.Inject || ev.Cycle <= since {
			return
		}
		if ev.Kind == sim.Send && inCycle[key{ev.Node, ev.InPort, ev.InVC}] {
			stuckSends++
		} else {
			otherSends++
		}
	}, sim.WithoutPartial)
	if err != nil {
		var dl2 *sim.DeadlockError
		require.True(t, errors.As(err, &dl2), "%v", err)
		require.Zero(t, dl2.StuckVCs, "the run without the look reports no partial deadlock")
	}
	require.Zero(t, stuckSends, "flits sent from the reported wait cycle after cycle %d", since)
	require.Positive(t, otherSends, "other flits moved (sent or injected, as the stall test counts moves) after cycle %d", since)
}

// The adversarial tester's case (docs/simulator.md, Deadlock): torus:4x4, DOR on
// one VC, rate 0.5, seed 1 (wormlab sim's defaults: 8-flit buffers, 16-flit
// packets, the BookSim pipeline). Four packets stop in a cycle at about cycle
// 11,800 while the rest of the network moves; the look at the end of cycle
// 11,999 finds their closed set and the one at 12,999 reports it. Without the
// look the run reaches its budget and reads as saturated.
func TestPartialDeadlockTorus4x4(t *testing.T) {
	const cycles = 13000
	run := func(cycles int64, trace func(sim.Event), opts ...func(*sim.Config)) (*sim.Result, error) {
		return partialRun(t, "torus:4x4", 1, 8, 16, 0.5, 1, 1000, cycles, 0, trace, opts...)
	}
	_, err := run(cycles, nil)
	var dl *sim.DeadlockError
	require.True(t, errors.As(err, &dl), "%v", err)
	require.Equal(t, int64(12999), dl.At)
	require.Equal(t, int64(1000), dl.Idle)
	require.Len(t, dl.Cycle, 8, "four packets, each in two VCs")
	require.Equal(t, 8, dl.StuckVCs)
	require.Equal(t, int64(64), dl.StuckFlits)
	res, err := run(cycles, nil, sim.WithoutPartial)
	require.NoError(t, err, "the whole network never stops by cycle %d", cycles)
	require.True(t, res.Saturated)
	checkStuck(t, dl, run)
}

// A partial deadlock is reported alike on one and two threads, with blocks of
// cycles or without: the look runs only where the partitions have joined, at
// the same cycles (a block ends at a look).
func TestPartialDeadlockThreads(t *testing.T) {
	const cycles = 4000
	run := func(threads int, opts ...func(*sim.Config)) string {
		res, err := partialRun(t, "torus:12x12", 1, 8, 16, 0.15, 2, 500, cycles, threads, nil, opts...)
		var dl *sim.DeadlockError
		require.True(t, errors.As(err, &dl), "%v", err)
		require.Positive(t, dl.StuckVCs)
		require.NotNil(t, res)
		return err.Error()
	}
	one := run(1, sim.WithoutBlocks)
	require.Equal(t, one, run(1))
	require.Equal(t, one, run(1, sim.ForceBlocks))
	require.Equal(t, one, run(2))
	require.Equal(t, one, run(2, sim.WithoutBlocks))
}

// soundCase is a draw of TestPartialDeadlockSound: an open-loop run of uniform
// traffic on net (partialRun) with AtomicVC or not, Latch or not, links and
// credits of link cycles, and DOR, or any-min if anyMin.
type soundCase struct {
	net                   string
	buf, size, idle       int
	rate                  float64
	seed                  uint64
	anyMin, atomic, latch bool
	link                  int
}

// check runs c on DOR with two VCs, which must report no deadlock, then on one
// VC (any-min or DOR), and if that reports a partial deadlock checks its wait
// cycle on the trace (checkStuck); it reports whether it did.
func (c soundCase) check(t partialT) bool {
	n, err := topology.Parse(c.net)
	require.NoError(t, err)
	run := func(vcs int, anyMin bool) func(cycles int64, trace func(sim.Event), opts ...func(*sim.Config)) (*sim.Result, error) {
		return func(cycles int64, trace func(sim.Event), opts ...func(*sim.Config)) (*sim.Result, error) {
			opts = append(opts, func(cfg *sim.Config) {
				cfg.AtomicVC, cfg.Latch = c.atomic, c.latch
				cfg.Pipeline.Link, cfg.Pipeline.Credit = c.link, c.link
			})
			if anyMin {
				r, err := routing.NewAnyMin(n, vcs)
				require.NoError(t, err)
				opts = append(opts, func(cfg *sim.Config) { cfg.Routing = r })
			}
			return partialRun(t, c.net, vcs, c.buf, c.size, c.rate, c.seed, c.idle, cycles, 0, trace, opts...)
		}
	}
	const cycles = 3000
	_, err = run(2, false)(cycles, nil)
	require.NoError(t, err, "DOR with two VCs is deadlock-free")
	_, err = run(1, c.anyMin)(cycles, nil)
	var dl *sim.DeadlockError
	if errors.As(err, &dl) && dl.StuckVCs > 0 {
		checkStuck(t, dl, run(1, c.anyMin))
		return true
	}
	if err != nil {
		require.True(t, errors.As(err, &dl), "%v", err)
	}
	return false
}

// Lemma (deadlock.go): no member of a closed set of waiting VCs ever sends a
// flit again. So (soundness) on any network, rate, buffer, packet size and
// seed, with AtomicVC or not, Latch or not, links of 1 to 3 cycles, a partial
// deadlock reported by a run of DOR below its VC minimum, or of any-min on one
// VC (several ports to choose from: a head is barred only if every VC of every
// choice is), names a wait cycle whose VCs send nothing after the look before
// the report in a run continued past it without the look (checked on the
// trace); and on DOR with the dateline's two VCs (deadlock-free) no deadlock
// is ever reported.
func TestPartialDeadlockSound(t *testing.T) {
	partial, adaptive, runs := 0, 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		runs++
		c := soundCase{
			net:    rapid.SampledFrom([]string{"torus:3x3", "torus:4x4", "torus:5x3", "torus:6"}).Draw(rt, "net"),
			buf:    rapid.IntRange(1, 8).Draw(rt, "buf"),
			size:   rapid.IntRange(1, 16).Draw(rt, "size"),
			rate:   rapid.Float64Range(0.3, 0.9).Draw(rt, "rate"),
			seed:   rapid.Uint64Range(1, 1<<20).Draw(rt, "seed"),
			idle:   rapid.IntRange(30, 400).Draw(rt, "idle"),
			anyMin: rapid.Bool().Draw(rt, "any-min"),
			atomic: rapid.Bool().Draw(rt, "atomic"),
			latch:  rapid.Bool().Draw(rt, "latch"),
			link:   rapid.IntRange(1, 3).Draw(rt, "link"),
		}
		if c.check(rt) {
			partial++
			if c.anyMin {
				adaptive++
			}
		}
	})
	// the lemma was checked on partial deadlocks, not only on none, and on
	// heads with several choices
	t.Logf("%d partial deadlocks (%d of any-min) in %d runs", partial, adaptive, runs)
	require.Positive(t, partial)
	require.Positive(t, adaptive)
}

// The lemma's every choice (deadlock.go, barred): a head waiting for an output
// VC is barred only if every VC of every choice is. A draw of
// TestPartialDeadlockSound (any-min on one VC, AtomicVC, looks 30 cycles
// apart) where a head barred on its first choice waits past two looks and
// leaves by another: the test fails with barred reading the first choice only
// (flits sent from the reported wait cycle after cycle 629).
func TestPartialDeadlockEveryChoice(t *testing.T) {
	c := soundCase{net: "torus:4x4", buf: 3, size: 2, rate: 0.30859375, seed: 3, idle: 30, anyMin: true, atomic: true, link: 3}
	require.True(t, c.check(t), "a partial deadlock is reported")
}
