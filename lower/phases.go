package lower

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// PhaseSchedule turns a colouring of the messages into the bufferless schedule that
// starts colour class q at time q * Lmax (Lmax the longest message): the phases of
// seed 002, Lemma 4, run in reverse. It is legal when every class is pairwise
// edge-disjoint and two messages sharing an edge use it at the same position (true
// on a levelled network whose paths all start on level 0); the schedule is passed
// through verify.Schedule and an illegal one is an error. Makespan
// (classes - 1) Lmax + max_i (d_i + L_i - 1) when every class is used.
func PhaseSchedule(in *model.Instance, colour []int) (*model.Schedule, error) {
	lmax := 0
	for i := range in.Messages {
		lmax = max(lmax, in.Messages[i].L)
	}
	starts := make([]int, len(in.Messages))
	for i, c := range colour {
		starts[i] = c * lmax
	}
	s := model.FromStarts(in, starts)
	if err := verify.Schedule(in, s); err != nil {
		return nil, fmt.Errorf("lower: phase schedule: %v", err)
	}
	return s, nil
}
