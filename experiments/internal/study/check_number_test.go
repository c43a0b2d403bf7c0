package study

import (
	"regexp"
	"testing"

	"pgregory.net/rapid"
)

// Lemma: holdsNumber(s, n) is the match of (^|[^0-9.])n($|[^0-9]) in s, the
// regular expression Unheld once compiled for every figure, on strings of
// digits, points, percent signs, signs and spaces.
func TestHoldsNumberIsTheBoundedMatch(t *testing.T) {
	alphabet := rapid.SampledFrom([]rune("0123456789.%+- a"))
	rapid.Check(t, func(t *rapid.T) {
		s := string(rapid.SliceOfN(alphabet, 0, 24).Draw(t, "summary"))
		n := string(rapid.SliceOfN(alphabet, 1, 5).Draw(t, "n"))
		if len(s) > 0 && rapid.Bool().Draw(t, "from the summary") {
			i := rapid.IntRange(0, len(s)-1).Draw(t, "start")
			n = s[i:rapid.IntRange(i+1, len(s)).Draw(t, "end")]
		}
		want := regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(n) + `($|[^0-9])`).MatchString(s)
		if got := holdsNumber(s, n); got != want {
			t.Fatalf("holdsNumber(%q, %q) = %v, the bounded match %v", s, n, got, want)
		}
	})
}
