package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseRange reads FROM:TO:STEP (the --rates of sim and model): FROM, FROM+STEP, ...
// up to TO, rounded to 12 decimals so that 0.1:0.3:0.1 ends at 0.3; the caller
// checks the values themselves.
func parseRange(s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, fmt.Errorf("%q: want FROM:TO:STEP", s)
	}
	var v [3]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a number", p)
		}
		v[i] = x
	}
	switch {
	case v[2] == 0:
		return nil, fmt.Errorf("%q: the step is zero", s)
	case v[2] < 0:
		return nil, fmt.Errorf("%q: the step is negative", s)
	case v[2] < 1e-12:
		// values are rounded to 12 decimals: a finer step repeats them (issue 26:
		// 0.001:0.001:1e-13 printed 15 identical rows)
		return nil, fmt.Errorf("%q: the step is below 1e-12, the values' rounding", s)
	case v[0] > v[1]:
		return nil, fmt.Errorf("%q: FROM is above TO", s)
	}
	// count before building (issue 26: with FROM = TO the count was skipped and a
	// step of 1e-300 never ended)
	n := math.Floor((v[1]-v[0])/v[2]+1e-9) + 1
	if n > 100000 {
		return nil, fmt.Errorf("%q: %.0f rates, more than 100000", s, n)
	}
	xs := make([]float64, 0, int(n))
	for i := 0; i < int(n); i++ {
		xs = append(xs, math.Round((v[0]+float64(i)*v[2])*1e12)/1e12)
	}
	return xs, nil
}

// parseRateList reads one rate, a list A,B,C or a range FROM:TO:STEP.
func parseRateList(s string) ([]float64, error) {
	if strings.Contains(s, ":") {
		return parseRange(s)
	}
	var xs []float64
	for _, p := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%q is not a number", p)
		}
		xs = append(xs, x)
	}
	return xs, nil
}
