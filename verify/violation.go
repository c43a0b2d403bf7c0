package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Rule names one legality rule of MODEL.md (or one consistency check of a schedule's
// claims). Every Violation carries the rule it breaks.
type Rule int

// The rules, in the order the verifier reports them (see doc.go, "Order").
const (
	// RuleInstance: the instance itself is invalid (Instance.Validate fails), or the
	// instance or schedule is nil; nothing else is checked.
	RuleInstance Rule = iota + 1
	// RuleModel: the schedule's model is neither "wormhole" nor "bufferless".
	RuleModel
	// RuleUnknownID: the schedule names a message the instance does not have.
	RuleUnknownID
	// RuleDuplicateID: the schedule names a message twice (the first entry counts).
	RuleDuplicateID
	// RuleCrossCount: a message's cross list does not have one time per path edge.
	RuleCrossCount
	// RuleNonPositive: a crossing time t_k < 1 (step 1 is the first step).
	RuleNonPositive
	// RuleNotIncreasing: t_k <= t_{k-1}.
	RuleNotIncreasing
	// RuleRange: a crossing or delivery time beyond MaxTime.
	RuleRange
	// RuleStart: "start" is present and differs from t_1 - 1.
	RuleStart
	// RuleWaits: a message that may not wait does (bufferless model, or "start"
	// given): t_k != t_1 + k - 1.
	RuleWaits
	// RuleMissing: an instance message has no entry in the schedule.
	RuleMissing
	// RuleConflict: two messages hold one edge at the same time.
	RuleConflict
	// RuleMakespan: the claimed makespan differs from the largest delivery time.
	RuleMakespan
	// RuleLowerBound: the claimed lower_bound exceeds the makespan.
	RuleLowerBound
	// RuleOptimal: optimal is claimed while the claimed lower_bound is below the
	// makespan (an optimum is proven only when the bound meets the makespan).
	RuleOptimal
	// RuleStoreHop: in a store-and-forward schedule a packet leaves on e_k before
	// it is stored whole: t_k < t_{k-1} + L. (Last in number so that the numbers of
	// the rules before it stay; reported with the crossing-time rules.)
	RuleStoreHop
)

var ruleNames = [...]string{
	RuleInstance:      "invalid-instance",
	RuleModel:         "unknown-model",
	RuleUnknownID:     "unknown-id",
	RuleDuplicateID:   "duplicate-id",
	RuleCrossCount:    "cross-count",
	RuleNonPositive:   "non-positive-time",
	RuleNotIncreasing: "non-increasing-times",
	RuleRange:         "time-out-of-range",
	RuleStart:         "start-disagrees",
	RuleWaits:         "bufferless-waits",
	RuleMissing:       "missing-message",
	RuleConflict:      "edge-conflict",
	RuleMakespan:      "wrong-makespan",
	RuleLowerBound:    "lower-bound-above-makespan",
	RuleOptimal:       "optimal-below-bound",
	RuleStoreHop:      "store-hop-early",
}

// String returns the rule's stable name, used in JSON reports.
func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return "rule(" + strconv.Itoa(int(r)) + ")"
}

// Rules lists every rule, in report order.
func Rules() []Rule {
	rs := make([]Rule, 0, len(ruleNames)-1)
	for r := RuleInstance; int(r) < len(ruleNames); r++ {
		rs = append(rs, r)
	}
	return rs
}

// Violation is one broken rule, located as precisely as the rule allows. Fields that
// do not apply are -1 (Edge) or zero.
type Violation struct {
	Rule Rule
	// Edge is the network edge index at fault (RuleConflict), else -1.
	Edge int
	// EdgeName is Edge written "from->to".
	EdgeName string
	// Time is the time at fault: for RuleConflict the first time both messages hold
	// the edge; for a crossing-time rule the offending t_k.
	Time int
	// Msg is the id of the message at fault; for RuleConflict the one with the
	// smaller instance index. Other is the second message of a conflict.
	Msg, Other string
	// K is the 1-based position on Msg's path of the offending crossing time.
	K int
	// Got is the value found (claimed makespan, length of cross, start, t_k) and Want
	// the value the rule requires, where the rule compares two numbers.
	Got, Want int
	// Detail explains RuleInstance and RuleModel.
	Detail string
}

