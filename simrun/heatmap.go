package simrun

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// CheckHeatmap says whether r's network has a heatmap: a torus or mesh of 1 to 3
// dimensions (the error names the topology).
func CheckHeatmap(r *Run) error {
	net, err := topology.Parse(r.Topology)
	if err != nil {
		return errf("topology", "%v", err)
	}
	g, ok := net.(*topology.Grid)
	if !ok || g.Dims() > 3 {
		return &Error{"heatmap", fmt.Sprintf("%s has no 2-D drawing (tori and meshes of 1 to 3 dimensions have one)", r.Topology)}
	}
	return nil
}

// HeatmapOf is a run's heatmap: every router coloured by the mean latency of the
// packets its terminals sent (grey when none, or when the point is saturated), every channel
// by its utilisation over the measured window. res must hold the channels and the
// per-node statistics (Measure.Nodes).
func HeatmapOf(r *Run, res *sim.Result, title string) (figure.GridMap, error) {
	if err := CheckHeatmap(r); err != nil {
		return figure.GridMap{}, err
	}
	net, _ := topology.Parse(r.Topology)
	g := net.(*topology.Grid)
	m := figure.GridMap{Wrap: g.Wrap(), Title: title,
		NodeLabel: "mean latency of its packets (cycles)", LinkLabel: "utilisation (flits/cycle)"}
	for i := range g.Dims() {
		m.Sides = append(m.Sides, g.Side(i))
	}
	m.Node = make([]float64, g.Nodes())
	for v := range m.Node {
		m.Node[v] = math.NaN()
	}
	// per-node statistics are per terminal: a router's colour is the mean over the
	// packets of its terminals (a concentrated mesh has several)
	tm := topology.TerminalsOf(net)
	sum, n := make([]float64, g.Nodes()), make([]int64, g.Nodes())
	for _, ns := range res.Nodes {
		if ns.LatencySrc != nil {
			r := tm.In[ns.Node]
			sum[r] += *ns.LatencySrc * float64(ns.PacketsSrc)
			n[r] += ns.PacketsSrc
		}
	}
	for r := range m.Node {
		if n[r] > 0 {
			m.Node[r] = sum[r] / float64(n[r])
		}
	}
	for _, c := range res.Channels {
		next, _ := g.Link(c.Node, c.Port)
		if next >= 0 {
			m.Links = append(m.Links, figure.LinkValue{From: c.Node, To: next, Value: c.Util})
		}
	}
	return m, nil
}
