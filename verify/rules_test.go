package verify_test

import (
	"encoding/json"
	"strings"

	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

func ptr[T any](v T) *T { return &v }

// ruleCases break MODEL.md's example schedule in one way each; want is the single
// violation the verifier must report.
var ruleCases = []struct {
	name   string
	break_ func(in *model.Instance, s *model.Schedule)
	want   verify.Violation
	text   string
}{
	{"invalid instance", func(in *model.Instance, s *model.Schedule) { in.Messages[1].Path = []int{7} },
		verify.Violation{Rule: verify.RuleInstance, Edge: -1},
		`invalid instance: instance: message "m1": edge index 7 out of range (network has 2 edges)`},
	{"unknown model", func(in *model.Instance, s *model.Schedule) { s.Model = "cut-through" },
		verify.Violation{Rule: verify.RuleModel, Edge: -1, Detail: "cut-through"},
		`model "cut-through" is neither "wormhole", "bufferless" nor "store-and-forward"`},
	{"store-and-forward hop before the packet is stored whole", func(in *model.Instance, s *model.Schedule) {
		// m0 (L = 2) hops at 1 and 3, m1 (L = 3) at 5, m2 (L = 2) at 8 and 10:
		// legal but for m2's second hop at 9.
		s.Model = model.StoreAndForward
		s.Messages[0].Cross = []int{1, 3}
		s.Messages[1].Cross = []int{5}
		s.Messages[2].Cross = []int{8, 9}
		s.Messages[2].Start = nil
		s.Makespan = 10
	}, verify.Violation{Rule: verify.RuleStoreHop, Edge: -1, Msg: "m2", K: 2, Time: 9, Got: 9, Want: 10},
		`message "m2": hop 2 at time 9, before the packet is stored whole (t_1 + L = 10)`},
	{"unknown id", func(in *model.Instance, s *model.Schedule) {
		s.Messages = append(s.Messages, model.Times{ID: "m9", Cross: []int{20}})
	}, verify.Violation{Rule: verify.RuleUnknownID, Edge: -1, Msg: "m9"},
		`message "m9": no such message in the instance`},
	{"duplicate id", func(in *model.Instance, s *model.Schedule) {
		s.Messages = append(s.Messages, model.Times{ID: "m1", Cross: []int{20}})
	}, verify.Violation{Rule: verify.RuleDuplicateID, Edge: -1, Msg: "m1"},
		`message "m1": appears twice in the schedule`},
	{"cross count", func(in *model.Instance, s *model.Schedule) { s.Messages[1].Cross = []int{4, 5} },
		verify.Violation{Rule: verify.RuleCrossCount, Edge: -1, Msg: "m1", Got: 2, Want: 1},
		`message "m1": 2 crossing times for a path of 1 edge`},
	{"non-positive time", func(in *model.Instance, s *model.Schedule) { s.Messages[0].Cross = []int{0, 2} },
		verify.Violation{Rule: verify.RuleNonPositive, Edge: -1, Msg: "m0", K: 1, Time: 0, Got: 0, Want: 1},
		`message "m0": crossing time t_1 = 0 is not positive`},
	{"non-increasing times", func(in *model.Instance, s *model.Schedule) { s.Messages[0].Cross = []int{2, 2} },
		verify.Violation{Rule: verify.RuleNotIncreasing, Edge: -1, Msg: "m0", K: 2, Time: 2, Got: 2, Want: 2},
		`message "m0": crossing times not increasing: t_2 = 2 after t_1 = 2`},
	{"time out of range", func(in *model.Instance, s *model.Schedule) { s.Messages[0].Cross = []int{1, verify.MaxTime + 1} },
		verify.Violation{Rule: verify.RuleRange, Edge: -1, Msg: "m0", K: 2, Time: verify.MaxTime + 1, Got: verify.MaxTime + 1, Want: verify.MaxTime},
		`message "m0": time 4611686018427387905 at position 2 is beyond 4611686018427387904`},
	{"start disagrees", func(in *model.Instance, s *model.Schedule) { s.Messages[2].Start = ptr(4) },
		verify.Violation{Rule: verify.RuleStart, Edge: -1, Msg: "m2", Time: 6, Got: 4, Want: 5},
		`message "m2": start 4 disagrees with cross (t_1 - 1 = 5)`},
	{"message with start waits", func(in *model.Instance, s *model.Schedule) {
		s.Messages[2].Cross = []int{6, 8}
		s.Makespan = 9
	}, verify.Violation{Rule: verify.RuleWaits, Edge: -1, Msg: "m2", K: 2, Time: 8, Got: 8, Want: 7, Detail: "start given"},
		`message "m2": waits before edge 2 of its path (t_2 = 8, without waiting 7) but may not wait (start given)`},
	{"bufferless message waits", func(in *model.Instance, s *model.Schedule) {
		s.Model = model.Bufferless
		s.Messages[2].Start = nil
		s.Messages[2].Cross = []int{6, 8}
		s.Makespan = 9
	}, verify.Violation{Rule: verify.RuleWaits, Edge: -1, Msg: "m2", K: 2, Time: 8, Got: 8, Want: 7, Detail: "bufferless schedule"},
		`message "m2": waits before edge 2 of its path (t_2 = 8, without waiting 7) but may not wait (bufferless schedule)`},
	{"missing message", func(in *model.Instance, s *model.Schedule) { s.Messages = s.Messages[:2] },
		verify.Violation{Rule: verify.RuleMissing, Edge: -1, Msg: "m2"},
		`message "m2": missing from the schedule`},
	{"edge held by two", func(in *model.Instance, s *model.Schedule) { s.Messages[1].Cross = []int{3} },
		verify.Violation{Rule: verify.RuleConflict, Edge: 1, EdgeName: "b->c", Time: 3, Msg: "m0", Other: "m1"},
		`edge 1 (b->c) held by "m0" and "m1" at time 3`},
	{"wrong makespan", func(in *model.Instance, s *model.Schedule) { s.Makespan = 9 },
		verify.Violation{Rule: verify.RuleMakespan, Edge: -1, Msg: "m2", Got: 9, Want: 8},
		`claimed makespan 9, but the last delivery (message "m2") is at time 8`},
	{"lower bound above makespan", func(in *model.Instance, s *model.Schedule) { s.LowerBound = ptr(9) },
		verify.Violation{Rule: verify.RuleLowerBound, Edge: -1, Got: 9, Want: 8},
		`claimed lower_bound 9 exceeds the makespan 8`},
	{"optimal below bound", func(in *model.Instance, s *model.Schedule) { s.SetBound(7, true) },
		verify.Violation{Rule: verify.RuleOptimal, Edge: -1, Got: 7, Want: 8},
		`claimed optimal, but the claimed lower_bound 7 is below the makespan 8`},
}

// TestRules checks every rule on its own: each broken example reports exactly the
// expected violation, first and only, so removing any check fails its case.
func TestRules(t *testing.T) {
	covered := map[verify.Rule]bool{}
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			in, s := example(t)
			tc.break_(in, s)
			all := verify.All(in, s)
			require.Len(t, all, 1, "violations: %v", all)
			got := all[0]
			if tc.want.Rule == verify.RuleInstance {
				got.Detail = "" // Validate's text is model's; the rendering is checked below
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.text, all[0].Error())
			err := verify.Schedule(in, s)
			var ve *verify.Error
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, all[0], ve.Violation)
			assert.Equal(t, "illegal schedule: "+tc.text, err.Error())
			covered[tc.want.Rule] = true
		})
	}
	for _, r := range verify.Rules() {
		assert.True(t, covered[r], "no test case for rule %v", r)
	}
}

