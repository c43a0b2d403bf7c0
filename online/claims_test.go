package online

// The probabilistic claims of the papers, asserted at sizes where they say
// something (the bound is below 1 and the event can happen): seed 002, Lemma 3 and
// Theorem 1 (the phased algorithm); seed 000, Lemmas 1-3, Theorem 4 with Corollary 6
// and Theorem 5 (Algorithm A). Each claim "P[event] <= p0" is an exact one-sided
// binomial test over independent runs (one seed each, one event per run) at level
// claimLevel; each test also states the smallest true probability it would reject
// with probability 0.99 (stattest.Detectable), so a violation of that size cannot go
// unseen. Claims about expectations use a one-sided z-test at the same level. With
// testing.Short the tests run fewer seeds, with WORMLAB_LONG=1 more (the counts are
// in each test's log).

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/stattest"
	"github.com/wormlab/wormlab/model"
)

// claimLevel is the false-alarm rate of each claim test.
const claimLevel = 1e-4

// claimRuns is the number of seeds: short under testing.Short, long with
// WORMLAB_LONG=1, else normal.
func claimRuns(short, normal, long int) int {
	switch {
	case testing.Short():
		return short
	case os.Getenv("WORMLAB_LONG") == "1":
		return long
	}
	return normal
}

// checkClaim tests "P[event] <= p0" from events in runs independent runs.
func checkClaim(t *testing.T, name string, runs, events int, p0 float64) {
	t.Helper()
	require.Less(t, p0, 1.0, "%s: the bound says nothing", name)
	test := stattest.EventAtMost(runs, events, p0)
	p1 := stattest.Detectable(runs, p0, claimLevel, 0.99)
	t.Logf("%s: %v; a probability of %.3g or more is rejected with probability 0.99", name, test, p1)
	require.Less(t, p1, 1.0, "%s: %d runs cannot reject any violation", name, runs)
	require.Greater(t, test.PValue, claimLevel, "%s: the claim fails: %v", name, test)
}

// butterflyHeavy is Ranade's heavy problem on the 64-input butterfly (384 worms of
// L = 6 = d flits).
func butterflyHeavy(t *testing.T) *model.Instance {
	in, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 64, Traffic: "heavy", Seed: 1})
	require.NoError(t, err)
	return in
}

// largestUnion returns the size of the largest connected subgraph of the path graph
// that is a union of monochromatic components of at least log2 Delta worms each
// (seed 002, Lemma 3's C): the largest component of the path graph induced on the
// worms of such monochromatic components.
func largestUnion(g *model.PathGraph, colour []int, delta int) int {
	n := len(g.Adj)
	keep := make([]bool, n)
	seen := make([]bool, n)
	min := math.Log2(float64(max(delta, 1)))
	for s := range n {
		if seen[s] {
			continue
		}
		comp := []int{s}
		seen[s] = true
		for q := 0; q < len(comp); q++ {
			for _, v := range g.Adj[comp[q]] {
				if !seen[v] && colour[v] == colour[s] {
					seen[v] = true
					comp = append(comp, v)
				}
			}
		}
		if float64(len(comp)) >= min {
			for _, v := range comp {
				keep[v] = true
			}
		}
	}
	best := 0
	clear(seen)
	for s := range n {
		if !keep[s] || seen[s] {
			continue
		}
		comp := []int{s}
		seen[s] = true
		for q := 0; q < len(comp); q++ {
			for _, v := range g.Adj[comp[q]] {
				if keep[v] && !seen[v] {
					seen[v] = true
					comp = append(comp, v)
				}
			}
		}
		best = max(best, len(comp))
	}
	return best
}

