package online

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// setting is an algorithm with its options.
type setting struct {
	alg Algorithm
	opt Options
}

// configs are the algorithm settings every property runs.
func configs() []setting {
	return []setting{
		{Greedy{}, Options{}},
		{Greedy{}, Options{Rotate: true}},
		{AlgorithmA{}, Options{}},
		{AlgorithmA{PerL: true}, Options{}},
		{AlgorithmA{K: 0.5, T: 3, Doubling: true}, Options{}},
		{RandomDelay{}, Options{}},
		{Phased{}, Options{}},
		{Phased{Alpha: 0.25}, Options{Rotate: true}},
		{StoreForward{}, Options{}},
		{StoreForward{R: 4}, Options{}},
	}
}

// doubling reports whether alg is Algorithm A with Theorem 5's doubling.
func doubling(alg Algorithm) bool {
	a, ok := alg.(AlgorithmA)
	return ok && a.Doubling
}

// Property (MODEL.md legality and lower bounds): every run of every algorithm under
// every arbitration policy is legal (verify.Schedule, or engine.CheckHops for
// store-and-forward) and its makespan is at least the instance's lower bound; a run
// fails only with a deadlock, and only when the channel dependency graph has a
// cycle; the same seed gives the same schedule.
func TestEveryRunIsLegal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in *model.Instance
		if rapid.Bool().Draw(t, "levelled") {
			in = genLevelled(t)
		} else {
			in = genAny(t)
		}
		seed := rapid.Uint64().Draw(t, "seed")
		cyclic := in.Dependencies().Cycle() != nil
		for _, cfg := range configs() {
			for _, arb := range engine.Policies() {
				cfg.opt.Arb, cfg.opt.Seed = arb, seed
				r, err := Run(context.Background(), in, cfg.alg, cfg.opt)
				if err != nil {
					var d *engine.Deadlock
					require.True(t, cyclic, "%s/%s: %v", cfg.alg.Name(), arb, err)
					require.True(t, errors.As(err, &d) || (doubling(cfg.alg) && errors.Is(err, ErrDeadlock)), "%s/%s: %v", cfg.alg.Name(), arb, err)
					continue
				}
				checkLegal(t, in, r)
				r2, err := Run(context.Background(), in, cfg.alg, cfg.opt)
				require.NoError(t, err)
				require.Equal(t, r.Schedule, r2.Schedule)
			}
		}
	})
}

// deliverySteps returns, for the worms ws, the steps in which one of their flits
// crosses its last edge (worm i delivers flit j in step t_d + j).
func deliverySteps(in *model.Instance, s *model.Schedule, ws []int) map[int]bool {
	out := map[int]bool{}
	for _, i := range ws {
		c := s.Messages[i].Cross
		for j := 0; j < in.Messages[i].L; j++ {
			out[c[len(c)-1]+j] = true
		}
	}
	return out
}

// Property (seed 002, section 2.1, Lemma 1): on a d-levelled network with every path
// from level 0 to level d, greedy delivers every worm of a path-graph component C by
// time d + |C| L, whatever the arbitration. Also the invariant its proof rests on:
// from step d until C is delivered, some flit of C reaches level d in every step.
func TestLemma1GreedyComponentBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genLevelled(t)
		d, _ := fullDepth(in)
		L := in.Messages[0].L
		seed := rapid.Uint64().Draw(t, "seed")
		comps := in.PathGraph().Components()
		for _, arb := range engine.Policies() {
			r, err := Run(context.Background(), in, Greedy{}, Options{Arb: arb, Seed: seed})
			require.NoError(t, err)
			for _, c := range comps {
				last := 0
				for _, i := range c {
					require.LessOrEqual(t, r.Delivered[i], d+len(c)*L, "policy %s, worm %s, component of %d", arb, in.Messages[i].ID, len(c))
					last = max(last, r.Delivered[i])
				}
				steps := deliverySteps(in, r.Schedule, c)
				for s := d; s <= last; s++ {
					require.True(t, steps[s], "policy %s: no flit of a component of %d delivered in step %d (d = %d, done at %d)", arb, len(c), s, d, last)
				}
			}
		}
	})
}

// monochromatic returns the size of the component of worm i in the path graph
// restricted to the worms of i's colour.
func monochromatic(g *model.PathGraph, colour []int, i int) int {
	seen := map[int]bool{i: true}
	q := []int{i}
	for k := 0; k < len(q); k++ {
		for _, j := range g.Adj[q[k]] {
			if colour[j] == colour[i] && !seen[j] {
				seen[j] = true
				q = append(q, j)
			}
		}
	}
	return len(q)
}

