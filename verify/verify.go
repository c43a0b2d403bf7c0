package verify

import (
	"github.com/wormlab/wormlab/model"
)

// MaxTime bounds every crossing and delivery time the verifier accepts, so that its
// arithmetic cannot overflow; later times are a RuleRange violation.
const MaxTime = 1 << 62

// Schedule checks s against in as MODEL.md defines legality and returns nil for a
// legal schedule, else an *Error carrying the first violation in the order of
// doc.go. It never enumerates more than one conflicting pair, so its cost is
// O(H log H) for H = sum_i d_i holdings whatever the schedule.
func Schedule(in *model.Instance, s *model.Schedule) error {
	_, vs := check(in, s, false, 0)
	if len(vs) == 0 {
		return nil
	}
	return &Error{vs[0]}
}

// All checks s against in and returns every violation, in the order of doc.go; nil
// for a legal schedule. Conflicts are reported once per (edge, pair of messages), so
// the cost is O(H log H + K) for H = sum_i d_i holdings and K reported conflicts.
// All(in, s)[0] is the violation Schedule reports.
func All(in *model.Instance, s *model.Schedule) []Violation {
	vs, _ := AllLimit(in, s, 0)
	return vs
}

// AllLimit is All listing at most k conflicts (k <= 0: all of them): the first k
// of All's, in All's order, and in more the number of conflicts left out, so that
// len(vs) + more is the length of All's list. The violations other than
// conflicts are All's (at most a few per message). It keeps the k conflicts in a
// bounded heap while it counts the others, so its memory is O(H + k) whatever
// the number of conflicts (n^2 / 2 for n worms crossing one edge at once), and
// its time O(H log H + K log k).
func AllLimit(in *model.Instance, s *model.Schedule, k int) (vs []Violation, more int) {
	c, vs := check(in, s, true, max(k, 0))
	if c != nil {
		more = c.more
	}
	return vs, more
}

// checker holds one verification's state.
type checker struct {
	in  *model.Instance
	s   *model.Schedule
	all bool
	out []Violation
	// cross[i] is message i's crossing times when they are well formed (count,
	// positive, increasing, in range), else nil.
	cross [][]int
	// complete is true when every instance message has well-formed times, so the
	// makespan is defined.
	complete bool
	// limit is the most conflicts an all check lists (0: all), more the number
	// it left out.
	limit, more int
}

func check(in *model.Instance, s *model.Schedule, all bool, limit int) (*checker, []Violation) {
	switch {
	case in == nil:
		return nil, []Violation{{Rule: RuleInstance, Edge: -1, Detail: "no instance"}}
	case s == nil:
		return nil, []Violation{{Rule: RuleInstance, Edge: -1, Detail: "no schedule"}}
	}
	if err := in.Validate(); err != nil {
		return nil, []Violation{{Rule: RuleInstance, Edge: -1, Detail: err.Error()}}
	}
	c := &checker{in: in, s: s, all: all, limit: limit, cross: make([][]int, len(in.Messages)), complete: true}
	if s.Model != model.Wormhole && s.Model != model.Bufferless && s.Model != model.StoreAndForward {
		c.add(Violation{Rule: RuleModel, Detail: s.Model})
	}
	c.times()
	if !c.all && len(c.out) > 0 {
		return c, c.out
	}
	c.conflicts()
	if !c.all && len(c.out) > 0 {
		return c, c.out
	}
	c.claims()
	return c, c.out
}

func (c *checker) add(v Violation) {
	if v.Rule != RuleConflict {
		v.Edge = -1
	}
	c.out = append(c.out, v)
}

// times checks each schedule entry on its own: ids, the number, sign, order and
// range of the crossing times, start, and no-wait; then that no message is missing.
func (c *checker) times() {
	id := make(map[string]int, len(c.in.Messages))
	for i := range c.in.Messages {
		id[c.in.Messages[i].ID] = i
	}
	seen := make([]bool, len(c.in.Messages))
	for j := range c.s.Messages {
		t := &c.s.Messages[j]
		i, ok := id[t.ID]
		switch {
		case !ok:
			c.add(Violation{Rule: RuleUnknownID, Msg: t.ID})
			continue
		case seen[i]:
			c.add(Violation{Rule: RuleDuplicateID, Msg: t.ID})
			continue
		}
		seen[i] = true
		if c.wellFormed(i, t) {
			c.cross[i] = t.Cross
			c.noWait(i, t)
		} else {
			c.complete = false
		}
	}
	for i := range c.in.Messages {
		if !seen[i] {
			c.complete = false
			c.add(Violation{Rule: RuleMissing, Msg: c.in.Messages[i].ID})
		}
	}
}

