package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Spec is a sweep: a command, its fixed parameters, the axes whose product gives the
// points, and how many replications of each.
type Spec struct {
	Command      string
	Seed         uint64
	Replications int
	Params       map[string]Value   // fixed parameters, by flag name
	Axes         map[string][]Value // each axis's values, in order
	// Cases are axes whose values set several parameters at once (a network and its
	// size and traffic): the axis's name is a label recorded with the point, not a
	// parameter of the command.
	Cases map[string][]Case
	// Timeout bounds one point's wall time (0: none). A point past it is recorded as
	// failed; its computation is abandoned, not stopped (prefer a command's own
	// --timeout where it has one).
	Timeout time.Duration
}

// Case is one value of a case axis: its name and the parameters it sets.
type Case struct {
	Name   string
	Params map[string]Value
}

// Value is one parameter value: a JSON string, number (its canonical text) or bool,
// or the name of a case (a label, written as a string, never passed to the command).
type Value struct {
	Kind byte // 's' string, 'n' number, 'b' bool, 'l' case label
	Text string
}

// Label reports a case's name: a point's record carries it, the command does not.
func (v Value) Label() bool { return v.Kind == 'l' }

// Arg is the value as a command-line flag value.
func (v Value) Arg() string { return v.Text }

// MarshalJSON writes strings quoted, numbers and bools bare.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.Kind == 's' || v.Kind == 'l' {
		return json.Marshal(v.Text)
	}
	return []byte(v.Text), nil
}

// SpecError names the field of a spec at fault ("axes.rate", "params.flits").
type SpecError struct {
	Field string
	Msg   string
}

func (e *SpecError) Error() string {
	if e.Field == "" {
		return "spec: " + e.Msg
	}
	return fmt.Sprintf("spec: %s: %s", e.Field, e.Msg)
}

// MaxPoints bounds the points of one spec (axes' product times replications),
// and so the values of one range: 10^6, about 1 GiB while the sweep lists them
// (PointBytes) and half a second to expand the largest range (issue 26: at 10^7
// a range took 9 s and 1 GB before the spec was looked at further, and a spec of
// 9,999,999 points crashed at 6.5 GB).
const MaxPoints = 1_000_000

// PointBytes is the memory of one point while a sweep lists them (its key, seed
// and parameter map), measured: 256 bytes for a replication of a spec without
// axes, 890 to 1,090 bytes for one or two axes. A caller multiplies it by Count
// to check a spec against a memory budget before listing its points.
const PointBytes = 1024

// Count is the number of points of s: the axes' product times the replications,
// computed without listing them.
func (s *Spec) Count() int64 {
	n := int64(s.Replications)
	for _, vs := range s.Axes {
		n *= int64(len(vs))
	}
	for _, cs := range s.Cases {
		n *= int64(len(cs))
	}
	return n
}

// MaxSpecBytes bounds the text ParseSpec reads (64 MiB: a list axis of MaxPoints
// values of 64 bytes each): an endless input (standard input, /dev/zero) is
// refused once that much has come instead of growing until the process is killed.
const MaxSpecBytes = 64 << 20

