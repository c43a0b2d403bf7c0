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

// The schedules of testdata/issue27 are cadical's answers on wormlab's
// bufferless CNF at the instance's flit-congestion bound (`wormlab solve
// --model bufferless --dimacs F --horizon T`, then `--assignment`), found
// offline in session 4 of issue 27, where `wormlab solve --cpu-limit 20s` ends
// above the bound. Each is legal in both models and meets the edge bound of its
// instance's most loaded edge, so that bound is the optimum in both, and the
// certificate written from it checks.
//   - the 10x10 mesh of seed 3 (gen mesh:10x10 --routing random-shortest
//     --traffic random --messages 400 --flits 4 --seed 3; 398 worms): 84, the
//     edge bound of 6,6->5,6 (21 worms of 4 flits, one of them at its first hop
//     and one at its last); solve at 20 s: 93.
func TestIssue27Optima(t *testing.T) {
	for _, c := range []struct {
		file     string
		spec     instances.Spec
		makespan int
	}{
		{"mesh-10x10-400-L4-s3", instances.Spec{Kind: "mesh", Sides: []int{10, 10}, Routing: "random-shortest",
			Traffic: "random", Messages: 400, Flits: 4, Seed: 3}, 84},
	} {
		in := generate(t, c.spec)
		data, err := os.ReadFile(filepath.Join("testdata", "issue27", c.file+".schedule.json"))
		require.NoError(t, err)
		s, err := model.ParseSchedule(data)
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, s), c.file)
		require.Equal(t, c.makespan, s.Makespan, c.file)
		for _, m := range []string{model.Bufferless, model.Wormhole} {
			res, err := optimal.Solve(context.Background(), in, optimal.Options{Model: m, Upper: s})
			require.NoError(t, err)
			require.True(t, res.Optimal, "%s %s", c.file, m)
			require.Equal(t, c.makespan, res.Schedule.Makespan, "%s %s", c.file, m)
			dir := t.TempDir()
			require.NoError(t, Write(dir, in, res))
			r := mustCheck(t, dir)
			require.True(t, r.Verified, "%s %s: %s", c.file, m, r.Failure)
			require.Equal(t, KindBound, r.Kind, "%s %s", c.file, m)
		}
	}
}
