package online

// The phased algorithm's own bound: seed 002 (Ranade, Schleimer, Wilkerson), section
// 2.3, Theorem 1 with Lemmas 1-3.
//
// Theorem 1 states O(L (Delta log Delta + log MN) + d Delta) with high probability.
// Its proof is concrete, and PhasedBound returns what it proves:
//
//   - phase one lasts K S steps, K = max(1, ceil(alpha Delta)) colours of S = L
//     lambda + d steps each (section 2.2, "by construction"; lambda = max(1,
//     ceil(log2 Delta)) as in PhasedParams);
//   - Lemma 2: a component of P_1 (the worms left after phase one) of size u lies in
//     a connected union of monochromatic components of P_0, each of at least
//     log Delta worms, of size at least u;
//   - Lemma 3: such a union has fewer than u_0 = 2 log2 M + beta log2 N worms except
//     with probability at most N^-beta, for alpha = 128^2;
//   - Lemma 1: phase two, greedy on components of at most u_0 - 1 worms released
//     together at K S, delivers by K S + d + (u_0 - 1) L.
//
// So the makespan is at most K S + d + (ceil(u_0) - 1) L except with the probability
// Lemma 3's count gives (Lemma3Probability, computed for the actual M, Delta and K
// rather than simplified as the paper does). The paper's proof of Theorem 1 writes
// "components of size log MN" for the u_0 of Lemma 3; we keep Lemma 3's u_0 (with
// beta = 1 it is log2 M^2 N). N, the network's size in "N^-beta", is read as its
// number of nodes (an N-input butterfly has N (log N + 1)); logarithms are to base
// 2, as the proof's 2^{2 log M / u} = M^{2/u} requires.

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/model"
)

// PaperAlpha is the colour factor seed 002's proof of Lemma 3 chooses, 128^2: with
// u >= 2 log2 M it makes the base 32 2^{2 log2 M / u} / sqrt(alpha) of the union
// bound at most 1/2.
const PaperAlpha = 128 * 128

// DefaultBeta is the beta of Lemma 3's u_0 = 2 log2 M + beta log2 N that
// PhasedBound takes when given 0: a failure probability of at most 1/N at
// alpha = PaperAlpha.
const DefaultBeta = 1.0

// Theorem1 is seed 002's Theorem 1 for the phased algorithm on one instance.
type Theorem1 struct {
	Alpha, Beta float64
	// M worms, N network nodes.
	M, N int
	// The algorithm's parameters (PhasedParams): the path graph's degree Delta, K
	// colours, lambda, the sub-phase length S.
	Delta, Colours, Lambda, SubPhase int
	// PhaseOne = K S, the exact length of phase one.
	PhaseOne int
	// U0 = ceil(2 log2 M + beta log2 N): Lemma 3's size, below which every
	// component of P_1 stays with probability at least 1 - Failure.
	U0 int
	// PhaseTwo = d + (U0 - 1) L, Lemma 1 on components of fewer than U0 worms.
	PhaseTwo int
	// Bound = PhaseOne + PhaseTwo.
	Bound int
	// Failure is Lemma3Probability(M, Delta, K, U0), an upper bound on the
	// probability that the makespan exceeds Bound (1 when the count proves nothing).
	Failure float64
}

// PhasedBound returns Theorem 1 of seed 002 for the phased algorithm with colour
// factor alpha (0: DefaultAlpha) and Lemma 3's beta (0: DefaultBeta) on in, or an
// error wrapping ErrNotLevelled outside the theorem's setting. L is the largest
// length (the paper's worms all have L flits). Cost O(sum_e c_e^2 + M).
func PhasedBound(in *model.Instance, alpha, beta float64) (*Theorem1, error) {
	if err := positive("alpha", alpha); err != nil {
		return nil, err
	}
	if err := positive("beta", beta); err != nil {
		return nil, err
	}
	d, ok := fullDepth(in)
	if !ok {
		return nil, fmt.Errorf("online: Theorem 1: %w", ErrNotLevelled)
	}
	if alpha == 0 {
		alpha = DefaultAlpha
	}
	if beta == 0 {
		beta = DefaultBeta
	}
	b := &Theorem1{Alpha: alpha, Beta: beta, M: len(in.Messages), N: len(in.Net.Nodes)}
	b.Delta, b.Colours, b.Lambda, b.SubPhase = PhasedParams(in, alpha)
	b.PhaseOne = b.Colours * b.SubPhase
	b.U0 = max(1, int(math.Ceil(2*math.Log2(float64(b.M))+beta*math.Log2(float64(b.N)))))
	b.PhaseTwo = d + (b.U0-1)*in.Measure().LMax
	b.Bound = b.PhaseOne + b.PhaseTwo
	b.Failure = Lemma3Probability(b.M, b.Delta, b.Colours, b.U0)
	return b, nil
}

// Lemma3Probability bounds, as the proof of seed 002's Lemma 3 counts, the
// probability that the path graph P_0 of m worms with largest degree delta, coloured
// uniformly with k colours, has a connected union of monochromatic components, each
// of at least log2 delta worms, with u0 worms or more. A union of u worms has a
// spanning tree cut into at most j = floor(u / max(1, log2 delta)) monochromatic
// subtrees; there are at most u 4^u rooted unlabelled trees, 2^u ways to mark the
// cuts, k^j colourings of the pieces and m delta^(u-1) embeddings, each coloured tree
// occurring with probability k^-u. Summed over u = u0 .. m (the paper takes m times
// the largest term) and capped at 1:
//
//	sum_{u=u0}^{m} u 8^u k^{j(u)} m delta^{u-1} k^{-u}.
//
// The paper then bounds k^j by (2 sqrt(alpha))^u, which needs log2 delta >= 2, and
// reaches (32 2^{2 log M / u} / sqrt(alpha))^u; at alpha = 128^2 and u0 = 2 log2 M +
// beta log2 N this is at most N^-beta. Cost O(m).
func Lemma3Probability(m, delta, k, u0 int) float64 {
	if m <= 0 || u0 > m {
		return 0
	}
	u0 = max(u0, 1)
	piece := max(1, math.Log2(float64(max(delta, 1))))
	lk, lm := math.Log(float64(max(k, 1))), math.Log(float64(m))
	ld := math.Inf(-1)
	if delta > 0 {
		ld = math.Log(float64(delta))
	}
	total := 0.0
	for u := u0; u <= m; u++ {
		j := math.Floor(float64(u) / piece)
		lt := math.Log(float64(u)) + float64(u)*math.Log(8) + j*lk + lm - float64(u)*lk
		if u > 1 {
			lt += float64(u-1) * ld
		}
		total += math.Exp(lt)
		if total >= 1 {
			return 1
		}
	}
	return total
}
