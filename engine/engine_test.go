package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/verify"
)

const modelExample = fixture.ExampleInstance

// greedy releases every worm at time 0 and runs to the end.
func greedy(t require.TestingT, e *Engine, n int) error {
	for i := 0; i < n; i++ {
		require.NoError(t, e.Release(i, 0))
	}
	return e.Run(context.Background(), -1)
}

// The worked example of MODEL.md under fixed priority by message: m0 and m1 start
// at once; m0 waits for m1 to drain from b->c (it holds it at times 1..3, so m0 may
// cross in step 4); m2 follows m0's tail on a->b with no gap (step 5) and on b->c
// (m0 holds it at 4..5, so step 6).
func TestModelExampleByHand(t *testing.T) {
	in := parse(t, modelExample)
	e, err := New(in, Config{})
	require.NoError(t, err)
	require.NoError(t, greedy(t, e, 3))
	s := e.Schedule()
	require.NoError(t, verify.Schedule(in, s))
	assert.Equal(t, []int{1, 4}, s.Messages[0].Cross)
	assert.Equal(t, []int{1}, s.Messages[1].Cross)
	assert.Equal(t, []int{5, 6}, s.Messages[2].Cross)
	assert.Equal(t, 7, s.Makespan)
	assert.Equal(t, []int{5, 3, 7}, []int{e.DeliveryTime(0), e.DeliveryTime(1), e.DeliveryTime(2)})
	c := e.Counters()
	// Every flit crosses every edge of its path once: 2*2 + 1*3 + 2*2.
	assert.Equal(t, int64(11), c.FlitMoves)
}

// Pipelining: on a line a->b->c, single-flit worms follow each other with no gap;
// two-flit worms on one edge hold it for two steps each.
func TestPipelining(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"]]}, "flits": 1,
	  "messages": [{"id":"x","path":["a","b","c"]},{"id":"y","path":["a","b","c"]},{"id":"z","path":["a","b","c"]}]}`)
	e, err := New(in, Config{})
	require.NoError(t, err)
	require.NoError(t, greedy(t, e, 3))
	s := e.Schedule()
	require.NoError(t, verify.Schedule(in, s))
	assert.Equal(t, [][]int{{1, 2}, {2, 3}, {3, 4}}, [][]int{s.Messages[0].Cross, s.Messages[1].Cross, s.Messages[2].Cross})

	in = parse(t, `{"network": {"edges": [["a","b"]]}, "flits": 2,
	  "messages": [{"id":"x","path":["a","b"]},{"id":"y","path":["a","b"]}]}`)
	e, err = New(in, Config{})
	require.NoError(t, err)
	require.NoError(t, greedy(t, e, 2))
	s = e.Schedule()
	require.NoError(t, verify.Schedule(in, s))
	assert.Equal(t, []int{3}, s.Messages[1].Cross)
	assert.Equal(t, 4, s.Makespan)
}

// Four worms around a ring of four edges, each taking the next three edges: after
// one step each holds its first edge and waits for the next, held by its neighbour.
func TestDeadlockNamesTheCycle(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"],["c","d"],["d","a"]]}, "flits": 2,
	  "messages": [{"id":"w0","edges":[0,1,2]},{"id":"w1","edges":[1,2,3]},{"id":"w2","edges":[2,3,0]},{"id":"w3","edges":[3,0,1]}]}`)
	require.NotNil(t, in.Dependencies().Cycle())
	for _, arb := range Policies() {
		e, err := New(in, Config{Arb: arb, Seed: 3})
		require.NoError(t, err)
		err = greedy(t, e, 4)
		var d *Deadlock
		require.True(t, errors.As(err, &d), "policy %s: %v", arb, err)
		assert.Len(t, d.Worms, 4)
		assert.ElementsMatch(t, []int{0, 1, 2, 3}, d.Edges)
		assert.Equal(t, 4, d.Stuck)
		assert.Contains(t, d.Error(), `"w0" waits for edge b->c held by "w1"`)
	}
}