// Property (seed 002, section 2.3, Lemma 2 and the proof of Theorem 1): after phase
// one every undelivered worm lies in a monochromatic component of more than
// lambda >= log2 Delta worms; phase one lasts exactly Colours * (L lambda + d) steps:
// a worm delivered in phase one crosses and is delivered within its colour's
// sub-phase, every other worm starts after phase one.
func TestLemma2PhaseOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genLevelled(t)
		alpha := rapid.SampledFrom([]float64{0.1, 0.25, 0.5, 1, 2}).Draw(t, "alpha")
		arb := rapid.SampledFrom(engine.Policies()).Draw(t, "arb")
		r, err := Run(context.Background(), in, Phased{Alpha: alpha}, Options{Arb: arb, Seed: rapid.Uint64().Draw(t, "seed")})
		require.NoError(t, err)
		checkLegal(t, in, r)
		p := r.Phased
		d, _ := fullDepth(in)
		// The parameters of section 2.2, computed here from the instance: Delta the
		// path graph's degree, K = max(1, ceil(alpha Delta)) colours, lambda =
		// max(1, ceil(log2 Delta)).
		g := in.PathGraph()
		delta, _ := g.MaxDegree()
		wantColours := max(1, int(math.Ceil(alpha*float64(delta))))
		wantLambda := 1
		for 1<<wantLambda < delta {
			wantLambda++
		}
		require.Equal(t, delta, p.Delta)
		require.Equal(t, wantColours, p.Colours)
		require.Equal(t, wantLambda, p.Lambda)
		require.Equal(t, in.Messages[0].L*wantLambda+d, p.SubPhase)
		require.Equal(t, wantColours*p.SubPhase, p.PhaseOneEnd)
		for i := range in.Messages {
			require.True(t, p.Colour[i] >= 0 && p.Colour[i] < wantColours, "colour %d", p.Colour[i])
		}
		for i := range in.Messages {
			c := r.Schedule.Messages[i].Cross
			if p.PhaseOne[i] {
				require.Greater(t, c[0], p.Colour[i]*p.SubPhase)
				require.LessOrEqual(t, r.Delivered[i], (p.Colour[i]+1)*p.SubPhase)
				continue
			}
			require.Greater(t, c[0], p.PhaseOneEnd)
			require.Greater(t, monochromatic(g, p.Colour, i), p.Lambda, "worm %s undelivered in phase one", in.Messages[i].ID)
		}
	})
}

// Property (seed 000, section II, Algorithm A): with T at least the deterministic
// per-phase bound (PhaseBound: Lemma 1 of seed 002 on full-depth levelled networks,
// the total number of moves when the dependency graph is acyclic), every worm is
// delivered in the phase it starts in, and the run ends within its P
// phases of T steps. With doubling (Theorem 5), a first T of at least that bound
// needs one round, and from T = 1 the rounds and the total are bounded as below.
func TestAlgorithmAPhaseBound(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in *model.Instance
		if rapid.Bool().Draw(t, "levelled") {
			in = genLevelled(t)
		} else {
			in = genAny(t)
			if in.Dependencies().Cycle() != nil {
				t.Skip("cyclic dependencies: no deterministic bound")
			}
		}
		k := rapid.SampledFrom([]float64{0.05, 0.2, 1}).Draw(t, "k")
		seed := rapid.Uint64().Draw(t, "seed")
		arb := rapid.SampledFrom(engine.Policies()).Draw(t, "arb")
		// The delays depend on the seed only, so a run with any T reveals them.
		probe, err := Run(context.Background(), in, AlgorithmA{K: k, T: 1}, Options{Seed: seed, Arb: arb})
		require.NoError(t, err)
		bound, rule := PhaseBound(in, probe.Delayed.Delay)
		require.NotEqual(t, "none", rule)
		for _, doubling := range []bool{false, true} {
			r, err := Run(context.Background(), in, AlgorithmA{K: k, T: bound, Doubling: doubling}, Options{Seed: seed, Arb: arb})
			require.NoError(t, err)
			checkLegal(t, in, r)
			dl := r.Delayed
			require.Equal(t, probe.Delayed.Delay, dl.Delay)
			require.Equal(t, 1, dl.Rounds)
			for i := range in.Messages {
				require.Greater(t, r.Schedule.Messages[i].Cross[0], dl.Delay[i]*bound)
				require.LessOrEqual(t, r.Delivered[i], (dl.Delay[i]+1)*bound, "rule %s: worm %s late", rule, in.Messages[i].ID)
			}
			require.Zero(t, dl.Late)
			require.LessOrEqual(t, r.Makespan, dl.Phases*bound)
		}
		// Theorem 5's doubling from T = 1: round r has phases of 2^r steps, and a
		// round whose T reaches the bound of its own delays has no late worm, so
		// there are at most 1 + ceil(log2 B) rounds for B the largest bound of any
		// set of worms (PhaseBound of all worms in one phase), and the run ends
		// within P (2^rounds - 1) steps.
		all := make([]int, len(in.Messages))
		worst, _ := PhaseBound(in, all)
		r, err := Run(context.Background(), in, AlgorithmA{K: k, T: 1, Doubling: true}, Options{Seed: seed, Arb: arb})
		require.NoError(t, err)
		checkLegal(t, in, r)
		dl := r.Delayed
		require.LessOrEqual(t, dl.Rounds, 1+ceilLog2(worst))
		require.LessOrEqual(t, r.Makespan, DoublingMakespan(dl.Phases, 1, dl.Rounds))
		require.Equal(t, 0, dl.LatePerRound[len(dl.LatePerRound)-1])
	})
}

