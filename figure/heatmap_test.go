package figure

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// svgCounts parses an SVG and counts its elements by name, and collects the fill
// of the rects and the stroke of the lines whose tooltip starts with prefix.
func svgCounts(t *testing.T, b []byte) (map[string]int, map[string]string) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	count := map[string]int{}
	colour := map[string]string{}
	var last xml.StartElement
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "well-formed XML")
		switch e := tok.(type) {
		case xml.StartElement:
			count[e.Name.Local]++
			if e.Name.Local != "title" {
				last = e
			}
		case xml.CharData:
			text := string(e)
			if strings.HasPrefix(text, "node ") || strings.Contains(text, " -> ") {
				want := "fill"
				if last.Name.Local == "line" {
					want = "stroke"
				}
				for _, a := range last.Attr {
					if a.Name.Local == want {
						colour[strings.SplitN(text, ":", 2)[0]] = a.Value
					}
				}
			}
		}
	}
	return count, colour
}

// A 3x2 torus: six nodes, each coloured by its value (the largest darkest, a NaN
// grey), every channel drawn (a wrap channel as two stubs), the busiest darkest.
func TestHeatmap(t *testing.T) {
	g := GridMap{Sides: []int{3, 2}, Wrap: true, Node: []float64{10, 20, 30, 40, 50, math.NaN()},
		NodeLabel: "latency (cycles)", LinkLabel: "utilisation", Title: "a torus"}
	g.Links = []LinkValue{{0, 1, 0.1}, {1, 2, 0.9}, {2, 0, 0.5}, {0, 3, 0.2}}
	var b bytes.Buffer
	require.NoError(t, Heatmap(&b, g))
	count, colour := svgCounts(t, b.Bytes())
	require.Equal(t, reds(1), colour["node 4"])
	require.Equal(t, reds(0), colour["node 0"])
	require.Equal(t, "#cccccc", colour["node 5"])
	require.Equal(t, blues(1), colour["1 -> 2"])
	require.Equal(t, blues(0), colour["0 -> 1"])
	require.Equal(t, 5, count["line"], "four channels, the wrap one in two stubs")
	require.Contains(t, b.String(), "nodes: latency (cycles)")
	require.Contains(t, b.String(), "channels: utilisation")

	g.Sides = []int{2, 2, 2, 2}
	g.Node = make([]float64, 16)
	require.ErrorContains(t, Heatmap(&b, g), "4-dimensional grid has no 2-D drawing")
}

// Graph draws a disc per node at its place and a curve per channel, bending to
// the right of its direction (so a link's two directions do not overlap); bad
// maps are errors, not drawings.
func TestGraph(t *testing.T) {
	g := GraphMap{Pos: []XY{{0, 0.5}, {1, 0.5}}, Node: []float64{1, math.NaN()},
		Links: []LinkValue{{0, 1, 0.5}, {1, 0, 0.25}}, NodeLabel: "latency", LinkLabel: "use", Title: "two", Note: "a note"}
	var b bytes.Buffer
	require.NoError(t, Graph(&b, g))
	svg := b.String()
	require.Equal(t, 2, strings.Count(svg, "<circle"))
	require.Equal(t, 2, strings.Count(svg, "<path"))
	require.Contains(t, svg, "node 1: latency none")
	require.Contains(t, svg, "a note")
	// 0 -> 1 runs rightwards: its control point is below the line (y down), the
	// way back above it
	var y [2]float64
	for _, line := range strings.Split(svg, "\n") {
		if strings.HasPrefix(line, "<path") {
			var ax, ay, cx, cy, bx, by float64
			_, err := fmt.Sscanf(line[strings.Index(line, `d="`)+3:], "M%f %f Q%f %f %f %f", &ax, &ay, &cx, &cy, &bx, &by)
			require.NoError(t, err)
			if ax < bx {
				y[0] = cy - ay
			} else {
				y[1] = cy - ay
			}
		}
	}
	require.Positive(t, y[0])
	require.Negative(t, y[1])
	g.Node = g.Node[:1]
	require.EqualError(t, Graph(&b, g), "1 node values for 2 nodes")
	g.Node = []float64{1, 2}
	g.Links = append(g.Links, LinkValue{0, 2, 1})
	require.EqualError(t, Graph(&b, g), "channel 0 -> 2: no such node (2 nodes)")
}
