package docfig

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 20000: "20,000",
		123456: "123,456", 1234567: "1,234,567", -1000: "-1,000", -123456: "-123,456", -12: "-12"} {
		require.Equal(t, want, Thousands(n), "%d", n)
	}
	// the commas removed, the number reads back; groups after the first are three digits
	for _, n := range []int{1, 12, 123, 1234, 12345, 123456789, -98765} {
		s := Thousands(n)
		back, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
		require.NoError(t, err)
		require.Equal(t, n, back)
		for _, g := range strings.Split(s, ",")[1:] {
			require.Len(t, g, 3, s)
		}
	}
}