// Error renders the violation as one line.
func (v Violation) Error() string {
	switch v.Rule {
	case RuleInstance:
		return "invalid instance: " + v.Detail
	case RuleModel:
		return fmt.Sprintf("model %q is neither \"wormhole\", \"bufferless\" nor \"store-and-forward\"", v.Detail)
	case RuleUnknownID:
		return fmt.Sprintf("message %q: no such message in the instance", v.Msg)
	case RuleDuplicateID:
		return fmt.Sprintf("message %q: appears twice in the schedule", v.Msg)
	case RuleCrossCount:
		return fmt.Sprintf("message %q: %d crossing time%s for a path of %d edge%s", v.Msg, v.Got, plural(v.Got), v.Want, plural(v.Want))
	case RuleNonPositive:
		return fmt.Sprintf("message %q: crossing time t_%d = %d is not positive", v.Msg, v.K, v.Got)
	case RuleNotIncreasing:
		return fmt.Sprintf("message %q: crossing times not increasing: t_%d = %d after t_%d = %d", v.Msg, v.K, v.Got, v.K-1, v.Want)
	case RuleRange:
		return fmt.Sprintf("message %q: time %d at position %d is beyond %d", v.Msg, v.Got, v.K, v.Want)
	case RuleStart:
		return fmt.Sprintf("message %q: start %d disagrees with cross (t_1 - 1 = %d)", v.Msg, v.Got, v.Want)
	case RuleWaits:
		return fmt.Sprintf("message %q: waits before edge %d of its path (t_%d = %d, without waiting %d) but may not wait (%s)", v.Msg, v.K, v.K, v.Got, v.Want, v.Detail)
	case RuleMissing:
		return fmt.Sprintf("message %q: missing from the schedule", v.Msg)
	case RuleStoreHop:
		return fmt.Sprintf("message %q: hop %d at time %d, before the packet is stored whole (t_%d + L = %d)", v.Msg, v.K, v.Got, v.K-1, v.Want)
	case RuleConflict:
		return fmt.Sprintf("edge %d (%s) held by %q and %q at time %d", v.Edge, v.EdgeName, v.Msg, v.Other, v.Time)
	case RuleMakespan:
		return fmt.Sprintf("claimed makespan %d, but the last delivery (message %q) is at time %d", v.Got, v.Msg, v.Want)
	case RuleLowerBound:
		return fmt.Sprintf("claimed lower_bound %d exceeds the makespan %d", v.Got, v.Want)
	case RuleOptimal:
		return fmt.Sprintf("claimed optimal, but the claimed lower_bound %d is below the makespan %d", v.Got, v.Want)
	}
	return v.Rule.String()
}

// Error is what Schedule returns for an illegal schedule: the first violation.
type Error struct {
	Violation
}

// Error renders the first violation.
func (e *Error) Error() string { return "illegal schedule: " + e.Violation.Error() }

// MarshalJSON writes the violation as an object with the rule's name, the fields
// that apply to it (edge and edge_name only for an edge, the others when non-zero)
// and its text.
func (v Violation) MarshalJSON() ([]byte, error) {
	type out struct {
		Rule     string `json:"rule"`
		Edge     *int   `json:"edge,omitempty"`
		EdgeName string `json:"edge_name,omitempty"`
		Time     *int   `json:"time,omitempty"`
		Msg      string `json:"msg,omitempty"`
		Other    string `json:"other,omitempty"`
		K        int    `json:"k,omitempty"`
		Got      *int   `json:"got,omitempty"`
		Want     *int   `json:"want,omitempty"`
		Text     string `json:"text"`
	}
	o := out{Rule: v.Rule.String(), EdgeName: v.EdgeName, Msg: v.Msg, Other: v.Other, K: v.K, Text: v.Error()}
	if v.Edge >= 0 {
		o.Edge = &v.Edge
	}
	switch v.Rule {
	case RuleConflict, RuleNonPositive, RuleNotIncreasing, RuleRange, RuleStart, RuleWaits:
		o.Time = &v.Time
	}
	switch v.Rule {
	case RuleCrossCount, RuleNonPositive, RuleNotIncreasing, RuleRange, RuleStart, RuleWaits,
		RuleMakespan, RuleLowerBound, RuleOptimal:
		o.Got, o.Want = &v.Got, &v.Want
	}
	// Edge names contain "->": keep them readable (no HTML escaping).
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(o); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
