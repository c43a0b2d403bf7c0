package online

// The random parts of the online algorithms tested as such, and their default
// constants pinned to the papers' definitions: seed 002, section 2.2 (colours
// uniform over {1 .. alpha Delta}) and the proof of Lemma 3 (alpha = 128^2); seed
// 000, section II (Algorithm A's delays uniform over [0, P - 1], P = k c min(L, d),
// k = 32e, T = 2d + L z) and section B.2 (random delays uniform over [0, R - 1]).
//
// Every statistical test here runs at level 1e-4 on fixed seeds: a correct
// implementation fails it for a given choice of seeds with probability at most
// 1e-4 (the false-alarm rate); the twelve tests of this file together at most
// 1.2e-3 (a union bound). With fixed seeds each test is deterministic.

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/internal/stattest"
	"github.com/wormlab/wormlab/model"
)

// level is the false-alarm rate of each statistical test of the package.
const level = 1e-4

// pairedInstance returns an instance of `edges` disjoint edges with `per` worms of L
// flits on each: c = per, d = 1, and no two edges interact.
func pairedInstance(t *testing.T, edges, per, L int) *model.Instance {
	net := &model.Network{}
	in := &model.Instance{Name: fmt.Sprintf("paired-%dx%d", edges, per), Net: net, Flits: L}
	for e := range edges {
		a := net.AddNode(fmt.Sprintf("a%d", e))
		b := net.AddNode(fmt.Sprintf("b%d", e))
		ed := net.AddEdge(a, b)
		for j := range per {
			in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d-%d", e, j), Path: []int{ed}, L: L})
		}
	}
	require.NoError(t, in.Validate())
	return in
}

// ceilLog2Of is the smallest j with 2^j >= x (x >= 1), computed by doubling.
func ceilLog2Of(x int) int {
	j := 0
	for 1<<j < x {
		j++
	}
	return j
}

// The default constants, each computed from the paper's definition:
//
//   - seed 000, Lemma 2 / Theorem 5: k = 32e, the k for which Lemma 1's binomial
//     tail (e mu / s)^s, with mu = c L / (k c L) = 1/k worms of a phase among the
//     c L that can block L traversals, is (1 / (32 s))^s;
//   - seed 000, Theorem 4: z is the smallest even number 2j with 2^j >= n, so that a
//     worm misses its phase with probability 2^-z <= 1/n^2 and some worm with at
//     most 1/n (the union bound); T = 2d + L z, P = ceil(k c min(L, d));
//   - seed 002, Lemma 3: alpha = 128^2, the smallest alpha for which the base
//     32 2^{2 log2 M / u} / sqrt(alpha) of the union bound is at most 1/2 for every
//     u >= 2 log2 M (the largest base is at u = 2 log2 M: 64 / sqrt(alpha));
//   - the phased algorithm's default alpha = 1/2 is not the paper's but measured
//     (doc.go, TestExperimentPhasedTheorem1); with it K = ceil(Delta / 2) colours
//     of S = L max(1, ceil(log2 Delta)) + d steps.
//
// The runs of the default algorithms use exactly these values.
func TestConstantsFromThePapers(t *testing.T) {
	e := math.Exp(1)
	k := e / (1.0 / 32) // e mu / s = 1/32 at s = 1, mu = 1/k
	require.InDelta(t, k, DefaultK, 1e-12)
	alpha := math.Pow(32*2/0.5, 2) // 32 2^{2 log M / (2 log M)} / sqrt(alpha) = 1/2
	require.Equal(t, alpha, float64(PaperAlpha))
	require.Equal(t, 0.5, DefaultAlpha)

	bf, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 16, Traffic: "heavy", Seed: 3})
	require.NoError(t, err)
	mesh, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{5, 5}, Traffic: "random", Messages: 30, Flits: 7, Seed: 3})
	require.NoError(t, err)
	ex, _ := fixture.Example(t)
	for _, in := range []*model.Instance{bf, mesh, ex, pairedInstance(t, 3, 5, 2)} {
		ms := in.Measure()
		n := len(in.Messages)
		z := 2 * ceilLog2Of(max(n, 2))
		require.LessOrEqual(t, float64(n)*math.Exp2(-float64(z)), 1/float64(n), "n 2^-z <= 1/n")
		P := int(math.Ceil(32 * e * float64(ms.C) * float64(min(ms.LMax, ms.D))))
		r, err := Run(context.Background(), in, AlgorithmA{}, Options{Seed: 1})
		require.NoError(t, err, in.Name)
		require.Equal(t, P, r.Delayed.Phases, "%s: P = ceil(32e c min(L, d))", in.Name)
		require.Equal(t, 2*ms.D+ms.LMax*z, r.Delayed.T, "%s: T = 2d + L z", in.Name)
		require.InDelta(t, 32*e, r.Delayed.K, 1e-12)

		delta, _ := in.PathGraph().MaxDegree()
		p, err := Run(context.Background(), in, Phased{}, Options{Seed: 1})
		require.NoError(t, err, in.Name)
		require.Equal(t, max(1, (delta+1)/2), p.Phased.Colours, "%s: K = ceil(Delta / 2)", in.Name)
		require.Equal(t, ms.LMax*max(1, ceilLog2Of(max(delta, 1)))+ms.D, p.Phased.SubPhase, "%s: S = L lambda + d", in.Name)
	}
}

