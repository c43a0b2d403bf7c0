package figure

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// look is how a series is drawn: its colour, the glyph at its points and its
// line's dash pattern (none: solid).
type look struct {
	colour color.Color
	glyph  draw.GlyphDrawer
	dashes []vg.Length
}

var (
	nColours = len(plotutil.DefaultColors)      // 7
	nGlyphs  = len(plotutil.DefaultGlyphShapes) // 8
	nDashes  = len(plotutil.DefaultDashes)      // 9, the first solid
)

// Looks is how many series places have looks of their own: the places below it
// differ in colour, glyph or dashes, pairwise.
var Looks = nColours * nDashes

// lookOf is the look of the series at place k (its place in Keys, or in Series):
// the colour cycles with k, the dash pattern changes each round of the colours,
// and the glyph moves on two places a round, so that places k and k+7, which share
// a colour, differ in glyph (k + 2 round mod 8) and in dashes. Place k's colour and
// dashes are k mod 7 and k div 7, a pair no other place below Looks has; the first
// seven places are solid lines with plotutil's colours and glyphs in order.
func lookOf(k int) look {
	round := k / nColours
	return look{
		colour: plotutil.Color(k),
		glyph:  plotutil.Shape(k + 2*round),
		dashes: plotutil.Dashes(round),
	}
}
