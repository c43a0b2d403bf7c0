package lower_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// Seed 002, section 5, on the smallest prime (p = 2, L = 2p + 1 = 5), solved to
// optimality by SAT in both models. The paper's instance routes in c_L + d - 1 = 13
// (its claimed p^2 L = 20 is false); the repaired one needs exactly
// p^2 L + 2p = 24 (= the aligned-clique bound), against c_L + d = 15 and
// c_L d = 50. The solver runs without its own clique bound, so for the repaired
// instance the optimum is proven by SAT (a horizon one step shorter unsatisfiable),
// independently of the aligned-clique argument. Same for p = 3 (L = 7): 26 and 69.
func TestPrimeSolverOptimum(t *testing.T) {
	for _, tc := range []struct {
		p        int
		repaired bool
		want     int
	}{{2, false, 13}, {2, true, 24}, {3, false, 26}, {3, true, 69}} {
		in, err := lower.Prime(tc.p, 2*tc.p+1, tc.repaired)
		require.NoError(t, err)
		for _, m := range []string{model.Wormhole, model.Bufferless} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, err := optimal.Solve(ctx, in, optimal.Options{Model: m, NoClique: true})
			cancel()
			require.NoError(t, err)
			require.True(t, res.Optimal, "repaired=%v %s", tc.repaired, m)
			require.NoError(t, verify.Schedule(in, res.Schedule))
			assert.Equal(t, tc.want, res.Schedule.Makespan, "repaired=%v %s", tc.repaired, m)
			assert.Equal(t, tc.want, lower.Best(in).Value, "the bound is tight")
			if tc.repaired {
				assert.GreaterOrEqual(t, res.Stats.Unsat, 1, "proven by an unsatisfiable horizon")
			}
		}
	}
}
