package online

// Two bounds pinned to hand-made or exact computations from the papers' counts, so
// that a changed factor fails a test (the property tests above compare them only
// with looser forms: dropping Lemma 3's m root embeddings, or tripling instead of
// doubling Theorem 5's phase length, passed them).

import (
	"context"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// lemma3Exact is seed 002's Lemma 3 count in exact rational arithmetic, item by
// item as the proof lists them, summed over u = u0 .. m (the proof's item 1, "at
// most M ways to fix u"): (2) u 4^u rooted unlabelled trees of u nodes, (3) 2^u
// markings of the chromatic boundaries, (4) K^j colourings of the j pieces, where a
// piece holds at least log2 Delta worms (at least 1), so j is the largest with
// j log2 Delta <= u, that is Delta^j <= 2^u, (5) m Delta^(u-1) embeddings (the root
// anywhere, every other node beside its parent; none when Delta = 0 and u > 1),
// each coloured tree arising with probability K^-u. Capped at 1.
func lemma3Exact(m, delta, k, u0 int) float64 {
	sum := new(big.Rat)
	one := big.NewRat(1, 1)
	bi := func(x int) *big.Int { return big.NewInt(int64(x)) }
	pow := func(b, e int) *big.Int { return new(big.Int).Exp(bi(b), bi(e), nil) }
	for u := max(u0, 1); u <= m; u++ {
		j := u // pieces of at least one worm when log2 Delta <= 1
		if delta > 2 {
			j = 0
			for pow(delta, j+1).Cmp(pow(2, u)) <= 0 {
				j++
			}
		}
		num := new(big.Int).Mul(bi(u), pow(4, u))
		num.Mul(num, pow(2, u))
		num.Mul(num, pow(k, j))
		num.Mul(num, bi(m))
		num.Mul(num, pow(delta, u-1)) // 0^0 = 1: a lone worm
		sum.Add(sum, new(big.Rat).SetFrac(num, pow(k, u)))
		if sum.Cmp(one) >= 0 {
			return 1
		}
	}
	f, _ := sum.Float64()
	return f
}

// Seed 002, Lemma 3's count: Lemma3Probability is the proof's sum, term by term,
// on small problems with few and many colours (against lemma3Exact, to 1e-9
// relative), including where a piece is one worm (Delta <= 2) and where the count
// reaches 1.
func TestLemma3ProbabilityIsTheCount(t *testing.T) {
	checked, below := 0, 0
	for _, m := range []int{1, 5, 12, 40} {
		for _, delta := range []int{0, 1, 2, 3, 4, 7, 8, 20} {
			for _, k := range []int{1, 3, 64, 1000, 16384 * max(delta, 1)} {
				for _, u0 := range []int{1, 2, 5, 12, m} {
					got := Lemma3Probability(m, delta, k, u0)
					want := 0.0
					if u0 <= m {
						want = lemma3Exact(m, delta, k, u0)
					}
					require.InDelta(t, want, got, 1e-9*want, "m %d Delta %d K %d u0 %d", m, delta, k, u0)
					checked++
					if want > 0 && want < 1 {
						below++
					}
				}
			}
		}
	}
	t.Logf("%d cases, %d of them strictly between 0 and 1", checked, below)
	require.Greater(t, below, 50, "cases where the count says something")
}

// Seed 000, Theorem 5 on a case worked by hand: two worms of one flit on two
// separate edges (n = 2, c = d = L = 1), k = 32e, so P = ceil(32e) = 87 phases,
// first rounds of T0 = 1 step. Round r has phases of T_r = 2^r steps and Lemma 3's
// z_r = (T_r - L + 2 - 2d) / L = 2^r - 1; it runs with probability at most q_r =
// min(q_{r-1}, n 2^-z_{r-1}), q_0 = 1:
//
//	r      0  1  2    3     4      5      6
//	T_r    1  2  4    8    16     32     64
//	z_r    0  1  3    7    15     31     63
//	q_r    1  1  1  1/4  1/64  2^-14  2^-30
//
// so the expected makespan is at most P (1 + 2 + 4 + 8/4 + 16/64 + 32 2^-14 + 64
// 2^-30 + ...) = 87 (9.25 + 2^-9 + 2^-24 + ...), the rest below 1e-12 of it. The
// runs themselves end in the first round (nothing delays a worm): within P T0.
func TestDoublingBoundByHand(t *testing.T) {
	in := pairedInstance(t, 2, 1, 1)
	a := AlgorithmA{T: 1, Doubling: true}
	b, err := DoublingBound(in, a)
	require.NoError(t, err)
	require.Equal(t, []int{87, 1}, []int{b.Phases, b.T0})
	want := 87 * (1 + 2 + 4 + 2 + 0.25 + math.Exp2(-9) + math.Exp2(-24))
	require.InDelta(t, want, b.Expected, 1e-9)
	require.Equal(t, 7, b.Rounds)
	require.True(t, b.Proven)
	r, err := Run(context.Background(), in, a, Options{Seed: 1})
	require.NoError(t, err)
	require.Equal(t, 1, r.Delayed.Rounds)
	require.LessOrEqual(t, r.Makespan, DoublingMakespan(b.Phases, b.T0, 1))
}
