package online

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// Seed 002, Lemma 1, as GreedyBound exports it: one bound d + sum_{i in C} L_i per
// path-graph component C (d + |C| L for equal lengths), computed here from the path
// graph and the levels; greedy's makespan is at most the largest under every policy.
// Outside the lemma's setting (paths not all from level 0 to the last level) it
// refuses.
func TestGreedyBoundIsLemma1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genLevelled(t)
		b, err := GreedyBound(in)
		require.NoError(t, err)
		lv, ok := in.Net.Levelling()
		require.True(t, ok)
		d := 0
		for _, l := range lv {
			d = max(d, l)
		}
		require.Equal(t, d, b.D)
		comps := in.PathGraph().Components()
		require.Len(t, b.Components, len(comps))
		want := 0
		for k, c := range comps {
			s := d
			for _, i := range c {
				s += in.Messages[i].L
			}
			require.Equal(t, c, b.Components[k].Worms)
			require.Equal(t, s, b.Components[k].Bound)
			want = max(want, s)
		}
		require.Equal(t, want, b.Bound)
		seed := rapid.Uint64().Draw(t, "seed")
		for _, arb := range engine.Policies() {
			r, err := Run(context.Background(), in, Greedy{}, Options{Arb: arb, Seed: seed})
			require.NoError(t, err)
			require.LessOrEqual(t, r.Makespan, b.Bound, "Lemma 1, policy %s", arb)
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		in := genAny(t)
		if _, ok := fullDepth(in); ok {
			t.Skip("levelled with full-depth paths")
		}
		_, err := GreedyBound(in)
		require.ErrorIs(t, err, ErrNotLevelled)
		_, err = PhasedBound(in, 0, 0)
		require.ErrorIs(t, err, ErrNotLevelled)
	})
}

// Seed 002, Theorem 1's proof, as PhasedBound exports it: phase one lasts exactly
// K S = ceil(alpha Delta) (L max(1, ceil(log2 Delta)) + d) steps, and by Lemma 1
// phase two ends within d + u L of it for u the largest component of P_1 (the worms
// phase one leaves), whatever the colours; so whenever u < U0 = ceil(2 log2 M +
// beta log2 N) (Lemma 3's event fails) the makespan is within the bound. All
// figures are recomputed here from the paper's definitions.
func TestPhasedBoundTheorem1(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genLevelled(t)
		alpha := rapid.SampledFrom([]float64{0, 0.1, 0.5, 2, PaperAlpha}).Draw(t, "alpha")
		beta := rapid.SampledFrom([]float64{0, 1, 2}).Draw(t, "beta")
		b, err := PhasedBound(in, alpha, beta)
		require.NoError(t, err)
		if alpha == 0 {
			alpha = 0.5
		}
		if beta == 0 {
			beta = 1
		}
		d, _ := fullDepth(in)
		L := in.Measure().LMax
		M, N := len(in.Messages), len(in.Net.Nodes)
		delta, _ := in.PathGraph().MaxDegree()
		K := max(1, int(math.Ceil(alpha*float64(delta))))
		lambda := max(1, int(math.Ceil(math.Log2(float64(max(delta, 1))))))
		S := L*lambda + d
		u0 := max(1, int(math.Ceil(2*math.Log2(float64(M))+beta*math.Log2(float64(N)))))
		require.Equal(t, []int{delta, K, lambda, S, K * S, u0}, []int{b.Delta, b.Colours, b.Lambda, b.SubPhase, b.PhaseOne, b.U0})
		require.Equal(t, K*S+d+(u0-1)*L, b.Bound)
		require.Equal(t, Lemma3Probability(M, delta, K, u0), b.Failure)

		r, err := Run(context.Background(), in, Phased{Alpha: alpha}, Options{Arb: engine.ArbRandom, Seed: rapid.Uint64().Draw(t, "seed")})
		require.NoError(t, err)
		require.Equal(t, b.PhaseOne, r.Phased.PhaseOneEnd)
		var left []int
		for i, ok := range r.Phased.PhaseOne {
			if !ok {
				left = append(left, i)
			}
		}
		u := 0
		for _, c := range components(in, left) {
			u = max(u, len(c))
		}
		require.LessOrEqual(t, r.Makespan, b.PhaseOne+d+u*L, "Lemma 1 on phase two")
		if u < b.U0 {
			require.LessOrEqual(t, r.Makespan, b.Bound)
		}
	})
}