// wellFormed checks rule 1 of MODEL.md (positive, strictly increasing times, one per
// path edge) and the range bound, reporting the first problem.
func (c *checker) wellFormed(i int, t *model.Times) bool {
	m := &c.in.Messages[i]
	d := len(m.Path)
	if len(t.Cross) != d {
		c.add(Violation{Rule: RuleCrossCount, Msg: m.ID, Got: len(t.Cross), Want: d})
		return false
	}
	for k, tk := range t.Cross {
		switch {
		case tk < 1:
			c.add(Violation{Rule: RuleNonPositive, Msg: m.ID, K: k + 1, Time: tk, Got: tk, Want: 1})
			return false
		case tk > MaxTime:
			c.add(Violation{Rule: RuleRange, Msg: m.ID, K: k + 1, Time: tk, Got: tk, Want: MaxTime})
			return false
		case k > 0 && tk <= t.Cross[k-1]:
			c.add(Violation{Rule: RuleNotIncreasing, Msg: m.ID, K: k + 1, Time: tk, Got: tk, Want: t.Cross[k-1]})
			return false
		case k > 0 && c.s.Model == model.StoreAndForward && tk-t.Cross[k-1] < m.L:
			// A packet is stored whole before it moves on: its L flits cross e_{k-1}
			// in steps t_{k-1} .. t_{k-1} + L - 1.
			c.add(Violation{Rule: RuleStoreHop, Msg: m.ID, K: k + 1, Time: tk, Got: tk, Want: t.Cross[k-1] + m.L})
			return false
		}
	}
	// The worm's last move is in step t_d + L (see doc.go); it must stay in range.
	if td := t.Cross[d-1]; m.L > MaxTime-td {
		c.add(Violation{Rule: RuleRange, Msg: m.ID, K: d + 1, Got: td + min(m.L, MaxTime), Want: MaxTime})
		return false
	}
	return true
}

// noWait checks "start" (= t_1 - 1 when present) and, for a message that may not
// wait (bufferless schedule, or "start" given), t_k = t_1 + k - 1.
func (c *checker) noWait(i int, t *model.Times) {
	m := &c.in.Messages[i]
	t1 := t.Cross[0]
	if t.Start != nil && *t.Start != t1-1 {
		c.add(Violation{Rule: RuleStart, Msg: m.ID, Time: t1, Got: *t.Start, Want: t1 - 1})
	}
	why := ""
	switch {
	case c.s.Model == model.Bufferless:
		why = "bufferless schedule"
	case t.Start != nil:
		why = "start given"
	default:
		return
	}
	for k, tk := range t.Cross {
		if tk != t1+k {
			c.add(Violation{Rule: RuleWaits, Msg: m.ID, K: k + 1, Time: tk, Got: tk, Want: t1 + k, Detail: why})
			return
		}
	}
}

// claims checks the makespan (when every message has well-formed times) and the
// consistency of lower_bound and optimal with it.
func (c *checker) claims() {
	mk := c.s.Makespan
	if c.complete && c.s.NoMakespan {
		// No makespan claimed (MODEL.md does not require one): nothing to compare,
		// but the bound claims are judged against the schedule's own makespan.
		mk = 0
		for i, cr := range c.cross {
			mk = max(mk, cr[len(cr)-1]+c.in.Messages[i].L-1)
		}
	} else if c.complete {
		last := -1
		mk = 0
		for i, cr := range c.cross {
			if dl := cr[len(cr)-1] + c.in.Messages[i].L - 1; last < 0 || dl > mk {
				mk, last = dl, i
			}
		}
		if mk != c.s.Makespan {
			v := Violation{Rule: RuleMakespan, Got: c.s.Makespan, Want: mk}
			if last >= 0 {
				v.Msg = c.in.Messages[last].ID
			}
			c.add(v)
		}
	}
	if lb := c.s.LowerBound; lb != nil {
		if *lb > mk {
			c.add(Violation{Rule: RuleLowerBound, Got: *lb, Want: mk})
		} else if c.s.Optimal != nil && *c.s.Optimal && *lb < mk {
			c.add(Violation{Rule: RuleOptimal, Got: *lb, Want: mk})
		}
	}
}