// Remove frees the edges of an undelivered worm and returns it to its source; a
// removed-then-released worm runs as if new.
func TestRemoveBreaksDeadlock(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"],["c","d"],["d","a"]]}, "flits": 2,
	  "messages": [{"id":"w0","edges":[0,1,2]},{"id":"w1","edges":[1,2,3]},{"id":"w2","edges":[2,3,0]},{"id":"w3","edges":[3,0,1]}]}`)
	e, err := New(in, Config{})
	require.NoError(t, err)
	for i := 0; i < 4; i++ {
		require.NoError(t, e.Release(i, 0))
	}
	require.NoError(t, e.Run(context.Background(), 5))
	assert.True(t, e.Stalled())
	// With one worm removed the other three still fill the ring (w3 moves onto a->b
	// and waits again); with two removed the rest drain.
	e.Remove(0)
	assert.Empty(t, e.Cross(0))
	var d *Deadlock
	require.ErrorAs(t, e.Run(context.Background(), -1), &d)
	assert.Len(t, d.Worms, 3)
	// With two removed, w1 and w3 advance until each waits for the other's tail
	// (w1 for d->a, w3 for b->c): a cyclic wait of two, which the engine does not
	// rotate (doc.go). With w1 removed too, w3 drains; the three then run one by one.
	e.Remove(2)
	require.ErrorAs(t, e.Run(context.Background(), -1), &d)
	assert.Equal(t, []string{"d->a", "b->c"}, []string{in.Net.EdgeName(d.Edges[0]), in.Net.EdgeName(d.Edges[1])})
	e.Remove(1)
	require.NoError(t, e.Run(context.Background(), -1))
	for _, i := range []int{0, 1, 2} {
		require.NoError(t, e.Release(i, e.Now()))
		require.NoError(t, e.Run(context.Background(), -1))
	}
	s := e.Schedule()
	require.NoError(t, verify.Schedule(in, s))
	assert.Equal(t, 3, e.Counters().Removed)
	assert.Greater(t, s.Messages[0].Cross[0], 7)
}

func TestUnknownPolicy(t *testing.T) {
	_, err := New(parse(t, modelExample), Config{Arb: "lifo"})
	require.ErrorContains(t, err, `unknown arbitration policy "lifo"`)
}

// Property (MODEL.md, legality): every greedy run under every policy either
// delivers every worm with a schedule verify.Schedule accepts, whose makespan is at
// least the instance's lower bound, or reports a deadlock, and only when the
// channel dependency graph has a cycle. The same seed gives the same schedule.
func TestGreedyRunsAreLegal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, false)
		seed := rapid.Uint64().Draw(t, "seed")
		for _, arb := range Policies() {
			run := func() (*Engine, error) {
				e, err := New(in, Config{Arb: arb, Seed: seed})
				require.NoError(t, err)
				return e, greedy(t, e, len(in.Messages))
			}
			e, err := run()
			if err != nil {
				var d *Deadlock
				require.True(t, errors.As(err, &d), "policy %s: %v", arb, err)
				require.NotNil(t, in.Dependencies().Cycle(), "deadlock without a dependency cycle")
				continue
			}
			s := e.Schedule()
			require.NoError(t, verify.Schedule(in, s), "policy %s", arb)
			require.GreaterOrEqual(t, s.Makespan, in.LowerBound().Value)
			for i := range in.Messages {
				require.True(t, e.Delivered(i))
				require.Equal(t, s.Messages[i].Cross[len(s.Messages[i].Cross)-1]+in.Messages[i].L-1, e.DeliveryTime(i))
			}
			e2, err := run()
			require.NoError(t, err)
			require.Equal(t, s, e2.Schedule(), "policy %s: not deterministic", arb)
		}
	})
}

// Property (MODEL.md: sources hold any number of worms; releases): worms released
// at random times never cross before their release, and the run stays legal.
func TestReleasesAreRespected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, true)
		arb := rapid.SampledFrom(Policies()).Draw(t, "arb")
		e, err := New(in, Config{Arb: arb, Seed: 1})
		require.NoError(t, err)
		rel := make([]int, len(in.Messages))
		for i := range rel {
			rel[i] = rapid.IntRange(0, 20).Draw(t, "release")
			require.NoError(t, e.Release(i, rel[i]))
		}
		require.NoError(t, e.Run(context.Background(), -1)) // levelled: no cycle
		s := e.Schedule()
		require.NoError(t, verify.Schedule(in, s))
		for i := range rel {
			require.Greater(t, s.Messages[i].Cross[0], rel[i])
		}
	})
}

// MODEL.md, time and movement (every flit of a worm crosses every edge of its path
// exactly once): the per-step counters add up to the run's totals, and a flit
// crossing is counted once per flit and edge (sum of d_i L_i when nothing is removed).
func TestStepCounters(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, true)
		e, err := New(in, Config{Arb: ArbRandom, Seed: 2, RecordSteps: true})
		require.NoError(t, err)
		require.NoError(t, greedy(t, e, len(in.Messages)))
		var moving, flits, lost int64
		last := 0
		for _, s := range e.Steps() {
			require.Greater(t, s.T, last)
			last = s.T
			moving += int64(s.Moving)
			flits += int64(s.Flits)
			lost += int64(s.Lost)
		}
		c := e.Counters()
		require.Equal(t, c.WormMoves, moving)
		require.Equal(t, c.FlitMoves, flits)
		require.Equal(t, c.Lost, lost)
		var want int64
		for i := range in.Messages {
			want += int64(len(in.Messages[i].Path) * in.Messages[i].L)
		}
		require.Equal(t, want, c.FlitMoves)
	})
}

// A cancelled context stops a run with the context's error.
func TestCancel(t *testing.T) {
	in := parse(t, modelExample)
	e, err := New(in, Config{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, e.Release(0, 0))
	require.ErrorIs(t, e.Run(ctx, -1), context.Canceled)
}

// Two worms on a four-edge ring end up each waiting for the other's tail (p for
// c->d, q for a->b). By default that is a deadlock; with Rotate both shift in the
// same step, which MODEL.md's holding rule allows (verify accepts it).
func TestRotation(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"],["b","c"],["c","d"],["d","a"]]}, "flits": 2,
	  "messages": [{"id":"p","edges":[0,1,2]},{"id":"q","edges":[2,3,0]}]}`)
	e, err := New(in, Config{})
	require.NoError(t, err)
	var d *Deadlock
	require.ErrorAs(t, greedy(t, e, 2), &d)
	assert.Equal(t, 2, d.Time)
	for _, arb := range Policies() {
		e, err = New(in, Config{Arb: arb, Rotate: true, Seed: 4})
		require.NoError(t, err)
		require.NoError(t, greedy(t, e, 2), arb)
		s := e.Schedule()
		require.NoError(t, verify.Schedule(in, s))
		assert.Equal(t, []int{1, 2, 3}, s.Messages[0].Cross)
		assert.Equal(t, []int{1, 2, 3}, s.Messages[1].Cross)
	}
	// A third worm x, starting at c, also wants c->d. Under the message order x
	// always beats p, so the cycle can never rotate: a deadlock even with Rotate.
	// Under the random policy p wins some step and the pair rotates.
	in = parse(t, `{"network": {"edges": [["a","b"],["b","c"],["c","d"],["d","a"]]}, "flits": 2,
	  "messages": [{"id":"x","edges":[2]},{"id":"p","edges":[0,1,2]},{"id":"q","edges":[2,3,0]}]}`)
	e, err = New(in, Config{Arb: ArbMessage, Rotate: true})
	require.NoError(t, err)
	for i := 1; i < 3; i++ {
		require.NoError(t, e.Release(i, 0))
	}
	require.NoError(t, e.Release(0, 2))
	require.ErrorAs(t, e.Run(context.Background(), -1), &d)
	for seed := uint64(0); seed < 20; seed++ {
		e, err = New(in, Config{Arb: ArbRandom, Rotate: true, Seed: seed})
		require.NoError(t, err)
		for i := 1; i < 3; i++ {
			require.NoError(t, e.Release(i, 0))
		}
		require.NoError(t, e.Release(0, 2))
		require.NoError(t, e.Run(context.Background(), -1), "seed %d", seed)
		require.NoError(t, verify.Schedule(in, e.Schedule()))
	}
}

