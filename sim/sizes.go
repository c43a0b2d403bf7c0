package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Sizes is a packet size distribution: Flits[i] with probability proportional to
// Weight[i] (fixed sizes: one entry).
type Sizes struct {
	Flits  []int
	Weight []float64
}

// Fixed is the distribution of one size.
func Fixed(l int) Sizes { return Sizes{Flits: []int{l}, Weight: []float64{1}} }

// ParseSizes reads "16", "1,16" (equally likely) or "1:0.8,16:0.2" (weights).
func ParseSizes(s string) (Sizes, error) {
	var z Sizes
	for _, part := range strings.Split(s, ",") {
		f, w, hasW := strings.Cut(part, ":")
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || l < 1 || l > MaxFlits {
			return z, fmt.Errorf("size %q is not a whole number of flits from 1 to %d", f, MaxFlits)
		}
		wt := 1.0
		if hasW {
			wt, err = strconv.ParseFloat(w, 64)
			if err != nil || !(wt > 0) || math.IsInf(wt, 0) {
				return z, fmt.Errorf("weight %q of size %d is not a finite positive number", w, l)
			}
		}
		if slices.Contains(z.Flits, l) {
			return z, fmt.Errorf("size %d appears twice", l)
		}
		z.Flits = append(z.Flits, l)
		z.Weight = append(z.Weight, wt)
	}
	if total := z.total(); math.IsInf(total, 0) {
		return z, fmt.Errorf("the weights' sum %g is not finite", total)
	}
	return z, nil
}

// Mean is the mean size in flits.
func (z Sizes) Mean() float64 {
	// the weights normalised first: size times weight overflowed for weights
	// near the largest float (FuzzParseSizes: "2:1e308" had mean +Inf)
	w := z.total()
	s := 0.0
	for i, l := range z.Flits {
		s += float64(l) * (z.Weight[i] / w)
	}
	return s
}

func (z Sizes) check() error {
	if len(z.Flits) == 0 || len(z.Flits) != len(z.Weight) {
		return &ConfigError{"sizes", "no sizes, or sizes and weights of different lengths"}
	}
	for i, l := range z.Flits {
		if l < 1 || l > MaxFlits || !(z.Weight[i] > 0) || math.IsInf(z.Weight[i], 0) {
			return &ConfigError{"sizes", fmt.Sprintf("size %d weight %g: want 1 to %d flits and a finite positive weight", l, z.Weight[i], MaxFlits)}
		}
	}
	if math.IsInf(z.total(), 0) {
		return &ConfigError{"sizes", "the weights' sum is not finite"}
	}
	return nil
}

func (z Sizes) draw(r *rand.Rand) int {
	if len(z.Flits) == 1 {
		return z.Flits[0]
	}
	w := 0.0
	for _, x := range z.Weight {
		w += x
	}
	u := r.Float64() * w
	for i, x := range z.Weight {
		if u < x {
			return z.Flits[i]
		}
		u -= x
	}
	return z.Flits[len(z.Flits)-1]
}

func (z Sizes) String() string {
	var b strings.Builder
	for i, l := range z.Flits {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(l))
		if len(z.Flits) > 1 {
			b.WriteString(":" + strconv.FormatFloat(z.Weight[i], 'g', -1, 64))
		}
	}
	return b.String()
}

func (z Sizes) total() float64 {
	w := 0.0
	for _, x := range z.Weight {
		w += x
	}
	return w
}
