package simrun

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// On a concentrated mesh the per-node statistics are the terminals' (four a
// router): a router's heatmap colour is the mean latency over its terminals'
// packets, weighted by their counts, and a router none of whose terminals sent
// anything stays grey (NaN).
func TestHeatmapOfConcentratedMesh(t *testing.T) {
	r := Default()
	r.Topology = "cmesh:2x2,c=4"
	f := func(x float64) *float64 { return &x }
	res := &sim.Result{Nodes: []sim.NodeStats{
		{Node: 0, LatencySrc: f(10), PacketsSrc: 1}, {Node: 3, LatencySrc: f(40), PacketsSrc: 3}, // router 0
		{Node: 5, LatencySrc: f(20), PacketsSrc: 2}, // router 1
	}}
	m, err := HeatmapOf(&r, res, "")
	require.NoError(t, err)
	require.Len(t, m.Grid.Node, 4)
	require.InDelta(t, 32.5, m.Grid.Node[0], 1e-9)
	require.InDelta(t, 20, m.Grid.Node[1], 1e-9)
	require.True(t, math.IsNaN(m.Grid.Node[2]) && math.IsNaN(m.Grid.Node[3]))
}

// Every kind of network has a drawing: tori and meshes of 1 to 3 dimensions (a
// concentrated mesh too) as grids, the others placed by their layout, every
// router inside the square and no two at one place, every channel drawn; a
// network above MaxDrawn routers is refused naming --heatmap.
func TestHeatmapLayouts(t *testing.T) {
	for spec, note := range map[string]string{
		"torus:4x4":     "",
		"cmesh:2x2,c=4": "",
		"mesh:2x2x2":    "",
		"dragonfly:p=2": "groups on a circle",
		"dragonfly:a=4,p=2,h=2,arrangement=palmtree": "groups on a circle",
		"fattree:16":      "levels from the root",
		"fly:k=2,n=3":     "stages from the top",
		"flatfly:k=4,n=3": "routers by their coordinates",
		"hyperx:4x3,t=2":  "routers by their coordinates",
		"hyperx:3x3x2":    "routers on a circle",
		"torus:2x2x2x2":   "routers on a circle",
		"anynet:../topology/testdata/tree.anynet": "routers on a circle",
	} {
		r := Default()
		r.Topology = spec
		net, err := topology.Parse(spec)
		require.NoError(t, err, spec)
		res := &sim.Result{}
		links := 0
		for v := range net.Nodes() {
			for p := range net.Ports(v) {
				if next, _ := net.Link(v, p); next >= 0 {
					res.Channels = append(res.Channels, sim.ChannelUse{Node: v, Port: p, Util: float64(links % 7)})
					links++
				}
			}
		}
		h, err := HeatmapOf(&r, res, spec)
		require.NoError(t, err, spec)
		var out bytes.Buffer
		require.NoError(t, h.Draw(&out), spec)
		if note == "" {
			require.NotNil(t, h.Grid, spec)
			require.Len(t, h.Grid.Links, links, spec)
			continue
		}
		require.Nil(t, h.Grid, spec)
		g := h.Graph
		require.Contains(t, g.Note, note, spec)
		require.Len(t, g.Pos, net.Nodes(), spec)
		require.Len(t, g.Links, links, spec)
		require.Equal(t, net.Nodes(), strings.Count(out.String(), "<circle"), spec)
		require.Equal(t, links, strings.Count(out.String(), "<path"), spec)
		seen := map[[2]int64]bool{}
		for v, p := range g.Pos {
			require.True(t, p.X >= 0 && p.X <= 1 && p.Y >= 0 && p.Y <= 1, "%s: router %d at %v", spec, v, p)
			key := [2]int64{int64(p.X * 1e6), int64(p.Y * 1e6)}
			require.False(t, seen[key], "%s: router %d shares its place", spec, v)
			seen[key] = true
		}
	}
	r := Default()
	r.Topology = "dragonfly:p=8"
	require.EqualError(t, CheckHeatmap(&r), "--heatmap: dragonfly:p=8 has 2064 routers: too many to draw (at most 2048; tori and meshes of 1 to 3 dimensions have no bound)")
}
