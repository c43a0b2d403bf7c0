package online

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// minMeetBudget is the least default budget of the meet diagnostic: about 10 ms of
// pair visits, so that small instances are always examined.
const minMeetBudget = 1 << 20

// MeetWork is MeetRuns' work on in: the pair visits sum_e c_e^2. O(edges +
// messages' path lengths).
func MeetWork(in *model.Instance) int64 {
	c := make([]int64, len(in.Net.Edges))
	for _, m := range in.Messages {
		for _, e := range m.Path {
			c[e]++
		}
	}
	var w int64
	for _, x := range c {
		w += x * x
	}
	return w
}

// meetWithin is MeetRuns when its work is within budget (Options.MeetBudget: 0 the
// instance's flit-hops or minMeetBudget, negative no bound), else a Meet that says
// it was skipped.
func meetWithin(in *model.Instance, budget int64) Meet {
	if budget < 0 {
		return MeetRuns(in)
	}
	if budget == 0 {
		budget = minMeetBudget
		var hops int64
		for _, m := range in.Messages {
			hops += int64(m.L) * int64(len(m.Path))
		}
		budget = max(budget, hops)
	}
	if w := MeetWork(in); w > budget {
		return Meet{Skipped: fmt.Sprintf("%d pair visits, above the budget of %d", w, budget)}
	}
	return MeetRuns(in)
}

// MeetRuns measures seed 000's assumption (section II) that any two paths meet in at
// most one contiguous run of edges. A run of paths p and q is a maximal sequence of
// edges consecutive on both; a shared edge e starts a run unless the edges before e
// on p and on q are the same shared edge. Cost O(sum_e c_e^2).
func MeetRuns(in *model.Instance) Meet {
	users := in.Users()
	m := Meet{OneRun: true}
	best := [2]int{-1, -1}
	runs := make([]int32, len(in.Messages)) // runs of the current message with j
	var touched []int
	for i := range in.Messages {
		p := in.Messages[i].Path
		touched = touched[:0]
		for k, e := range p {
			for _, u := range users[e] {
				j := u.Msg
				if j <= i {
					continue
				}
				q := in.Messages[j].Path
				if k > 0 && u.Pos > 0 && p[k-1] == q[u.Pos-1] {
					continue
				}
				if runs[j] == 0 {
					touched = append(touched, j)
				}
				runs[j]++
			}
		}
		for _, j := range touched {
			if c := int(runs[j]); c > m.MaxRuns || c == m.MaxRuns && (i < best[0] || i == best[0] && j < best[1]) {
				m.MaxRuns, best = c, [2]int{i, j}
			}
			runs[j] = 0
		}
	}
	if m.MaxRuns > 1 {
		m.A, m.B = in.Messages[best[0]].ID, in.Messages[best[1]].ID
	}
	m.OneRun = m.MaxRuns <= 1
	return m
}
