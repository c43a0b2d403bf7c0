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
	case v[0] > v[1]:
		return nil, fmt.Errorf("%q: FROM is above TO", s)
	case (v[1]-v[0])/v[2] > 100000:
		return nil, fmt.Errorf("%q: more than 100000 rates", s)
	}
	var xs []float64
	for i := 0; ; i++ {
		x := math.Round((v[0]+float64(i)*v[2])*1e12) / 1e12
		if x > v[1]+1e-12 {
			return xs, nil
		}
		xs = append(xs, x)
	}
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
