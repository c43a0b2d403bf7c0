package figure

import (
	"bytes"
	"fmt"
	"image/color"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Lemma: the places below Looks have looks of their own, pairwise: place k's
// colour and dash pattern are k mod 7 and k div 7, so two places below 7 x 9
// differ in one or the other; and places k and k+7, which share a colour, differ
// in glyph too (k + 2 (k div 7) mod 8 moves on by 1). Checked over every pair.
func TestLooksDistinct(t *testing.T) {
	require.GreaterOrEqual(t, Looks, 7*8, "as many looks as 7 colours times 8 glyphs")
	same := func(a, b look) bool {
		return reflect.DeepEqual(a.colour, b.colour) && reflect.TypeOf(a.glyph) == reflect.TypeOf(b.glyph) && reflect.DeepEqual(a.dashes, b.dashes)
	}
	for j := 0; j < Looks; j++ {
		for k := j + 1; k < Looks; k++ {
			require.False(t, same(lookOf(j), lookOf(k)), "places %d and %d share a look", j, k)
		}
		if j+nColours < Looks {
			require.NotEqual(t, reflect.TypeOf(lookOf(j).glyph), reflect.TypeOf(lookOf(j+nColours).glyph), "places %d and %d: one colour, one glyph", j, j+nColours)
		}
	}
	// the first seven are solid (the committed figures of up to seven series keep
	// their look)
	for k := 0; k < nColours; k++ {
		require.Empty(t, lookOf(k).dashes, "place %d", k)
	}
}

// No two series of one figure share a look, for every number of series up to
// Looks: drawn, every series's line has a colour and dash pattern no other
// series's line has (read back from the SVG), with and without Keys, and with Keys
// that name only some of the series (the others take places after the keys).
func TestSeriesLooksDistinctInFigure(t *testing.T) {
	mk := func(n int, keys []string) *Figure {
		f := &Figure{Title: "t", XLabel: "x", YLabel: "y", Keys: keys, Legend: "outside"}
		for i := 0; i < n; i++ {
			f.Series = append(f.Series, Series{Name: fmt.Sprintf("s%d", i),
				Points: []Point{{X: 1, Y: float64(i), N: 1}, {X: 2, Y: float64(i) + 0.5, N: 1}}})
		}
		return f
	}
	for _, c := range []struct {
		n    int
		keys []string
	}{
		{1, nil}, {7, nil}, {8, nil}, {15, nil}, {Looks, nil},
		{9, []string{"s8", "s0", "s3"}},  // keyed series first in the places
		{12, []string{"x", "s11", "y"}},  // keys the figure lacks hold their places
		{10, []string{"s1", "s1", "s2"}}, // a repeated key
	} {
		var out bytes.Buffer
		require.NoError(t, Draw(&out, mk(c.n, c.keys), "svg", DefaultWidth, DefaultHeight))
		lines := map[string]bool{}
		for _, p := range parseSVG(t, out.Bytes()).paths {
			if p.width > 1 && p.stroke != "#000000" && p.stroke != "#808080" {
				dash := p.dash
				if dash == "none" {
					dash = ""
				}
				lines[p.stroke+" "+dash] = true
			}
		}
		require.Len(t, lines, c.n, "%d series, keys %v: lines of distinct colour and dashes", c.n, c.keys)
	}
}

// The mark of a saturated point is drawn unlike every series' glyph: each glyph
// of the looks below Looks, drawn alone at the same place and size, gives other
// SVG than the mark (the mark was once plotutil's cross, the glyph of place 3).
func TestSaturatedMarkUnlikeGlyphs(t *testing.T) {
	drawn := func(g draw.GlyphDrawer) string {
		c := vgsvg.New(20, 20)
		g.DrawGlyph(&draw.Canvas{Canvas: c}, draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: g}, vg.Point{X: 10, Y: 10})
		var b bytes.Buffer
		_, err := c.WriteTo(&b)
		require.NoError(t, err)
		return b.String()
	}
	mark := drawn(satMark)
	for k := range Looks {
		require.NotEqual(t, mark, drawn(lookOf(k).glyph), "place %d's glyph is the saturated mark", k)
	}
}
