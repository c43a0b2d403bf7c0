package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/simulator.md quotes the saturation throughputs of the golden
// sim-saturation: the golden must still print them.
func TestDocsQuoteSaturationGolden(t *testing.T) {
	golden, err := os.ReadFile("testdata/script/sim-saturation.txt")
	require.NoError(t, err)
	doc, err := os.ReadFile("../../docs/simulator.md")
	require.NoError(t, err)
	for _, row := range []struct{ routing, lo, hi, through string }{
		{"dor", "0.6562", "0.6719", "0.6856"},
		{"westfirst", "0.6406", "0.6562", "0.6492"},
	} {
		var line string
		for _, l := range strings.Split(string(golden), "\n") {
			if strings.HasPrefix(l, row.routing+" ") {
				line = l
			}
		}
		f := strings.Fields(line)
		require.Len(t, f, 6, "golden row %q", line)
		require.Equal(t, []string{row.lo, row.hi, row.through}, []string{f[1], f[2], f[4]}, row.routing)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	for _, quote := range []string{"stable to 0.656 and delivers 0.686 overloaded", "delivers 0.649 overloaded"} {
		require.Contains(t, text, quote)
	}
}
