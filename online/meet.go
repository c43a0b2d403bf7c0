package online

import "github.com/wormlab/wormlab/model"

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