func TestMeetRuns(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"],["b","c"],["c","d"],["b","x"],["x","c"]]},
	  "messages": [{"id":"p","path":["a","b","c","d"]},{"id":"q","path":["a","b","x","c","d"]},{"id":"r","path":["b","c"]}]}`))
	require.NoError(t, err)
	m := MeetRuns(in)
	// p and q share a->b, part, and share c->d again: two runs.
	assert.Equal(t, Meet{OneRun: false, MaxRuns: 2, A: "p", B: "q"}, m)
	in.Messages = in.Messages[:1:1]
	in.Messages = append(in.Messages, model.Message{ID: "r", Path: []int{1}, L: 1})
	assert.Equal(t, Meet{OneRun: true, MaxRuns: 1}, MeetRuns(in))
}

// The meet diagnostic is bounded: its work is sum_e c_e^2 pair visits (MeetWork);
// Run examines the pairs when that is at most the instance's flit-hops (or
// Options.MeetBudget), says it skipped them otherwise, and always with a negative
// budget; what it reports when it examines is MeetRuns.
func TestMeetBudget(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"],["b","c"],["c","d"],["b","x"],["x","c"]]},
	  "messages": [{"id":"p","path":["a","b","c","d"]},{"id":"q","path":["a","b","x","c","d"]},{"id":"r","path":["b","c"]}]}`))
	require.NoError(t, err)
	// c = 2, 2, 2, 1, 1 on the five edges: 4+4+4+1+1
	require.Equal(t, int64(14), MeetWork(in))
	// the default budget is the flit-hops (3+4+1 = 8) or 2^20: examined
	r, err := Run(context.Background(), in, Greedy{}, Options{})
	require.NoError(t, err)
	require.Equal(t, MeetRuns(in), r.Meet)
	for _, budget := range []int64{-1, 14} {
		r, err = Run(context.Background(), in, Greedy{}, Options{MeetBudget: budget})
		require.NoError(t, err)
		require.Equal(t, MeetRuns(in), r.Meet, "budget %d", budget)
	}
	r, err = Run(context.Background(), in, Greedy{}, Options{MeetBudget: 13})
	require.NoError(t, err)
	require.Contains(t, r.Meet.Skipped, "14 pair visits, above the budget of 13")
	require.False(t, r.Meet.OneRun)
}

func TestBadConfig(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"]]}, "messages": [{"id":"m","path":["a","b"]}]}`))
	require.NoError(t, err)
	_, err = Lookup("fastest")
	require.ErrorContains(t, err, `unknown algorithm "fastest"`)
	_, err = Run(context.Background(), in, Greedy{}, Options{Arb: "lifo"})
	require.ErrorContains(t, err, `unknown arbitration policy "lifo"`)
	_, err = Run(context.Background(), in, Phased{Alpha: -1}, Options{})
	require.ErrorContains(t, err, `alpha`)
	_, err = Run(context.Background(), in, AlgorithmA{T: -1}, Options{})
	require.ErrorContains(t, err, `T = -1`)
	_, err = Run(context.Background(), in, StoreForward{R: -1}, Options{})
	require.ErrorContains(t, err, `R and Unit`)
}

