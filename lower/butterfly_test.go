package lower_test

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// Seed 002, Lemma 4 and Theorem 2 in the exact form of lower.Butterfly: the phase
// bounds chi(P_l) L + n - 1 >= ceil(M / alpha) L + n - 1 never exceed the makespan
// of a legal schedule (the solver's best, verified), and on these problems (L = log
// N) the first equals the optimum whenever the solver proves one (asserted; the
// second falls below it on most of them). Truncation keeps every path a prefix of
// the original.
func TestButterflyPhaseBoundBelowSchedules(t *testing.T) {
	ns := []int{8, 16}
	if !testing.Short() && os.Getenv("WORMLAB_LONG") != "" {
		ns = append(ns, 32, 64)
	}
	for _, n := range ns {
		for _, load := range []string{"light", "heavy"} {
			for seed := uint64(1); seed <= 3; seed++ {
				in, err := lower.ButterflyProblem(n, load, 0, seed)
				require.NoError(t, err)
				row, err := lower.Butterfly(in, lower.DefaultBudget)
				require.NoError(t, err)
				require.LessOrEqual(t, row.BoundAlpha, row.BoundChi)
				require.LessOrEqual(t, row.AlphaFound, row.Alpha)
				tr := lower.Truncate(in, row.Trunc)
				for i := range tr.Messages {
					require.Equal(t, in.Messages[i].Path[:row.Trunc], tr.Messages[i].Path)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				res, err := optimal.Solve(ctx, in, optimal.Options{Model: model.Wormhole})
				cancel()
				require.NoError(t, err)
				require.NoError(t, verify.Schedule(in, res.Schedule))
				assert.LessOrEqual(t, row.BoundChi, res.Schedule.Makespan, "N=%d %s seed %d", n, load, seed)
				assert.LessOrEqual(t, row.Best, res.Schedule.Makespan, "N=%d %s seed %d", n, load, seed)
				if res.Optimal {
					assert.Equal(t, res.Schedule.Makespan, row.BoundChi, "N=%d %s seed %d: the phase bound is not the optimum", n, load, seed)
				}
				t.Logf("N=%d %s seed %d: chi L + n - 1 = %d, ceil(M/alpha) L + n - 1 = %d, optimum %d (proven %v)", n, load, seed, row.BoundChi, row.BoundAlpha, res.Schedule.Makespan, res.Optimal)
			}
		}
	}
}

// Seed 002, Definition 2 and Theorem 2: the truncated butterfly keeps the first
// l = min(L, log N) levels. For L below, at and above log N, lower.Butterfly
// truncates there: l is computed here from N and L, the truncated path graph's
// degree from the nodes' levels (a worm uses the edges leaving levels 0 .. l - 1)
// and the paper's figures L l log N / (8 log^2 log N) and B = 8 N log^2 log N / l
// from l. For L < log N the truncated and the full path graphs differ on these
// problems, so truncating to log N levels would fail here.
func TestButterflyTruncation(t *testing.T) {
	differ := 0
	for _, n := range []int{8, 16, 32} {
		logN := 0
		for 1<<logN < n {
			logN++
		}
		for _, L := range []int{1, 2, logN - 1, logN, logN + 2} {
			for _, load := range []string{"light", "heavy"} {
				in, err := lower.ButterflyProblem(n, load, L, 7)
				require.NoError(t, err)
				row, err := lower.Butterfly(in, lower.DefaultBudget)
				require.NoError(t, err)
				l := min(L, logN)
				require.Equal(t, l, row.Trunc, "N=%d L=%d", n, L)
				lv, ok, err := in.Net.Levels()
				require.NoError(t, err)
				require.True(t, ok)
				degree := func(levels int) int {
					users := map[int]map[int]bool{}
					for i := range in.Messages {
						for _, e := range in.Messages[i].Path {
							if lv[in.Net.Edges[e].From] < levels {
								if users[e] == nil {
									users[e] = map[int]bool{}
								}
								users[e][i] = true
							}
						}
					}
					nb := make([]map[int]bool, len(in.Messages))
					for _, us := range users {
						for i := range us {
							for j := range us {
								if i != j {
									if nb[i] == nil {
										nb[i] = map[int]bool{}
									}
									nb[i][j] = true
								}
							}
						}
					}
					d := 0
					for _, s := range nb {
						d = max(d, len(s))
					}
					return d
				}
				require.Equal(t, degree(l), row.DeltaTrunc, "N=%d L=%d %s: degree of the truncated path graph", n, L, load)
				if degree(l) != degree(logN) {
					differ++
				}
				ll := math.Log2(float64(logN))
				require.InDelta(t, float64(L*l*logN)/(8*ll*ll), row.Theorem, 1e-9)
				require.InDelta(t, 8*float64(n)*ll*ll/float64(l), row.PaperB, 1e-9)
			}
		}
	}
	require.Greater(t, differ, 0, "no problem tells truncation at min(L, log N) from truncation at log N")
}

// ButterflyProblem refuses a traffic other than light and heavy, naming the value
// and no command-line flag: the caller names its own (wormlab lower butterfly
// names --traffic, where this message once named --load, its deprecated spelling).
func TestButterflyProblemUnknownTraffic(t *testing.T) {
	_, err := lower.ButterflyProblem(8, "medium", 0, 1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"medium" is neither light nor heavy`)
	assert.NotContains(t, err.Error(), "--")
}
