package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// fattree --delay R is refused outside 1..MaxFlits with the range it takes
// (R = 0 is refused, so a refusal of 10^6 saying "outside 0..65536" named a
// range that was not the command's), exit 2.
func TestFatTreeDelayRange(t *testing.T) {
	for _, d := range []string{"0", "-3", "65537", "1000000"} {
		code, _, errs := runArgs("fattree", "--delay", d)
		require.Equal(t, 2, code, "--delay %s: %s", d, errs)
		require.Contains(t, errs, "--delay: "+d+" outside 1..65536 (1: no initial delay)")
	}
}