// Seed 002, Lemma 3: the largest connected union C of monochromatic components,
// each of at least log2 Delta worms, has u0 worms or more with probability at most
// Lemma3Probability(M, Delta, K, u0); Lemma 2: the largest component of P_1 is never
// larger than C (checked in every run); Theorem 1: the makespan exceeds
// PhasedBound's bound with probability at most its Failure. On Ranade's heavy
// problem on the 64-input butterfly the count says something from alpha = 64 on
// (K = 64 Delta colours), for u0 well below M; the paper's alpha = 128^2 is checked
// too, where the count is below 1e-40.
func TestClaimSeed002Lemma3Theorem1(t *testing.T) {
	in := butterflyHeavy(t)
	g := in.PathGraph()
	delta, _ := g.MaxDegree()
	M, N := len(in.Messages), len(in.Net.Nodes)
	for _, c := range []struct {
		alpha float64
		u0    []int // Lemma 3's sizes
		t1U0  int   // Theorem 1 with beta giving this U0
		runs  int
	}{
		{64, []int{14, 18, 22}, 22, claimRuns(100, 400, 3000)},
		{256, []int{2, 4, 6}, 26, claimRuns(30, 150, 1000)},
		{PaperAlpha, []int{2}, 26, claimRuns(10, 30, 100)},
	} {
		beta := (float64(c.t1U0) - 2*math.Log2(float64(M))) / math.Log2(float64(N))
		b, err := PhasedBound(in, c.alpha, beta)
		require.NoError(t, err)
		require.Equal(t, c.t1U0, b.U0)
		events := make([]int, len(c.u0))
		over := 0
		for seed := range uint64(c.runs) {
			r, err := Run(context.Background(), in, Phased{Alpha: c.alpha}, Options{Seed: seed, Arb: engine.ArbRandom})
			require.NoError(t, err)
			u := largestUnion(g, r.Phased.Colour, delta)
			var left []int
			for i, ok := range r.Phased.PhaseOne {
				if !ok {
					left = append(left, i)
				}
			}
			for _, comp := range components(in, left) {
				require.LessOrEqual(t, len(comp), u, "Lemma 2: a component of P_1 outside every union")
			}
			for k, u0 := range c.u0 {
				if u >= u0 {
					events[k]++
				}
			}
			if r.Makespan > b.Bound {
				over++
			}
		}
		for k, u0 := range c.u0 {
			checkClaim(t, fmt.Sprintf("seed 002 Lemma 3, alpha %g, u0 %d", c.alpha, u0), c.runs, events[k],
				Lemma3Probability(M, delta, b.Colours, u0))
		}
		checkClaim(t, fmt.Sprintf("seed 002 Theorem 1, alpha %g, U0 %d", c.alpha, b.U0), c.runs, over, b.Failure)
	}
}

// meshDimOrder is 288 random worms of L = 8 on a 12 x 12 mesh with dimension-order
// paths (d = 21 > log2 n: Theorem 4 beyond Corollary 6's case).
func meshDimOrder(t *testing.T) *model.Instance {
	in, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{12, 12}, Traffic: "random", Messages: 288, Flits: 8, Seed: 1})
	require.NoError(t, err)
	return in
}

// directDelayers returns the worms that held the edge worm w's head was waiting for
// at some step of the wait, from a wormhole schedule: w waits for its k-th edge e in
// the steps from its release + 1 (k = 0) or its crossing of edge k - 1, plus one, to
// its crossing of e, minus one; worm v holds e, its j-th edge, from its crossing
// M_v(j + 1) to M_v(j + 1 + L_v) - 1, where M_v(m) is v's crossing of edge m - 1 for
// m <= d_v and its last crossing plus m - d_v after (engine's doc.go).
func directDelayers(in *model.Instance, s *model.Schedule, w, release int) map[int]bool {
	move := func(v, m int) int {
		c := s.Messages[v].Cross
		if m <= len(c) {
			return c[m-1]
		}
		return c[len(c)-1] + m - len(c)
	}
	users := in.Users()
	out := map[int]bool{}
	c := s.Messages[w].Cross
	from := release + 1
	for k, e := range in.Messages[w].Path {
		if c[k] > from {
			for _, u := range users[e] {
				v := u.Msg
				if v == w {
					continue
				}
				a, b := move(v, u.Pos+1), move(v, u.Pos+1+in.Messages[v].L)-1
				if a <= c[k]-1 && b >= from {
					out[v] = true
				}
			}
		}
		from = c[k] + 1
	}
	return out
}