// Property (MODEL.md legality, Config.Rotate): with rotation every greedy run under
// every policy is legal, and a deadlock happens only with a dependency cycle.
func TestRotatingRunsAreLegal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(t, false)
		seed := rapid.Uint64().Draw(t, "seed")
		for _, arb := range Policies() {
			e, err := New(in, Config{Arb: arb, Seed: seed, Rotate: true})
			require.NoError(t, err)
			if err := greedy(t, e, len(in.Messages)); err != nil {
				var d *Deadlock
				require.True(t, errors.As(err, &d), "policy %s: %v", arb, err)
				require.NotNil(t, in.Dependencies().Cycle())
				continue
			}
			require.NoError(t, verify.Schedule(in, e.Schedule()), "policy %s", arb)
		}
	})
}

// A worm whose move count d + L does not fit the engine's int32 state is bad input,
// named by message, not a crash; L = MaxInt32 - d is the largest accepted.
func TestNewRejectsHugeLength(t *testing.T) {
	in := parse(t, `{"network": {"edges": [["a","b"]]}, "flits": 2147483647,
	  "messages": [{"id":"big","path":["a","b"]}]}`)
	_, err := New(in, Config{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `message "big"`)
	in.Messages[0].L = 2147483646
	_, err = New(in, Config{})
	require.NoError(t, err)
}

// A release time beyond MaxRelease is refused (later steps could overflow the
// clock), naming the message.
func TestReleaseBeyondClock(t *testing.T) {
	in := parse(t, modelExample)
	e, err := New(in, Config{})
	require.NoError(t, err)
	require.ErrorContains(t, e.Release(0, MaxRelease+1), `message "m0"`)
	require.NoError(t, e.Release(0, MaxRelease))
}
