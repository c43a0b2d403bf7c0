package figure

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The SVG checks read the drawn file back with encoding/xml and nothing of gonum's:
// they find the axis lines, the major tick marks and their labels, the series'
// lines, glyphs and legend entries by their drawing attributes, and map every data
// point through the tick labels to where it must appear.

type svgPath struct {
	pts    [][2]float64 // every coordinate pair of the path, y pointing up
	stroke string
	width  float64
	dash   string // stroke-dasharray ("" or "none": solid)
}

type svgText struct {
	x, y float64 // y pointing up (the file flips text back with scale(1,-1))
	size string
	text string
}

type svgDoc struct {
	paths []svgPath
	texts []svgText
}

var numRe = regexp.MustCompile(`-?[0-9.]+(?:e-?[0-9]+)?`)

func parseSVG(t *testing.T, data []byte) svgDoc {
	t.Helper()
	var doc svgDoc
	dec := xml.NewDecoder(bytes.NewReader(data))
	var inText *svgText
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			style := map[string]string{}
			for _, kv := range strings.Split(attr["style"], ";") {
				if k, v, ok := strings.Cut(kv, ":"); ok {
					style[k] = v
				}
			}
			switch el.Name.Local {
			case "path":
				p := svgPath{stroke: style["stroke"], dash: style["stroke-dasharray"]}
				p.width, _ = strconv.ParseFloat(style["stroke-width"], 64)
				// Arc commands carry radii and flags: keep only each command's endpoint.
				for _, cmd := range regexp.MustCompile(`[MLAZ][^MLAZ]*`).FindAllString(attr["d"], -1) {
					nums := numRe.FindAllString(cmd, -1)
					if len(nums) < 2 {
						continue
					}
					x, _ := strconv.ParseFloat(nums[len(nums)-2], 64)
					y, _ := strconv.ParseFloat(nums[len(nums)-1], 64)
					p.pts = append(p.pts, [2]float64{x, y})
				}
				doc.paths = append(doc.paths, p)
			case "text":
				x, _ := strconv.ParseFloat(attr["x"], 64)
				y, _ := strconv.ParseFloat(attr["y"], 64)
				inText = &svgText{x: x, y: -y, size: style["font-size"]}
			}
		case xml.CharData:
			if inText != nil {
				inText.text += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" && inText != nil {
				doc.texts = append(doc.texts, *inText)
				inText = nil
			}
		}
	}
	return doc
}

type box struct{ x0, x1, y0, y1 float64 }

