package online

// Algorithm A's own bounds: seed 000 (Greenberg, Oh, "Universal wormhole routing"),
// section II, Lemma 3, Theorems 4 and 5, Corollary 6.
//
// The extracted text lost the formulas; they are reconstructed here from what the
// proofs still say, and the reading is the one delayed.go runs:
//
//   - Lemma 2 (reconstructed): with k >= 32e, the probability that x worms delay a
//     set of y head traversals of one phase is at most 2^{y/L - x}. Lemma 3: a worm
//     whose head needs 2d + Lz steps after its release was delayed by d/L + z worms
//     (each delays it at most L steps), so that probability is at most
//     2^{d/L - (d/L + z)} = 2^-z.
//   - Theorem 4: P = ceil(k c min(L, d)) phases of T = 2d + Lz steps, z = 2 log2 n for
//     n worms: a worm misses its phase with probability O(1/n^2), some worm with
//     O(1/n), and otherwise the run ends by P T: O(c d L + c L^2 log n) when L <= d,
//     O(c d L log n) when d < L ("the P T form"). Corollary 6 is the case d <= log n,
//     where P T = O(c L min(L, d) log n).
//   - Theorem 5: rounds with T doubling (Doubling); its expected time is the sum over
//     rounds of P T_r times the probability that round r runs.
//
// A phase of T steps holds a worm released at its start until its tail is delivered,
// L - 1 steps after its head arrives: the worm is late only if its head needs at
// least T - L + 2 steps, which is Lemma 3's event for z = (T - L + 2 - 2d) / L.

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/model"
)

// Theorem4 is seed 000's Theorem 4 for Algorithm A (without doubling) on one
// instance.
type Theorem4 struct {
	K    float64
	PerL bool
	// Phases = P = ceil(K c min(L, d)) (ceil(K c L) with PerL), T the phase length
	// (the algorithm's default 2d + 2 L ceil(log2 max(n, 2)) unless given).
	Phases, T int
	// Z = (T - L + 2 - 2d) / L: a worm misses its phase only if its head needs
	// 2d + L Z steps, which Lemma 3 bounds by 2^-Z.
	Z float64
	// Bound = Phases T: the makespan when every worm is delivered in its phase.
	Bound int
	// Failure = min(1, n 2^-Z): the union bound over the n worms on the probability
	// that some worm misses its phase, and so that the makespan exceeds Bound.
	Failure float64
	// Proven says the theorem's hypotheses hold: K >= 32e (Lemma 2's induction), the
	// channel dependency graph is acyclic and any two paths meet in at most one
	// contiguous run of edges (section II). Without them Bound and Failure are the
	// formulas' values, not a proof.
	Proven bool
}

// AlgorithmABound returns Theorem 4 of seed 000 for a (its K, T and PerL; Doubling
// is ignored) on in. Cost O(sum_e c_e^2) (the meeting check and the dependency
// graph).
func AlgorithmABound(in *model.Instance, a AlgorithmA) (*Theorem4, error) {
	if err := a.check(); err != nil {
		return nil, err
	}
	if len(in.Messages) == 0 {
		return nil, fmt.Errorf("online: Theorem 4: no worms")
	}
	k := a.K
	if k == 0 {
		k = DefaultK
	}
	b := &Theorem4{K: k, PerL: a.PerL}
	b.Phases, b.T = AlgorithmAParams(in, k, a.PerL)
	if a.T > 0 {
		b.T = a.T
	}
	if err := fitsClock("delayed-greedy: phases * T", b.Phases, b.T); err != nil {
		return nil, err
	}
	ms := in.Measure()
	b.Z = lemma3Z(b.T, ms.D, ms.LMax)
	b.Bound = b.Phases * b.T
	b.Failure = math.Min(1, float64(len(in.Messages))*math.Exp2(-b.Z))
	b.Proven = k >= DefaultK && MeetRuns(in).OneRun && in.Dependencies().Cycle() == nil
	return b, nil
}

// lemma3Z returns the z of Lemma 3 for phases of t steps: a worm is late only if its
// head needs t - L + 2 = 2d + L z steps or more.
func lemma3Z(t, d, l int) float64 {
	return float64(t-l+2-2*d) / float64(l)
}

// Theorem5 is seed 000's Theorem 5 for Algorithm A with doubling on one instance.
type Theorem5 struct {
	K    float64
	PerL bool
	// Phases P and the first round's phase length T0.
	Phases, T0 int
	// Expected bounds the expected makespan: the sum over rounds r = 0, 1, ... of
	// P T_r q_r, with T_r = 2^r T0, q_0 = 1 and q_r = min(q_{r-1}, n 2^-z_{r-1})
	// the probability that round r runs (some worm missed its phase in round r - 1;
	// z_r is Lemma 3's z for T_r).
	Expected float64
	// Rounds is the number of rounds the sum counted before its terms fell below
	// 1e-12 of the total.
	Rounds int
	// Proven: the hypotheses of Theorem4.Proven.
	Proven bool
}

// DoublingBound returns Theorem 5 of seed 000 for a (K, T as the first round's phase
// length, PerL) on in. With r rounds the makespan is at most P T0 (2^r - 1) whatever
// happens (DoublingMakespan); Expected is the proof's bound on its expectation.
func DoublingBound(in *model.Instance, a AlgorithmA) (*Theorem5, error) {
	t4, err := AlgorithmABound(in, a)
	if err != nil {
		return nil, err
	}
	b := &Theorem5{K: t4.K, PerL: t4.PerL, Phases: t4.Phases, T0: t4.T, Proven: t4.Proven}
	ms := in.Measure()
	n := float64(len(in.Messages))
	q := 1.0
	t := float64(b.T0)
	for r := 0; r < 62; r++ {
		term := float64(b.Phases) * t * q
		b.Expected += term
		b.Rounds = r + 1
		z := (t - float64(ms.LMax) + 2 - 2*float64(ms.D)) / float64(ms.LMax)
		q = math.Min(q, n*math.Exp2(-z))
		if float64(b.Phases)*2*t*q < 1e-12*b.Expected {
			break
		}
		t *= 2
	}
	return b, nil
}

// DoublingMakespan returns P T0 (2^rounds - 1), the makespan bound of Algorithm A
// with doubling after the given number of rounds (phases of T0, 2 T0, ...).
func DoublingMakespan(phases, t0, rounds int) int {
	return phases * t0 * (1<<rounds - 1)
}
