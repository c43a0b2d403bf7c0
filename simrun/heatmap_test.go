package simrun

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
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
	require.Len(t, m.Node, 4)
	require.InDelta(t, 32.5, m.Node[0], 1e-9)
	require.InDelta(t, 20, m.Node[1], 1e-9)
	require.True(t, math.IsNaN(m.Node[2]) && math.IsNaN(m.Node[3]))
}
