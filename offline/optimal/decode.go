package optimal

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
)

// Decode turns a model of the formula into a schedule. It first checks that value
// satisfies every clause (so a solver's answer for another formula is caught), then
// reads each time off its chain: t is the least v with "t <= v" true, else the top of
// its window. The schedule satisfies MODEL.md whenever value satisfies the formula;
// callers still pass it through the verifier.
func (f *Formula) Decode(value func(v int) bool) (*model.Schedule, error) {
	if f.empty {
		return nil, fmt.Errorf("optimal: the formula for horizon %d is unsatisfiable (it holds the empty clause)", f.Horizon)
	}
	for n, c := range f.Clauses {
		sat := false
		for _, l := range c {
			if l > 0 && value(l) || l < 0 && !value(-l) {
				sat = true
				break
			}
		}
		if !sat {
			return nil, fmt.Errorf("optimal: the assignment violates clause %d (%v)", n+1, c)
		}
	}
	in := f.in
	cross := make([][]int, len(in.Messages))
	for i := range in.Messages {
		d := len(in.Messages[i].Path)
		cross[i] = make([]int, d)
		for k := 1; k <= d; k++ {
			if f.Model == model.Bufferless {
				cross[i][k-1] = f.time(f.chainOf(i, 1), value) + k - 1
			} else {
				cross[i][k-1] = f.time(f.chainOf(i, k), value)
			}
		}
	}
	return model.NewSchedule(in, f.Model, cross), nil
}

func (f *Formula) time(c chain, value func(int) bool) int {
	for v := c.lo; v < c.hi; v++ {
		if value(f.le(c, v)) {
			return v
		}
	}
	return c.hi
}

// horizonLits returns the assumptions that restrict the formula to makespan at most
// T <= f.Horizon: for each message, "t_d <= T - L + 1" (wormhole) or
// "t_1 <= T - d - L + 2" (bufferless), and the activation literal of the busy-slot
// clauses when T is at most their horizon (busy.go). ok is false when some message
// cannot finish by T at all.
func (f *Formula) horizonLits(T int) (lits []int, ok bool) {
	for i := range f.in.Messages {
		m := &f.in.Messages[i]
		d := len(m.Path)
		var l int
		if f.Model == model.Bufferless {
			l = f.le(f.chainOf(i, 1), T-d-m.L+2)
		} else {
			l = f.le(f.chainOf(i, d), T-m.L+1)
		}
		switch l {
		case litTrue:
			continue
		case litFalse:
			return nil, false
		}
		lits = append(lits, l)
	}
	if f.busyAct != 0 && T <= f.busyT {
		lits = append(lits, f.busyAct)
	}
	return lits, true
}
