package simrun

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// MaxValues bounds the values one flag may expand to.
const MaxValues = 100000

// Values reads one occurrence of the parameter's flag: a single value, a list
// A,B,C (not for parameters whose values hold commas: repeat the flag for those),
// or, for numbers, a range FROM:TO:STEP (FROM, FROM+STEP, ... up to TO, floats
// rounded to 12 decimals so that 0.1:0.3:0.1 ends at 0.3). Each value is checked
// by Set. The error does not name the parameter.
func (p *Param) Values(text string) ([]string, error) {
	var vals []string
	switch {
	case p.Kind != String && p.Kind != Bool && strings.Count(text, ":") == 2 && !strings.Contains(text, ","):
		xs, err := Range(text, p.Kind == Float)
		if err != nil {
			return nil, err
		}
		vals = xs
	case p.Commas:
		vals = []string{text}
	case p.Specs:
		vals = splitSpecs(text)
	default:
		vals = strings.Split(text, ",")
	}
	var scratch Run
	seen := make(map[string]bool, len(vals)) // a map: 10^5 values compared pairwise took seconds
	for i, v := range vals {
		if strings.TrimSpace(v) == "" {
			if len(vals) == 1 {
				return nil, fmt.Errorf("empty value")
			}
			return nil, fmt.Errorf("%q: item %d of the list is empty", text, i+1)
		}
		if err := p.set(&scratch, v); err != nil {
			if len(vals) > 1 {
				return nil, fmt.Errorf("item %d of %q: %v", i+1, text, err)
			}
			return nil, err
		}
		if seen[v] {
			return nil, fmt.Errorf("%q: %s appears twice", text, v)
		}
		seen[v] = true
	}
	return vals, nil
}

// Range expands FROM:TO:STEP (integers unless float): an error names what is wrong
// (a zero or negative step, FROM above TO, more than MaxValues values).
func Range(s string, float bool) ([]string, error) { return rangeAs(s, s, float) }

// rangeAs is Range whose errors quote the range as given, given (--trace-packets'
// FROM:TO, read as FROM:TO:1).
func rangeAs(s, given string, float bool) ([]string, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want FROM:TO:STEP", given)
	}
	if !float {
		var v [3]int64
		for i, p := range parts {
			n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not an integer", p)
			}
			v[i] = n
		}
		if err := checkRange(given, float64(v[0]), float64(v[1]), float64(v[2])); err != nil {
			return nil, err
		}
		var out []string
		for x := v[0]; x <= v[1]; x += v[2] {
			out = append(out, strconv.FormatInt(x, 10))
			if x > math.MaxInt64-v[2] {
				break
			}
		}
		return out, nil
	}
	var v [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a number", p)
		}
		v[i] = x
	}
	if err := checkRange(given, v[0], v[1], v[2]); err != nil {
		return nil, err
	}
	if v[2] < 1e-12 {
		// values are rounded to 12 decimals: a finer step repeats them
		return nil, fmt.Errorf("%q: the step is below 1e-12, the values' rounding", given)
	}
	// counted before built: with FROM = TO a step of 1e-300 never ended (issue 26)
	n := int(math.Floor((v[1]-v[0])/v[2]+1e-9)) + 1
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, fmtFloat(math.Round((v[0]+float64(i)*v[2])*1e12)/1e12))
	}
	return out, nil
}

func checkRange(s string, from, to, step float64) error {
	switch {
	case step == 0:
		return fmt.Errorf("%q: the step is zero", s)
	case step < 0:
		return fmt.Errorf("%q: the step is negative", s)
	case from > to:
		return fmt.Errorf("%q: FROM is above TO", s)
	case math.Floor((to-from)/step+1e-9) >= MaxValues:
		return fmt.Errorf("%q: more than %d values", s, MaxValues)
	}
	return nil
}

// splitSpecs splits a list of specs, KIND:PARAMS,KIND:PARAMS, at the commas that
// begin a new KIND: (an item without a colon continues the spec before it, as the
// p=4 of dragonfly:a=8,p=4,h=4).
func splitSpecs(text string) []string {
	var out []string
	for _, f := range strings.Split(text, ",") {
		if len(out) > 0 && !strings.Contains(f, ":") {
			out[len(out)-1] += "," + f
		} else {
			out = append(out, f)
		}
	}
	return out
}
