package offline

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// FuzzColor colours instances parsed from the fuzz bytes under every order and
// checks each result: the schedule is bufferless and legal (verify.Schedule), its
// makespan is at most the bound the construction proves (section 4.5) and at least
// the instance's lower bound; with the improvement pass it is never longer than
// without. An instance the order does not fit is an error, not a panic.
func FuzzColor(f *testing.F) {
	f.Add([]byte(fixture.ExampleInstance))
	for _, name := range []string{"../instances/mesh4x4-transpose.json", "../instances/kary-tree2-3-complement.json", "testdata/stacked-classes.json"} {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := model.ParseInstance(data)
		if err != nil || len(in.Messages) > 64 || len(in.Net.Edges) > 256 {
			return
		}
		for _, m := range in.Messages {
			if m.L > 1<<16 {
				return // keep the schedules' times small
			}
		}
		for _, order := range []string{"auto", "tree", "mesh", "any"} {
			res, err := Color(in, Options{Order: order})
			if err != nil {
				continue
			}
			s := res.Schedule
			require.Equal(t, model.Bufferless, s.Model)
			require.NoError(t, verify.Schedule(in, s), "order %s", order)
			require.LessOrEqual(t, s.Makespan, res.Bound, "order %s", order)
			require.GreaterOrEqual(t, s.Makespan, in.LowerBound().Value, "order %s", order)
			imp, err := Color(in, Options{Order: order, Improve: true})
			require.NoError(t, err)
			require.NoError(t, verify.Schedule(in, imp.Schedule))
			require.LessOrEqual(t, imp.Schedule.Makespan, s.Makespan, "order %s", order)
		}
	})
}