// ParseSpec reads a spec in JSON:
//
//	{"command": "sim", "seed": 1, "replications": 2, "timeout": "30s",
//	 "params": {"topology": "torus:4x4", "flits": 8},
//	 "axes": {"rate": {"from": 0.05, "to": 0.5, "step": 0.05}, "routing": ["dor", "duato"]}}
//
// An axis is a non-empty list of values or a range: {"from", "to", "step"} (arithmetic,
// both ends included when on the grid) or {"from", "to", "factor"} (geometric).
// Parameter values are strings, numbers or booleans. Unknown fields are errors.
func ParseSpec(r io.Reader) (*Spec, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSpecBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSpecBytes {
		return nil, &SpecError{"", fmt.Sprintf("more than %d bytes (64 MiB), the most a spec may have", MaxSpecBytes)}
	}
	var raw map[string]json.RawMessage
	if err := strictDecode(data, &raw); err != nil {
		return nil, &SpecError{"", "not a JSON object: " + err.Error()}
	}
	s := &Spec{Seed: 1, Replications: 1, Params: map[string]Value{}, Axes: map[string][]Value{}, Cases: map[string][]Case{}}
	for _, k := range sortedKeys(raw) {
		v := raw[k]
		switch k {
		case "command":
			if err := json.Unmarshal(v, &s.Command); err != nil || s.Command == "" {
				return nil, &SpecError{"command", "want a non-empty string"}
			}
		case "seed":
			if err := json.Unmarshal(v, &s.Seed); err != nil {
				return nil, &SpecError{"seed", "want an unsigned integer"}
			}
		case "replications":
			if err := json.Unmarshal(v, &s.Replications); err != nil || s.Replications < 1 {
				return nil, &SpecError{"replications", "want an integer >= 1"}
			}
		case "timeout":
			var t string
			if err := json.Unmarshal(v, &t); err != nil {
				return nil, &SpecError{"timeout", "want a duration such as \"30s\""}
			}
			d, err := time.ParseDuration(t)
			if err != nil || d < 0 {
				return nil, &SpecError{"timeout", fmt.Sprintf("%q is not a duration >= 0", t)}
			}
			s.Timeout = d
		case "params":
			var m map[string]json.RawMessage
			if err := strictDecode(v, &m); err != nil {
				return nil, &SpecError{"params", "want an object of parameter values"}
			}
			for name, pv := range m {
				val, err := parseValue(pv)
				if err != nil {
					return nil, &SpecError{"params." + name, err.Error()}
				}
				s.Params[name] = val
			}
		case "axes":
			var m map[string]json.RawMessage
			if err := strictDecode(v, &m); err != nil {
				return nil, &SpecError{"axes", "want an object of axes"}
			}
			for name, av := range m {
				if cases, ok, err := parseCases(av); ok || err != nil {
					if err != nil {
						return nil, &SpecError{"axes." + name, err.Error()}
					}
					s.Cases[name] = cases
					continue
				}
				vals, err := parseAxis(av)
				if err != nil {
					return nil, &SpecError{"axes." + name, err.Error()}
				}
				s.Axes[name] = vals
			}
		default:
			return nil, &SpecError{k, "unknown field (want command, seed, replications, timeout, params, axes)"}
		}
	}
	if s.Command == "" {
		return nil, &SpecError{"command", "missing"}
	}
	for name := range s.Axes {
		if _, dup := s.Params[name]; dup {
			return nil, &SpecError{"axes." + name, "also fixed in params"}
		}
	}
	for _, name := range sortedKeys(s.Cases) {
		if _, dup := s.Params[name]; dup {
			return nil, &SpecError{"axes." + name, "also fixed in params"}
		}
		for i, c := range s.Cases[name] {
			for p := range c.Params {
				field := fmt.Sprintf("axes.%s[%d].%s", name, i, p)
				if _, dup := s.Params[p]; dup {
					return nil, &SpecError{field, "also fixed in params"}
				}
				if _, dup := s.Axes[p]; dup {
					return nil, &SpecError{field, "also an axis"}
				}
				if _, dup := s.Cases[p]; dup {
					return nil, &SpecError{field, "also the name of a case axis"}
				}
				for _, other := range sortedKeys(s.Cases) {
					if other == name {
						continue
					}
					for _, oc := range s.Cases[other] {
						if _, dup := oc.Params[p]; dup {
							return nil, &SpecError{field, fmt.Sprintf("also set by case axis %q", other)}
						}
					}
				}
			}
		}
	}
	n := float64(s.Replications)
	for _, vs := range s.Axes {
		n *= float64(len(vs))
	}
	for _, cs := range s.Cases {
		n *= float64(len(cs))
	}
	if n > MaxPoints {
		return nil, &SpecError{"axes", fmt.Sprintf("%.0f points, more than %d", n, MaxPoints)}
	}
	return s, nil
}

func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

func parseValue(raw json.RawMessage) (Value, error) {
	var v any
	if err := strictDecode(raw, &v); err != nil {
		return Value{}, err
	}
	switch x := v.(type) {
	case string:
		return Value{'s', x}, nil
	case bool:
		return Value{'b', strconv.FormatBool(x)}, nil
	case json.Number:
		return number(x.String())
	case nil:
		return Value{}, fmt.Errorf("null is not a parameter value")
	}
	return Value{}, fmt.Errorf("want a string, number or boolean, got %s", raw)
}

