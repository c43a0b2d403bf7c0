package figure

import (
	"bytes"
	"encoding/xml"
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
