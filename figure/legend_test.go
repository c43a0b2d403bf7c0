package figure

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// Keys fix a series's look across figures: "b" has one colour whether it is drawn
// with "a" and "c" or alone; without Keys a lone series takes the first colour.
// A legend outside stands right of the x axis's end: no legend text or sample
// inside the plot area, every series name in the strip.
func TestKeysAndOutsideLegend(t *testing.T) {
	mk := func(names ...string) *Figure {
		f := &Figure{Title: "t", XLabel: "x (cycles)", YLabel: "y (cycles)", Keys: []string{"a", "b", "c"}, Legend: "outside"}
		for k, n := range names {
			s := Series{Name: n}
			for i := 1; i <= 4; i++ {
				s.Points = append(s.Points, Point{X: float64(i), Y: float64(i*i + k), N: 1})
			}
			f.Series = append(f.Series, s)
		}
		return f
	}
	colour := func(f *Figure) (map[string]int, svgDoc) {
		var out bytes.Buffer
		require.NoError(t, Draw(&out, f, "svg", DefaultWidth, DefaultHeight))
		doc := parseSVG(t, out.Bytes())
		return doc.seriesColours(), doc
	}
	all, doc := colour(mk("a", "b", "c"))
	require.Len(t, all, 3)
	xAxis, _ := doc.axes(t)
	names := 0
	for _, tx := range doc.texts {
		switch tx.text {
		case "a", "b", "c":
			names++
			require.Greater(t, tx.x, xAxis.x1, "legend entry %q inside the plot area", tx.text)
		}
	}
	require.Equal(t, 3, names)
	alone, _ := colour(mk("b"))
	require.Len(t, alone, 1)
	var b string
	for c := range alone {
		b = c
	}
	f := mk("b")
	f.Keys = nil
	first, _ := colour(f)
	require.NotContains(t, first, b, "without Keys the lone series takes the first colour, not b's")
	_, ok := all[b]
	require.True(t, ok, "b keeps its colour when drawn alone")
}