// Seed 000, Lemmas 1-3, with k = 32e and phases too long to interfere (T = the
// worms' total moves, so each phase is the isolated routing the lemmas analyse):
//
//   - Lemma 1 (binomial tail, applied to the algorithm's draws): among the m <= Delta
//     worms that share an edge with worm w, s0 or more draw w's phase with
//     probability at most (e Delta / (P s0))^s0;
//   - Lemma 2 (y = d traversals of w): x or more worms delay w with probability at
//     most 2^{d/L - x}; we count the worms holding an edge w waits for, a subset of
//     the delay chains the lemma counts;
//   - Lemma 3: w's head needs 2d + Lz steps or more after its release with
//     probability at most 2^-z.
//
// One worm per run (w = seed mod n), so that the runs are independent trials; on
// Ranade's heavy problem on the 64-input butterfly (d = 6 <= log2 n: Corollary 6's
// case) and on dimension-order paths in a 12 x 12 mesh. Both satisfy section II's
// hypotheses (Theorem4.Proven).
func TestClaimSeed000Lemmas(t *testing.T) {
	runs := claimRuns(100, 600, 3000)
	for _, in := range []*model.Instance{butterflyHeavy(t), meshDimOrder(t)} {
		b, err := AlgorithmABound(in, AlgorithmA{})
		require.NoError(t, err)
		require.True(t, b.Proven, in.Name)
		ms := in.Measure()
		g := in.PathGraph()
		delta, _ := g.MaxDegree()
		n := len(in.Messages)
		d, L := ms.D, ms.LMax
		xs := []int{d/L + 1, d/L + 2, d/L + 3}
		zs := []int{1, 2, 3, 4}
		same := make([]int, 3)
		delayed := make([]int, len(xs))
		slow := make([]int, len(zs))
		for seed := range uint64(runs) {
			r, err := Run(context.Background(), in, AlgorithmA{T: ms.Holdings}, Options{Seed: seed, Arb: engine.ArbRoundRobin})
			require.NoError(t, err)
			require.Zero(t, r.Delayed.Late, "phases of all the moves cannot be late")
			w := int(seed) % n
			delay := r.Delayed.Delay
			s := 0
			for _, v := range g.Adj[w] {
				if delay[v] == delay[w] {
					s++
				}
			}
			for s0 := 1; s0 <= 3; s0++ {
				if s >= s0 {
					same[s0-1]++
				}
			}
			release := delay[w] * r.Delayed.T
			x := len(directDelayers(in, r.Schedule, w, release))
			for k, x0 := range xs {
				if x >= x0 {
					delayed[k]++
				}
			}
			c := r.Schedule.Messages[w].Cross
			h := c[len(c)-1] - release
			for k, z := range zs {
				if h >= 2*d+L*z {
					slow[k]++
				}
			}
		}
		for s0 := 1; s0 <= 3; s0++ {
			p0 := math.Pow(math.E*float64(delta)/(float64(b.Phases)*float64(s0)), float64(s0))
			checkClaim(t, fmt.Sprintf("%s: seed 000 Lemma 1, s0 = %d", in.Name, s0), runs, same[s0-1], p0)
		}
		for k, x0 := range xs {
			checkClaim(t, fmt.Sprintf("%s: seed 000 Lemma 2, x = %d", in.Name, x0), runs, delayed[k], math.Exp2(float64(d)/float64(L)-float64(x0)))
		}
		for k, z := range zs {
			checkClaim(t, fmt.Sprintf("%s: seed 000 Lemma 3, z = %d", in.Name, z), runs, slow[k], math.Exp2(-float64(z)))
		}
	}
}

// Seed 000, Theorem 4 (and Corollary 6 on the butterfly, where d <= log2 n): with
// k = 32e some worm misses its phase with probability at most n 2^-z
// (AlgorithmABound's Failure), and a run where none does ends within P T. With the
// default T (z near 2 log2 n) and with a T whose Failure is near 1/4, so that the
// claim can be told from the truth.
func TestClaimSeed000Theorem4(t *testing.T) {
	runs := claimRuns(50, 300, 2000)
	for _, in := range []*model.Instance{butterflyHeavy(t), meshDimOrder(t)} {
		ms := in.Measure()
		n := len(in.Messages)
		z := int(math.Ceil(math.Log2(4 * float64(n))))
		for _, a := range []AlgorithmA{{}, {T: 2*ms.D + ms.LMax - 2 + ms.LMax*z}} {
			b, err := AlgorithmABound(in, a)
			require.NoError(t, err)
			require.True(t, b.Proven)
			late := 0
			for seed := range uint64(runs) {
				r, err := Run(context.Background(), in, a, Options{Seed: seed, Arb: engine.ArbRoundRobin})
				require.NoError(t, err)
				if r.Delayed.Late > 0 {
					late++
				} else {
					require.LessOrEqual(t, r.Makespan, b.Bound)
				}
			}
			checkClaim(t, fmt.Sprintf("%s: seed 000 Theorem 4, T = %d (z = %.2f)", in.Name, b.T, b.Z), runs, late, b.Failure)
		}
	}
}