// number canonicalises a JSON number: integers keep their digits, others take the
// shortest text that reads back as the same float64.
func number(text string) (Value, error) {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return Value{'n', strconv.FormatInt(i, 10)}, nil
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		return Value{'n', strconv.FormatUint(u, 10)}, nil
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return Value{}, fmt.Errorf("%s is not a finite number", text)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return Value{'n', strconv.FormatInt(int64(f), 10)}, nil
	}
	return Value{'n', strconv.FormatFloat(f, 'g', -1, 64)}, nil
}

// parseCases reads an axis of cases: a list of objects, each with a "name" and the
// parameters it sets. ok is false when the axis is not a list of objects.
func parseCases(raw json.RawMessage) ([]Case, bool, error) {
	var list []json.RawMessage
	if err := strictDecode(raw, &list); err != nil || len(list) == 0 {
		return nil, false, nil
	}
	if t := bytes.TrimSpace(list[0]); len(t) == 0 || t[0] != '{' {
		return nil, false, nil
	}
	cases := make([]Case, len(list))
	seen := map[string]bool{}
	for i, e := range list {
		var m map[string]json.RawMessage
		if err := strictDecode(e, &m); err != nil {
			return nil, true, fmt.Errorf("value %d: want an object (a case) like the first", i)
		}
		var name string
		if err := json.Unmarshal(m["name"], &name); err != nil || name == "" {
			return nil, true, fmt.Errorf("value %d: a case needs a \"name\" string", i)
		}
		if seen[name] {
			return nil, true, fmt.Errorf("value %d: case %q appears twice", i, name)
		}
		seen[name] = true
		delete(m, "name")
		c := Case{Name: name, Params: map[string]Value{}}
		for _, k := range sortedKeys(m) {
			v, err := parseValue(m[k])
			if err != nil {
				return nil, true, fmt.Errorf("case %q: %s: %v", name, k, err)
			}
			c.Params[k] = v
		}
		cases[i] = c
	}
	return cases, true, nil
}

func parseAxis(raw json.RawMessage) ([]Value, error) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var list []json.RawMessage
		if err := strictDecode(raw, &list); err != nil {
			return nil, err
		}
		if len(list) == 0 {
			return nil, fmt.Errorf("empty axis")
		}
		vals := make([]Value, len(list))
		seen := map[Value]bool{}
		for i, e := range list {
			v, err := parseValue(e)
			if err != nil {
				return nil, fmt.Errorf("value %d: %v", i, err)
			}
			if seen[v] {
				return nil, fmt.Errorf("value %d: %s appears twice", i, v.Text)
			}
			seen[v] = true
			vals[i] = v
		}
		return vals, nil
	}
	var r map[string]json.Number
	if err := strictDecode(raw, &r); err != nil {
		return nil, fmt.Errorf("want a list of values or a range {\"from\", \"to\", \"step\" or \"factor\"}")
	}
	return expandRange(r)
}

