package lower_test

import (
	"context"
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
// of a legal schedule (the solver's best, verified), and equal the optimum whenever
// the solver proves one. Truncation keeps every path a prefix of the original.
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
			}
		}
	}
}