// Claims that are consistent are accepted: a lower bound at or below the makespan,
// optimal with the bound equal to it, and not-optimal with any smaller bound.
func TestConsistentClaims(t *testing.T) {
	for _, c := range []struct {
		lb  int
		opt *bool
	}{{8, nil}, {3, nil}, {8, ptr(true)}, {5, ptr(false)}, {8, ptr(false)}} {
		in, s := example(t)
		s.LowerBound, s.Optimal = ptr(c.lb), c.opt
		assert.NoError(t, verify.Schedule(in, s), "lower_bound %d optimal %v", c.lb, c.opt)
	}
}

// A bufferless schedule that never waits is legal, and so is the pipelined case of
// MODEL.md: a head may follow another worm's tail with no gap.
func TestBufferlessAndPipelining(t *testing.T) {
	in, s := example(t)
	s.Model = model.Bufferless
	// m0 [1,2] holds edge 1 during [2,3]; m1 crosses it at 4 (right behind m0's tail).
	require.NoError(t, verify.Schedule(in, s))
	// m0 (L = 2) holds edge 0 during [t_1, M(3) - 1] = [1, 2]: its tail crosses
	// edge 0 in step 2 and leaves that edge's buffer in step 3, the step in which
	// m2's head may enter it.
	s.Messages[2] = model.Times{ID: "m2", Cross: []int{3, 7}}
	s.Model = model.Wormhole
	require.NoError(t, verify.Schedule(in, s))
	s.Messages[2].Cross = []int{2, 7}
	err := verify.Schedule(in, s)
	var ve *verify.Error
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, verify.Violation{Rule: verify.RuleConflict, Edge: 0, EdgeName: "a->b", Time: 2, Msg: "m0", Other: "m2"}, ve.Violation)
}