func bbox(pts [][2]float64) box {
	b := box{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for _, p := range pts {
		b.x0, b.x1 = math.Min(b.x0, p[0]), math.Max(b.x1, p[0])
		b.y0, b.y1 = math.Min(b.y0, p[1]), math.Max(b.y1, p[1])
	}
	return b
}

// axes finds the x axis (the longest black horizontal line) and the y axis (the
// longest black vertical line) and returns the box they span.
func (d svgDoc) axes(t *testing.T) (xAxis, yAxis box) {
	t.Helper()
	bestX, bestY := -1.0, -1.0
	for _, p := range d.paths {
		if p.stroke != "#000000" || len(p.pts) != 2 {
			continue
		}
		b := bbox(p.pts)
		if b.y0 == b.y1 && b.x1-b.x0 > bestX {
			bestX, xAxis = b.x1-b.x0, b
		}
		if b.x0 == b.x1 && b.y1-b.y0 > bestY {
			bestY, yAxis = b.y1-b.y0, b
		}
	}
	require.Positive(t, bestX, "no x axis line")
	require.Positive(t, bestY, "no y axis line")
	return xAxis, yAxis
}

// scale maps data values to drawing coordinates along one axis, fitted through the
// major ticks (the longest tick marks) and their labels.
type scale struct{ a, b float64 }

func (s scale) at(v float64) float64 { return s.a + s.b*v }

func (d svgDoc) xScale(t *testing.T, xAxis box) scale {
	t.Helper()
	var ticks []float64
	longest := 0.0
	for _, p := range d.paths {
		b := bbox(p.pts)
		if p.stroke == "#000000" && len(p.pts) == 2 && b.x0 == b.x1 && b.y1 == xAxis.y0 && b.y1-b.y0 > 0 {
			switch l := b.y1 - b.y0; {
			case l > longest+1e-9:
				longest, ticks = l, []float64{b.x0}
			case math.Abs(l-longest) < 1e-9:
				ticks = append(ticks, b.x0)
			}
		}
	}
	var labels []svgText
	for _, tx := range d.texts {
		if tx.size == "10px" && tx.y < xAxis.y0 {
			labels = append(labels, tx)
		}
	}
	return fit(t, "x", ticks, labels, func(tx svgText) float64 { return tx.x })
}

func (d svgDoc) yScale(t *testing.T, yAxis box) scale {
	t.Helper()
	var ticks []float64
	longest := 0.0
	for _, p := range d.paths {
		b := bbox(p.pts)
		if p.stroke == "#000000" && len(p.pts) == 2 && b.y0 == b.y1 && b.x1 == yAxis.x0 && b.x1-b.x0 > 0 {
			switch l := b.x1 - b.x0; {
			case l > longest+1e-9:
				longest, ticks = l, []float64{b.y0}
			case math.Abs(l-longest) < 1e-9:
				ticks = append(ticks, b.y0)
			}
		}
	}
	var labels []svgText
	for _, tx := range d.texts {
		if tx.size == "10px" && tx.x < yAxis.x0 && tx.y > yAxis.y0-5 {
			labels = append(labels, tx)
		}
	}
	return fit(t, "y", ticks, labels, func(tx svgText) float64 { return tx.y })
}

func fit(t *testing.T, axis string, ticks []float64, labels []svgText, pos func(svgText) float64) scale {
	t.Helper()
	require.GreaterOrEqual(t, len(ticks), 2, "%s axis: major ticks", axis)
	require.Len(t, labels, len(ticks), "%s axis: one label per major tick", axis)
	sort.Float64s(ticks)
	sort.Slice(labels, func(i, j int) bool { return pos(labels[i]) < pos(labels[j]) })
	v0, err := strconv.ParseFloat(labels[0].text, 64)
	require.NoError(t, err)
	v1, err := strconv.ParseFloat(labels[len(labels)-1].text, 64)
	require.NoError(t, err)
	b := (ticks[len(ticks)-1] - ticks[0]) / (v1 - v0)
	return scale{ticks[0] - b*v0, b}
}

// seriesColours are the stroke colours of the series' lines (the thick strokes).
func (d svgDoc) seriesColours() map[string]int {
	cs := map[string]int{}
	for _, p := range d.paths {
		if p.width > 1 && p.stroke != "#000000" && p.stroke != "#808080" {
			cs[p.stroke]++
		}
	}
	return cs
}

// glyphs are the closed thin outlines (points and legend samples) of one colour.
func (d svgDoc) glyphs(colour string) []box {
	var gs []box
	for _, p := range d.paths {
		if p.stroke == colour && p.width == 0.5 {
			gs = append(gs, bbox(p.pts))
		}
	}
	return gs
}

func TestSVGAxesSeriesPoints(t *testing.T) {
	var in strings.Builder
	// Three routings, five loads each, two replications: latency rises with load.
	for r, routing := range []string{"dor", "duato", "west-first"} {
		for i := 1; i <= 5; i++ {
			for rep := 0; rep < 2; rep++ {
				fmt.Fprintf(&in, `{"key":"k","params":{"rate":%g,"routing":%q},"seed":%d,"status":"ok","values":{"latency":{"mean":%g}}}`+"\n",
					0.05*float64(i), routing, rep, 10+float64(r)+float64(i*i)+float64(rep))
			}
		}
	}
	in.WriteString(`{"key":"x","params":{"rate":0.3,"routing":"dor"},"status":"failed","message":"deadlock"}` + "\n")
	rows, err := ReadRows(strings.NewReader(in.String()))
	require.NoError(t, err)
	f, err := Build(rows, Options{X: "rate", Y: "latency.mean", Series: "routing", Title: "latency"})
	require.NoError(t, err)
	require.Equal(t, []string{"1 failed record(s)"}, f.Skipped)
	var out bytes.Buffer
	require.NoError(t, Draw(&out, f, "svg", DefaultWidth, DefaultHeight))
	doc := parseSVG(t, out.Bytes())

	xAxis, yAxis := doc.axes(t)
	sx, sy := doc.xScale(t, xAxis), doc.yScale(t, yAxis)
	colours := doc.seriesColours()
	require.Len(t, colours, 3, "one colour per value of --series")
	for c, n := range colours {
		require.Equal(t, 2, n, "colour %s: the series line and its legend sample", c)
	}
	var legend []string
	for _, tx := range doc.texts {
		if tx.size == "12px" && tx.text != "latency" && tx.text != Label("rate") && tx.text != Label("latency.mean") {
			legend = append(legend, tx.text)
		}
	}
	require.ElementsMatch(t, []string{"dor", "duato", "west-first"}, legend)

	const tol = 0.6 // points: the file rounds to 5 significant digits
	used := map[string]bool{}
	for r := range 3 {
		// Find the colour whose glyphs sit on this routing's points.
		var want [][2]float64
		for i := 1; i <= 5; i++ {
			y := 10 + float64(r) + float64(i*i) + 0.5
			want = append(want, [2]float64{sx.at(0.05 * float64(i)), sy.at(y)})
		}
		found := ""
		for c := range colours {
			gs := doc.glyphs(c)
			hit := 0
			for _, w := range want {
				for _, g := range gs {
					if math.Abs((g.x0+g.x1)/2-w[0]) < 3 && math.Abs((g.y0+g.y1)/2-w[1]) < 3 && w[1] >= g.y0-tol && w[1] <= g.y1+tol && w[0] >= g.x0-tol && w[0] <= g.x1+tol {
						hit++
						break
					}
				}
			}
			if hit == len(want) {
				found = c
			}
		}
		require.NotEmpty(t, found, "series %d: no colour has a glyph at every point", r)
		require.False(t, used[found])
		used[found] = true
		require.Len(t, doc.glyphs(found), 5+1, "five points and the legend sample")
		for _, g := range doc.glyphs(found) {
			cx, cy := (g.x0+g.x1)/2, (g.y0+g.y1)/2
			require.True(t, cx >= xAxis.x0-tol && cx <= xAxis.x1+tol && cy >= yAxis.y0-tol && cy <= yAxis.y1+tol,
				"glyph at (%.1f, %.1f) outside the axes [%.1f, %.1f] x [%.1f, %.1f]", cx, cy, xAxis.x0, xAxis.x1, yAxis.y0, yAxis.y1)
		}
	}
}