// Seed 002, Lemma 3: the count Lemma3Probability is never above the paper's
// simplified form (32 2^{2 log2 M / u} / sqrt(alpha))^u at u = U0 when log2 Delta >= 2
// (the simplification needs it) and alpha >= 128^2, and so at most N^-beta there; it
// grows as u0 falls and as alpha falls, and says nothing (1) at alpha = 1/2 on a
// problem of the butterfly's size.
func TestLemma3Probability(t *testing.T) {
	for _, M := range []int{64, 384, 2048, 1 << 14} {
		for _, delta := range []int{4, 9, 40, 300} {
			for _, alpha := range []float64{PaperAlpha, 4 * PaperAlpha} {
				for _, beta := range []float64{1, 2} {
					N := M / 4
					u0 := int(math.Ceil(2*math.Log2(float64(M)) + beta*math.Log2(float64(N))))
					K := int(math.Ceil(alpha * float64(delta)))
					p := Lemma3Probability(M, delta, K, u0)
					paper := math.Pow(32*math.Exp2(2*math.Log2(float64(M))/float64(u0))/math.Sqrt(alpha), float64(u0))
					require.LessOrEqual(t, p, paper, "M %d Delta %d alpha %g", M, delta, alpha)
					require.LessOrEqual(t, p, math.Pow(float64(N), -beta))
					require.Greater(t, p, 0.0)
					require.LessOrEqual(t, p, Lemma3Probability(M, delta, K, u0-1))
					require.LessOrEqual(t, p, Lemma3Probability(M, delta, K/4, u0))
				}
			}
		}
	}
	require.Equal(t, 1.0, Lemma3Probability(384, 40, 20, 23))
	require.Equal(t, 0.0, Lemma3Probability(10, 3, 2, 11), "no union of 11 worms among 10")
}

// Seed 000, Theorem 4, as AlgorithmABound exports it: P = ceil(k c min(L, d))
// phases (ceil(k c L) with PerL) of T = 2d + 2 L ceil(log2 n) steps unless T is
// given; the bound is P T, Lemma 3's z is (T - L + 2 - 2d) / L and the failure
// probability min(1, n 2^-z); the theorem is proven only for k >= 32e on acyclic
// dependencies with paths meeting in at most one run. A run with no late worm ends
// within P T.
func TestAlgorithmABoundTheorem4(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in *model.Instance
		if rapid.Bool().Draw(t, "levelled") {
			in = genLevelled(t)
		} else {
			in = genAny(t)
		}
		k := rapid.SampledFrom([]float64{0, 0.05, 1, 32 * math.E, 100}).Draw(t, "k")
		T := rapid.SampledFrom([]int{0, 1, 7, 40}).Draw(t, "T")
		perL := rapid.Bool().Draw(t, "perL")
		a := AlgorithmA{K: k, T: T, PerL: perL}
		b, err := AlgorithmABound(in, a)
		require.NoError(t, err)
		ms := in.Measure()
		n := len(in.Messages)
		kk := k
		if kk == 0 {
			kk = 32 * math.E
		}
		f := min(ms.LMax, ms.D)
		if perL {
			f = ms.LMax
		}
		P := max(1, int(math.Ceil(kk*float64(ms.C)*float64(f))))
		zdef := 2 * int(math.Ceil(math.Log2(float64(max(n, 2)))))
		wantT := 2*ms.D + ms.LMax*zdef
		if T > 0 {
			wantT = T
		}
		z := float64(wantT-ms.LMax+2-2*ms.D) / float64(ms.LMax)
		require.Equal(t, []int{P, wantT, P * wantT}, []int{b.Phases, b.T, b.Bound})
		require.InDelta(t, z, b.Z, 1e-12)
		require.InDelta(t, math.Min(1, float64(n)*math.Exp2(-z)), b.Failure, 1e-12)
		proven := kk >= 32*math.E && MeetRuns(in).OneRun && in.Dependencies().Cycle() == nil
		require.Equal(t, proven, b.Proven)

		r, err := Run(context.Background(), in, a, Options{Seed: rapid.Uint64().Draw(t, "seed")})
		if err != nil {
			require.NotNil(t, in.Dependencies().Cycle(), "only cyclic dependencies deadlock")
			return
		}
		if r.Delayed.Late == 0 {
			require.LessOrEqual(t, r.Makespan, b.Bound)
		}

		d5, err := DoublingBound(in, a)
		require.NoError(t, err)
		require.GreaterOrEqual(t, d5.Expected, float64(b.Bound), "round 0 always runs")
		if float64(n)*math.Exp2(-z) < 1e-15 {
			require.InDelta(t, float64(b.Bound), d5.Expected, 1e-9*float64(b.Bound))
		}
	})
}