// Seed 002, section 2.2: "each message picks a colour at random from
// {1 .. alpha Delta}": over 40 seeds of Ranade's heavy problem on a 16-input
// butterfly the colours are uniform over the K = ceil(alpha Delta) colours (chi-square)
// and independent between worms (disjoint pairs of worms agree no more often than
// 1/K), for the default alpha and for alpha = 2.
func TestPhasedColoursUniform(t *testing.T) {
	in, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 16, Traffic: "heavy", Seed: 5})
	require.NoError(t, err)
	delta, _ := in.PathGraph().MaxDegree()
	require.GreaterOrEqual(t, delta, 8, "enough colours to tell")
	for _, alpha := range []float64{0, 2} {
		a := alpha
		if a == 0 {
			a = 0.5
		}
		K := int(math.Ceil(a * float64(delta)))
		counts := make([]int, K)
		same, pairs := 0, 0
		for seed := range uint64(40) {
			r, err := Run(context.Background(), in, Phased{Alpha: alpha}, Options{Seed: seed})
			require.NoError(t, err)
			col := r.Phased.Colour
			for _, c := range col {
				require.True(t, c >= 0 && c < K, "colour %d of %d", c, K)
				counts[c]++
			}
			for i := 0; i+1 < len(col); i += 2 {
				pairs++
				if col[i] == col[i+1] {
					same++
				}
			}
		}
		u := stattest.UniformChiSquare(counts)
		require.GreaterOrEqual(t, u.Expected, 5.0)
		require.Greater(t, u.P, level, "alpha %g, K = %d: colours not uniform: %v", a, K, u)
		b := stattest.EventAtMost(pairs, same, 1/float64(K))
		require.Greater(t, b.PValue, level, "alpha %g: two worms share a colour too often: %v", a, b)
	}
}

// Seed 000, Algorithm A: "assign each packet an integral delay randomly and
// uniformly from the interval [0, P - 1]": on 20 edges with 2 worms each (c = 2,
// d = L = 1: P = ceil(2k)) the delays are uniform over all P values (chi-square),
// for the default k = 32e and for k = 3 with L = 4 > d (P = ceil(k c d)) and with
// PerL (P = ceil(k c L)); disjoint pairs of worms agree no more often than 1/P.
func TestAlgorithmADelaysUniform(t *testing.T) {
	for _, c := range []struct {
		a    AlgorithmA
		L    int
		want int
		runs int
	}{
		{AlgorithmA{}, 1, int(math.Ceil(32 * math.E * 2)), 40},
		{AlgorithmA{K: 3}, 4, 6, 10},
		{AlgorithmA{K: 3, PerL: true}, 4, 24, 10},
	} {
		in := pairedInstance(t, 20, 2, c.L)
		counts := make([]int, c.want)
		same, pairs := 0, 0
		for seed := range uint64(c.runs) {
			r, err := Run(context.Background(), in, c.a, Options{Seed: seed})
			require.NoError(t, err)
			require.Equal(t, c.want, r.Delayed.Phases)
			dl := r.Delayed.Delay
			for i, x := range dl {
				require.True(t, x >= 0 && x < c.want, "delay %d of %d", x, c.want)
				counts[x]++
				require.Greater(t, r.Schedule.Messages[i].Cross[0], x*r.Delayed.T, "released at delta T")
			}
			for i := 0; i+1 < len(dl); i += 2 {
				pairs++
				if dl[i] == dl[i+1] {
					same++
				}
			}
		}
		u := stattest.UniformChiSquare(counts)
		require.GreaterOrEqual(t, u.Expected, 5.0)
		require.Greater(t, u.P, level, "%+v: delays not uniform over [0, %d]: %v", c.a, c.want-1, u)
		b := stattest.EventAtMost(pairs, same, 1/float64(c.want))
		require.Greater(t, b.PValue, level, "%+v: two worms share a delay too often: %v", c.a, b)
	}
}

// Seed 000, section B.2: the random-delay variant releases worm i at x_i Unit with
// x_i uniform over [0, R - 1] (default R = c, Unit = L), and store-and-forward at
// x_i with x_i uniform over [0, R - 1]: on disjoint edges (no contention, so a
// worm's first hop is at its release + 1) the draws are uniform.
func TestRandomDelaysUniform(t *testing.T) {
	in := pairedInstance(t, 25, 8, 3) // c = 8
	counts := make([]int, 8)
	for seed := range uint64(10) {
		r, err := Run(context.Background(), in, RandomDelay{}, Options{Seed: seed})
		require.NoError(t, err)
		require.Equal(t, []int{8, 3}, []int{r.Delayed.R, r.Delayed.Unit})
		for i, x := range r.Delayed.Delay {
			require.True(t, x >= 0 && x < 8)
			counts[x]++
			require.Greater(t, r.Schedule.Messages[i].Cross[0], x*3)
		}
	}
	u := stattest.UniformChiSquare(counts)
	require.Greater(t, u.P, level, "delayed-random: %v", u)

	single := pairedInstance(t, 200, 1, 2)
	counts = make([]int, 6)
	for seed := range uint64(2) {
		r, err := Run(context.Background(), single, StoreForward{R: 6}, Options{Seed: seed})
		require.NoError(t, err)
		for i := range single.Messages {
			x := r.Schedule.Messages[i].Cross[0] - 1
			require.True(t, x >= 0 && x < 6, "store: first hop at %d", x+1)
			counts[x]++
		}
	}
	u = stattest.UniformChiSquare(counts)
	require.Greater(t, u.P, level, "store: %v", u)
}
