package online

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// longRuns gates the experiments: they run only without -short and with
// WORMLAB_LONG=1; WORMLAB_LONG_RUNS sets the number of seeds (default 200).
func longRuns(t *testing.T) int {
	if testing.Short() || os.Getenv("WORMLAB_LONG") != "1" {
		t.Skip("set WORMLAB_LONG=1 (without -short) to run the experiments")
	}
	if n, err := strconv.Atoi(os.Getenv("WORMLAB_LONG_RUNS")); err == nil && n > 0 {
		return n
	}
	return 200
}

func log2(x int) float64 { return math.Log2(float64(max(x, 1))) }

// Experiment: the probabilistic part of seed 002's Theorem 1 (Lemma 3) for the
// phased algorithm on Ranade's butterfly problems (N = 64 and 256 inputs, L = log N).
// Lemma 1 bounds phase two by L u + d where u is the largest component of the path
// graph P1 of the worms undelivered after phase one; Lemma 3 claims that with
// alpha = 128^2 the probability that u >= 2 log2 M + beta log2 N is below N^-beta.
// We report, with beta = 1, the fraction of runs whose u exceeds that threshold, and
// the fraction whose phase two (the makespan minus the end of phase one) exceeds
// L (2 log2 M + log2 N) + d, for the paper's alpha and for practical ones.
func TestExperimentPhasedTheorem1(t *testing.T) {
	runs := longRuns(t)
	for _, pb := range []struct {
		n       int
		traffic string
	}{{64, "light"}, {64, "heavy"}, {256, "heavy"}} {
		traffic := pb.traffic
		in, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: pb.n, Traffic: traffic, Seed: 1})
		require.NoError(t, err)
		M, N := len(in.Messages), pb.n
		d, _ := fullDepth(in)
		L := in.Messages[0].L
		thresh := 2*log2(M) + log2(N)
		for _, alpha := range []float64{0.125, 0.25, 0.5, 1, 2, 128 * 128} {
			overU, overT, undel := 0, 0, 0
			var ratio float64
			for s := 0; s < runs; s++ {
				r, err := Run(context.Background(), in, Phased{Alpha: alpha}, Options{Seed: uint64(s), Arb: engine.ArbRandom})
				require.NoError(t, err)
				checkLegal(t, in, r)
				p := r.Phased
				var left []int
				for i := range in.Messages {
					if !p.PhaseOne[i] {
						left = append(left, i)
					}
				}
				undel += len(left)
				u := 0
				for _, c := range components(in, left) {
					u = max(u, len(c))
				}
				if float64(u) >= thresh {
					overU++
				}
				if float64(r.Makespan-p.PhaseOneEnd) > float64(L)*thresh+float64(d) {
					overT++
				}
				ratio += float64(r.Makespan) / float64(r.LowerBound)
			}
			t.Logf("phased %s M=%d N=%d L=%d alpha=%g: P[u >= 2log2M+log2N=%.1f] = %d/%d, P[phase two > L(2log2M+log2N)+d] = %d/%d, worms left after phase one %.2f%%, makespan/LB mean %.2f",
				traffic, M, N, L, alpha, thresh, overU, runs, overT, runs, 100*float64(undel)/float64(runs*M), ratio/float64(runs))
		}
	}
}

// Experiment: Algorithm A (seed 000, Theorem 4 and Lemma 3) with ceil(k c min(L, d)) phases
// of length T = 2d + L z: the fraction of worms not delivered within the phase they
// start in, for k = 32e (the paper's) and smaller k, z = 1, 2, 4 and the default
// z = 2 ceil(log2 n),
// on a butterfly (N = 64, Ranade's heavy problem) and on a 12 x 12 mesh (random
// traffic, dimension-order paths, L = 8; such paths meet in at most one run).
func TestExperimentAlgorithmA(t *testing.T) {
	runs := longRuns(t)
	bf, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 64, Traffic: "heavy", Seed: 1})
	require.NoError(t, err)
	mesh, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{12, 12}, Traffic: "random", Messages: 288, Flits: 8, Seed: 1})
	require.NoError(t, err)
	for _, in := range []*model.Instance{bf, mesh} {
		ms := in.Measure()
		n := len(in.Messages)
		zdef := 2 * ceilLog2(max(n, 2))
		meet := MeetRuns(in)
		for _, k := range []float64{DefaultK, 1, 0.25, 0.05} {
			for _, z := range []int{1, 2, 4, zdef} {
				T := 2*ms.D + ms.LMax*z
				late, runsLate := 0, 0
				for s := 0; s < runs; s++ {
					r, err := Run(context.Background(), in, AlgorithmA{K: k, T: T}, Options{Seed: uint64(s), Arb: engine.ArbRoundRobin})
					require.NoError(t, err)
					checkLegal(t, in, r)
					late += r.Delayed.Late
					if r.Delayed.Late > 0 {
						runsLate++
					}
				}
				t.Logf("algorithm A %s n=%d c=%d d=%d L=%d one-run=%v: k=%.3g, T=2d+Lz z=%d (T=%d): late worms %d/%d (%.2e), runs with a late worm %d/%d",
					in.Name, n, ms.C, ms.D, ms.LMax, meet.OneRun, k, z, T, late, runs*n, float64(late)/float64(runs*n), runsLate, runs)
			}
		}
	}
}

// Experiment: greedy against the lower bound, every policy, and store-and-forward,
// on the shipped-size butterfly and mesh problems: mean and 95% interval of
// makespan / lower bound.
func TestExperimentGreedyRatio(t *testing.T) {
	runs := longRuns(t)
	bf, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 64, Traffic: "heavy", Seed: 1})
	require.NoError(t, err)
	mesh, err := instances.Generate(instances.Spec{Kind: "mesh", Sides: []int{12, 12}, Traffic: "random", Messages: 288, Flits: 8, Seed: 1})
	require.NoError(t, err)
	for _, in := range []*model.Instance{bf, mesh} {
		for _, algo := range []Algorithm{Greedy{}, StoreForward{}} {
			for _, arb := range engine.Policies() {
				s, err := Trials(context.Background(), in, algo, Options{Arb: arb}, runs)
				require.NoError(t, err)
				t.Logf("%s %s %s: makespan/LB mean %.3f [%.3f, %.3f] (LB %d)", in.Name, algo.Name(), arb, s.Ratio.Mean, s.Ratio.Lo, s.Ratio.Hi, s.LowerBound)
			}
		}
	}
}
