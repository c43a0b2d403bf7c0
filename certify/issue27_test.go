package certify

// Issue 27's random-shortest-path meshes whose optimum was open at 20 s of CPU
// in experiments/solver-random, with a schedule found offline that meets a
// closed-form lower bound, so that the optimum is known and certified.

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
	"github.com/wormlab/wormlab/verify"
)

// The 10x10 mesh of seed 3 (gen mesh:10x10 --routing random-shortest --traffic
// random --messages 400 --flits 4 --seed 3; 398 worms): the schedule of
// testdata/issue27 is cadical's answer on wormlab's bufferless CNF of horizon 84
// (`wormlab solve --model bufferless --dimacs F --horizon 84`, then
// `--assignment`), found offline in session 4 of issue 27, where `wormlab solve
// --cpu-limit 20s` ends at 93 with the bound 84. It is legal in both models and
// meets the edge bound of 6,6->5,6 (21 worms of 4 flits, one of them at its
// first hop and one at its last), so 84 is the optimum in both, and the
// certificate written from it checks.
func TestIssue27OptimumOfMesh10Seed3(t *testing.T) {
	in := generate(t, instances.Spec{Kind: "mesh", Sides: []int{10, 10}, Routing: "random-shortest", Traffic: "random",
		Messages: 400, Flits: 4, Seed: 3})
	data, err := os.ReadFile(filepath.Join("testdata", "issue27", "mesh-10x10-400-L4-s3.schedule.json"))
	require.NoError(t, err)
	s, err := model.ParseSchedule(data)
	require.NoError(t, err)
	require.NoError(t, verify.Schedule(in, s))
	require.Equal(t, 84, s.Makespan)
	for _, m := range []string{model.Bufferless, model.Wormhole} {
		res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: m, Upper: s})
		require.NoError(t, err)
		require.True(t, res.Optimal, m)
		require.Equal(t, 84, res.Schedule.Makespan, m)
		dir := t.TempDir()
		require.NoError(t, Write(dir, in, res))
		r := mustCheck(t, dir)
		require.True(t, r.Verified, "%s: %s", m, r.Failure)
		require.Equal(t, KindBound, r.Kind, m)
	}
}