// Lemma 1 of seed 002 on larger levelled instances than the property draws: Ranade's
// heavy problem on 256-input butterflies (L = 8) and random levelled networks (8
// levels of width 8, 300 worms, L = 5), every policy.
func TestLemma1Larger(t *testing.T) {
	specs := []instances.Spec{
		{Kind: "butterfly", Size: 256, Traffic: "heavy", Flits: 8, Seed: 1},
		{Kind: "levelled", Size: 8, Depth: 8, K: 2, Traffic: "random", Messages: 300, Flits: 5, Seed: 2},
	}
	for _, s := range specs {
		in, err := instances.Generate(s)
		require.NoError(t, err)
		d, ok := fullDepth(in)
		require.True(t, ok)
		comps := in.PathGraph().Components()
		for _, arb := range engine.Policies() {
			r, err := Run(context.Background(), in, Greedy{}, Options{Arb: arb, Seed: 9})
			require.NoError(t, err)
			checkLegal(t, in, r)
			for _, c := range comps {
				for _, i := range c {
					require.LessOrEqual(t, r.Delivered[i], d+len(c)*in.Messages[i].L, "%s %s", in.Name, arb)
				}
			}
		}
	}
}

// Release times that would overflow the clock (P phases of T steps, or
// R * Unit) are bad input with a clear error, not a run at negative times.
func TestDelayedClockOverflow(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"]]}, "flits": 2147483640,
	  "messages": [{"id":"m","path":["a","b"]},{"id":"n","path":["a","b"]}]}`))
	require.NoError(t, err)
	_, err = Run(context.Background(), in, AlgorithmA{PerL: true}, Options{})
	require.ErrorContains(t, err, "overflows the clock")
	_, err = Run(context.Background(), in, RandomDelay{R: 1 << 62}, Options{})
	require.ErrorContains(t, err, "overflows the clock")
	_, err = Run(context.Background(), in, StoreForward{R: 3, Unit: 1 << 62}, Options{})
	require.ErrorContains(t, err, "overflows the clock")

	// Factors whose counts exceed int are refused, not converted to garbage.
	small, err := model.ParseInstance([]byte(`{"network": {"edges": [["a","b"]]},
	  "messages": [{"id":"m","path":["a","b"]},{"id":"n","path":["a","b"]}]}`))
	require.NoError(t, err)
	_, err = Run(context.Background(), small, AlgorithmA{K: 1e300}, Options{})
	require.ErrorContains(t, err, "overflows the clock")
	_, err = Run(context.Background(), small, AlgorithmA{T: 1 << 62}, Options{})
	require.ErrorContains(t, err, "overflows the clock")
	_, err = Run(context.Background(), small, AlgorithmA{K: 1e9, Doubling: true}, Options{})
	require.ErrorContains(t, err, "at most")
	_, err = Run(context.Background(), small, Phased{Alpha: 1e300}, Options{})
	require.ErrorContains(t, err, "at most")
}

// Seed 000, Theorem 4: Algorithm A runs ceil(k c L) phases when L <= d and
// ceil(k c d) when d < L (the time is then O(c d L log P) in both cases); PerL keeps
// ceil(k c L) always. The expected counts are computed from c, d and L here.
func TestAlgorithmAPhases(t *testing.T) {
	for _, c := range []struct {
		json     string
		cc, d, l int
		perL     bool
	}{
		// d = 1 < L = 5, c = 2.
		{`{"network":{"edges":[["a","b"]]},"flits":5,"messages":[{"id":"p","path":["a","b"]},{"id":"q","path":["a","b"]}]}`, 2, 1, 5, false},
		{`{"network":{"edges":[["a","b"]]},"flits":5,"messages":[{"id":"p","path":["a","b"]},{"id":"q","path":["a","b"]}]}`, 2, 1, 5, true},
		// L = 2 < d = 3, c = 2.
		{`{"network":{"edges":[["a","b"],["b","c"],["c","d"]]},"flits":2,"messages":[{"id":"p","path":["a","b","c","d"]},{"id":"q","path":["a","b","c","d"]}]}`, 2, 3, 2, false},
	} {
		in, err := model.ParseInstance([]byte(c.json))
		require.NoError(t, err)
		for _, k := range []float64{0.5, 1, 3} {
			f := min(c.l, c.d)
			if c.perL {
				f = c.l
			}
			want := int(math.Ceil(k * float64(c.cc*f)))
			r, err := Run(context.Background(), in, AlgorithmA{K: k, PerL: c.perL}, Options{Seed: 1})
			require.NoError(t, err)
			checkLegal(t, in, r)
			require.Equal(t, want, r.Delayed.Phases, "k %v c %d d %d L %d perL %v", k, c.cc, c.d, c.l, c.perL)
			require.Equal(t, c.perL, r.Delayed.PerL)
			for _, x := range r.Delayed.Delay {
				require.True(t, x >= 0 && x < want)
			}
		}
	}
}