// expandRange lists a range's values. from, to, step all integers: integer values.
// Otherwise value i is from + i*step, rounded to 12 significant digits so that 0.1
// steps give 0.3, not 0.30000000000000004; to is included when within 1e-9 steps.
func expandRange(r map[string]json.Number) ([]Value, error) {
	for k := range r {
		if k != "from" && k != "to" && k != "step" && k != "factor" {
			return nil, fmt.Errorf("range: unknown field %q (want from, to, step or factor)", k)
		}
	}
	get := func(k string) (float64, bool, error) {
		t, ok := r[k]
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(t.String(), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, true, fmt.Errorf("range: %s: %s is not a finite number", k, t)
		}
		return f, true, nil
	}
	from, okF, err := get("from")
	if err != nil {
		return nil, err
	}
	to, okT, err := get("to")
	if err != nil {
		return nil, err
	}
	step, okS, err := get("step")
	if err != nil {
		return nil, err
	}
	factor, okX, err := get("factor")
	if err != nil {
		return nil, err
	}
	switch {
	case !okF || !okT:
		return nil, fmt.Errorf("range: want both from and to")
	case okS == okX:
		return nil, fmt.Errorf("range: want exactly one of step and factor")
	case from > to:
		return nil, fmt.Errorf("range: from %v is above to %v", from, to)
	case okS && step <= 0:
		return nil, fmt.Errorf("range: step %v is not positive", step)
	case okX && (factor <= 1 || from <= 0):
		return nil, fmt.Errorf("range: a geometric range needs factor > 1 and from > 0")
	}
	if okX {
		// count before building (issue 26: a geometric range was refused only
		// after ten million values, 59 s and 1 GB)
		if n := math.Floor(math.Log(to*(1+1e-9)/from)/math.Log(factor)) + 1; !(n < MaxPoints) {
			return nil, fmt.Errorf("range: %.0f values, more than %d", n, MaxPoints)
		}
	}
	var vals []Value
	add := func(f float64) error {
		if len(vals) >= MaxPoints {
			return fmt.Errorf("range: more than %d values", MaxPoints)
		}
		v, err := number(strconv.FormatFloat(f, 'g', 12, 64))
		if err != nil {
			return err
		}
		vals = append(vals, v)
		return nil
	}
	if okS {
		n := math.Floor((to-from)/step + 1e-9)
		if n >= MaxPoints {
			return nil, fmt.Errorf("range: more than %d values", MaxPoints)
		}
		for i := 0; i <= int(n); i++ {
			if err := add(from + float64(i)*step); err != nil {
				return nil, err
			}
		}
		return vals, nil
	}
	for x := from; x <= to*(1+1e-9); x *= factor {
		if err := add(x); err != nil {
			return nil, err
		}
	}
	return vals, nil
}

// Hash identifies the spec's meaning (not its formatting): every record of a results
// file carries it, so that a file is never resumed or merged under another spec.
func (s *Spec) Hash() string {
	var b strings.Builder
	fmt.Fprintf(&b, "command=%q\nseed=%d\nreplications=%d\ntimeout=%d\n", s.Command, s.Seed, s.Replications, s.Timeout)
	for _, k := range sortedKeys(s.Params) {
		fmt.Fprintf(&b, "param %q=%c%q\n", k, s.Params[k].Kind, s.Params[k].Text)
	}
	for _, k := range sortedKeys(s.Axes) {
		fmt.Fprintf(&b, "axis %q", k)
		for _, v := range s.Axes[k] {
			fmt.Fprintf(&b, " %c%q", v.Kind, v.Text)
		}
		b.WriteByte('\n')
	}
	for _, k := range sortedKeys(s.Cases) {
		fmt.Fprintf(&b, "cases %q", k)
		for _, c := range s.Cases[k] {
			fmt.Fprintf(&b, " {%q", c.Name)
			for _, p := range sortedKeys(c.Params) {
				fmt.Fprintf(&b, " %q=%c%q", p, c.Params[p].Kind, c.Params[p].Text)
			}
			b.WriteString("}")
		}
		b.WriteByte('\n')
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

// Names lists every parameter that reaches the command (fixed, axes, and those the
// cases set), sorted, each with the spec field that sets it first.
func (s *Spec) Names() []Name {
	seen := map[string]string{}
	for k := range s.Params {
		seen[k] = "params." + k
	}
	for k := range s.Axes {
		seen[k] = "axes." + k
	}
	for _, k := range sortedKeys(s.Cases) {
		for i, c := range s.Cases[k] {
			for p := range c.Params {
				if _, ok := seen[p]; !ok {
					seen[p] = fmt.Sprintf("axes.%s[%d].%s", k, i, p)
				}
			}
		}
	}
	ns := make([]Name, 0, len(seen))
	for _, k := range sortedKeys(seen) {
		ns = append(ns, Name{k, seen[k]})
	}
	return ns
}

// Name is a parameter and the spec field that sets it ("axes.rate").
type Name struct{ Param, Field string }

// Has reports whether a point sets the parameter (fixed, axis or case).
func (s *Spec) Has(param string) bool {
	for _, n := range s.Names() {
		if n.Param == param {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