// The order of doc.go: per-entry problems in schedule order, then missing messages,
// conflicts by time, the makespan last; and a message with malformed times takes no
// part in conflicts.
func TestOrderOfAll(t *testing.T) {
	in, s := example(t)
	s.Messages = []model.Times{
		{ID: "m2", Cross: []int{1, 2}},
		{ID: "x", Cross: []int{1}},
		{ID: "m0", Cross: []int{1, 2}},
	}
	s.Makespan = 1
	all := verify.All(in, s)
	var rules []verify.Rule
	for _, v := range all {
		rules = append(rules, v.Rule)
	}
	// m0 and m2 collide on edge 0 at 1 and on edge 1 at 2; m1 is missing, so the
	// makespan is undefined and not checked.
	assert.Equal(t, []verify.Rule{verify.RuleUnknownID, verify.RuleMissing, verify.RuleConflict, verify.RuleConflict}, rules)
	assert.Equal(t, 0, all[2].Edge)
	assert.Equal(t, 1, all[2].Time)
	assert.Equal(t, 1, all[3].Edge)
	assert.Equal(t, 2, all[3].Time)
	assert.Equal(t, "m0", all[3].Msg)
	assert.Equal(t, "m2", all[3].Other)
}

// A message whose lengths push the last move past MaxTime is out of range too.
func TestRangeOfDelivery(t *testing.T) {
	in, s := example(t)
	s.Messages[0].Cross = []int{verify.MaxTime - 2, verify.MaxTime - 1} // L = 2: last move at MaxTime+1
	err := verify.Schedule(in, s)
	var ve *verify.Error
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, verify.RuleRange, ve.Rule)
	s.Messages[0].Cross = []int{verify.MaxTime - 3, verify.MaxTime - 2} // last move at MaxTime
	s.Makespan = verify.MaxTime - 1
	require.NoError(t, verify.Schedule(in, s))
}

// The JSON form of a violation names the rule and carries only the fields that
// apply; edge names stay unescaped where the encoder allows it.
func TestViolationJSON(t *testing.T) {
	in, s := example(t)
	s.Messages[1].Cross = []int{3}
	s.Makespan = 9
	all := verify.All(in, s)
	require.Len(t, all, 2)
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(all))
	data := b.String()
	assert.JSONEq(t, `[
	  {"rule": "edge-conflict", "edge": 1, "edge_name": "b->c", "time": 3, "msg": "m0", "other": "m1",
	   "text": "edge 1 (b->c) held by \"m0\" and \"m1\" at time 3"},
	  {"rule": "wrong-makespan", "msg": "m2", "got": 9, "want": 8,
	   "text": "claimed makespan 9, but the last delivery (message \"m2\") is at time 8"}]`, data)
	assert.Contains(t, data, `"b->c"`)
}

// Holdings gives MODEL.md's worked example: m0 holds edge 1 at times 2 and 3, m1 at
// 4, 5 and 6.
func TestHoldingsOfExample(t *testing.T) {
	in, s := example(t)
	assert.Equal(t, []verify.Holding{
		{Edge: 0, Msg: 0, From: 1, To: 2},
		{Edge: 0, Msg: 2, From: 6, To: 7},
		{Edge: 1, Msg: 0, From: 2, To: 3},
		{Edge: 1, Msg: 1, From: 4, To: 6},
		{Edge: 1, Msg: 2, From: 7, To: 8},
	}, verify.Holdings(in, s))
	s.Messages[1].Cross = []int{0} // malformed: m1 has no holdings
	assert.Len(t, verify.Holdings(in, s), 4)
}

// Nil arguments are reported, not a panic.
func TestNil(t *testing.T) {
	in, s := example(t)
	for _, c := range []struct {
		in *model.Instance
		s  *model.Schedule
	}{{nil, s}, {in, nil}} {
		all := verify.All(c.in, c.s)
		require.Len(t, all, 1)
		assert.Equal(t, verify.RuleInstance, all[0].Rule)
		assert.Error(t, verify.Schedule(c.in, c.s))
		assert.Nil(t, verify.Holdings(c.in, c.s))
	}
}
