package sim

import (
	"math"
	"testing"
)

// FuzzParseSizes reads fuzzed --flits mixes (issue 26: "1:Inf,16:1" reached the
// rate as NaN): never a panic; a mix read has sizes from 1 to MaxFlits and
// finite positive weights of finite sum, passes the run's own check, has a mean
// between its least and largest size, and prints as a mix that reads back to it.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"16", "1,16", "1:0.8,16:0.2", "1:Inf,16:1", "1:NaN", "0", "-3", "16,", ",", "1e3", "4:1e400", "4,4", "2147483648", "1:1e308,2:1e308", " 4 :1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		z, err := ParseSizes(s)
		if err != nil {
			return
		}
		if err := z.check(); err != nil {
			t.Fatalf("%q reads as %v, which the run refuses: %v", s, z, err)
		}
		lo, hi := z.Flits[0], z.Flits[0]
		for i, l := range z.Flits {
			if l < 1 || l > MaxFlits || !(z.Weight[i] > 0) || math.IsInf(z.Weight[i], 0) {
				t.Fatalf("%q: size %d weight %g", s, l, z.Weight[i])
			}
			lo, hi = min(lo, l), max(hi, l)
		}
		if m := z.Mean(); !(m >= float64(lo)*(1-1e-12) && m <= float64(hi)*(1+1e-12)) {
			t.Fatalf("%q: mean %g outside [%d, %d]", s, m, lo, hi)
		}
		again, err := ParseSizes(z.String())
		if err != nil || len(again.Flits) != len(z.Flits) {
			t.Fatalf("%q prints as %q, which reads as %v, %v", s, z.String(), again, err)
		}
		for i := range z.Flits {
			if again.Flits[i] != z.Flits[i] || (len(z.Flits) > 1 && again.Weight[i] != z.Weight[i]) {
				t.Fatalf("%q prints as %q, which reads as %v", s, z.String(), again)
			}
		}
	})
}
