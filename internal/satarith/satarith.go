// Package satarith adds and multiplies memory estimates without overflow: a
// result past 2^62 stays 2^62, so an estimate of an absurd input still compares
// greater than any budget (issue 26). The limits of sim, fattree and the wormlab
// command share it.
package satarith

// Max is the saturation point, 2^62.
const Max = int64(1) << 62

// Mul is a * b, or Max when larger; 0 when either is not positive.
func Mul(a, b int64) int64 {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > Max/b {
		return Max
	}
	return a * b
}

// Add is the sum of xs, or Max when larger (or when a term overflows it).
func Add(xs ...int64) int64 {
	s := int64(0)
	for _, x := range xs {
		if s += x; s > Max || s < 0 {
			return Max
		}
	}
	return s
}