// Seed 000, Theorem 5: with doubling the expected makespan is at most
// DoublingBound's Expected. The first phases last T0 = d + L - 1 steps, the least in
// which a worm nobody delays is delivered, so that a run needs a second round as soon
// as one worm is delayed (with k = 32e, about one run in two here); the mean over the runs is tested by a one-sided
// z-test at claimLevel (the mean would have to exceed the bound by 3.72 standard
// errors). Every run also ends within P T0 (2^rounds - 1).
func TestClaimSeed000Theorem5(t *testing.T) {
	runs := claimRuns(50, 200, 1000)
	for _, in := range []*model.Instance{butterflyHeavy(t), meshDimOrder(t)} {
		ms := in.Measure()
		a := AlgorithmA{T: ms.D + ms.LMax - 1, Doubling: true}
		b, err := DoublingBound(in, a)
		require.NoError(t, err)
		require.True(t, b.Proven)
		var sum, sum2 float64
		rounds := 0
		for seed := range uint64(runs) {
			r, err := Run(context.Background(), in, a, Options{Seed: seed, Arb: engine.ArbRoundRobin})
			require.NoError(t, err)
			require.LessOrEqual(t, r.Makespan, DoublingMakespan(b.Phases, b.T0, r.Delayed.Rounds))
			x := float64(r.Makespan)
			sum += x
			sum2 += x * x
			rounds = max(rounds, r.Delayed.Rounds)
		}
		mean := sum / float64(runs)
		se := math.Sqrt(max(0, sum2/float64(runs)-mean*mean) / float64(runs))
		t.Logf("%s: seed 000 Theorem 5: mean makespan %.0f (standard error %.0f, up to %d rounds) against the expected bound %.0f (%.3f of it)", in.Name, mean, se, rounds, b.Expected, mean/b.Expected)
		require.Greater(t, rounds, 1, "T0 too long to test the doubling")
		require.LessOrEqual(t, mean, b.Expected+3.72*se, "Theorem 5's expectation exceeded")
	}
}

// directDelayers on a bundle of worms released together by greedy: the worm that
// goes first waits for nobody, the one that goes last waited for all the others.
func TestDirectDelayers(t *testing.T) {
	in := pairedInstance(t, 1, 4, 3)
	r, err := Run(context.Background(), in, Greedy{}, Options{})
	require.NoError(t, err)
	first, last := 0, 0
	for i := range in.Messages {
		if r.Delivered[i] < r.Delivered[first] {
			first = i
		}
		if r.Delivered[i] > r.Delivered[last] {
			last = i
		}
	}
	require.Empty(t, directDelayers(in, r.Schedule, first, 0))
	require.Len(t, directDelayers(in, r.Schedule, last, 0), 3)
}

// largestUnion on a bundle of 8 worms (a complete path graph, Delta = 7, so pieces
// of at least log2 7 = 2.8 worms count): one colour makes one union of all 8;
// colours of pairs make pieces of 2, too small; colours of quadruples make two
// pieces of 4 that join into 8.
func TestLargestUnion(t *testing.T) {
	in := pairedInstance(t, 1, 8, 1)
	g := in.PathGraph()
	require.Equal(t, 8, largestUnion(g, make([]int, 8), 7))
	require.Equal(t, 0, largestUnion(g, []int{0, 0, 1, 1, 2, 2, 3, 3}, 7))
	require.Equal(t, 8, largestUnion(g, []int{0, 0, 0, 0, 1, 1, 1, 1}, 7))
	require.Equal(t, 4, largestUnion(g, []int{0, 0, 0, 0, 1, 1, 2, 2}, 7))
}
