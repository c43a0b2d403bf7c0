// Package docfig is how wormlab's docs write their figures, for the tests that
// check a doc's prose against the figures a program or a committed run gives:
// whole numbers with a comma every three digits (Thousands).
package docfig

import "strconv"

// Thousands writes n with a comma every three digits, as the docs do: 20000 is
// "20,000", -1234567 "-1,234,567".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
