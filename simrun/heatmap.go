package simrun

import (
	"fmt"
	"io"
	"math"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// MaxDrawn bounds the routers of a drawing placed by a layout (a torus or mesh of
// 1 to 3 dimensions is drawn as a grid at any size).
const MaxDrawn = 2048

// Heatmap is a run's drawing: a torus or mesh of 1 to 3 dimensions as a grid
// (figure.Heatmap), any other network with its routers placed by the first of
// layouts that knows its kind (figure.Graph).
type Heatmap struct {
	Grid  *figure.GridMap
	Graph *figure.GraphMap
}

// Draw writes the drawing as SVG.
func (h *Heatmap) Draw(w io.Writer) error {
	if h.Grid != nil {
		return figure.Heatmap(w, *h.Grid)
	}
	return figure.Graph(w, *h.Graph)
}

// layout places the routers of one kind of network in the unit square: nil when
// net is not of its kind; note says how to read the drawing.
type layout interface {
	place(net topology.Network) (pos []figure.XY, note string)
}

// layouts are tried in order; the circle, last, places any network.
var layouts = []layout{dragonflyLayout{}, levelLayout{}, hyperxLayout{}, circleLayout{}}

// isGrid reports a torus or mesh of 1 to 3 dimensions.
func isGrid(net topology.Network) (*topology.Grid, bool) {
	g, ok := net.(*topology.Grid)
	return g, ok && g.Dims() <= 3
}

// CheckHeatmap says whether r's network can be drawn: a torus or mesh of 1 to 3
// dimensions at any size, another network up to MaxDrawn routers (the error
// names the topology).
func CheckHeatmap(r *Run) error {
	net, err := topology.Parse(r.Topology)
	if err != nil {
		return errf("topology", "%v", err)
	}
	if _, ok := isGrid(net); ok {
		return nil
	}
	if n := net.Nodes(); n > MaxDrawn {
		return &Error{"heatmap", fmt.Sprintf("%s has %d routers: too many to draw (at most %d; tori and meshes of 1 to 3 dimensions have no bound)", r.Topology, n, MaxDrawn)}
	}
	return nil
}

// HeatmapOf is a run's heatmap: every router coloured by the mean latency of the
// packets its terminals sent (grey when none, or when the point is saturated), every channel
// by its utilisation over the measured window. res must hold the channels and the
// per-node statistics (Measure.Nodes).
func HeatmapOf(r *Run, res *sim.Result, title string) (*Heatmap, error) {
	if err := CheckHeatmap(r); err != nil {
		return nil, err
	}
	net, _ := topology.Parse(r.Topology)
	node := make([]float64, net.Nodes())
	for v := range node {
		node[v] = math.NaN()
	}
	// per-node statistics are per terminal: a router's colour is the mean over the
	// packets of its terminals (a concentrated mesh has several)
	tm := topology.TerminalsOf(net)
	sum, n := make([]float64, net.Nodes()), make([]int64, net.Nodes())
	for _, ns := range res.Nodes {
		if ns.LatencySrc != nil {
			r := tm.In[ns.Node]
			sum[r] += *ns.LatencySrc * float64(ns.PacketsSrc)
			n[r] += ns.PacketsSrc
		}
	}
	for r := range node {
		if n[r] > 0 {
			node[r] = sum[r] / float64(n[r])
		}
	}
	var links []figure.LinkValue
	for _, c := range res.Channels {
		if next, _ := net.Link(c.Node, c.Port); next >= 0 {
			links = append(links, figure.LinkValue{From: c.Node, To: next, Value: c.Util})
		}
	}
	const nodeLabel, linkLabel = "mean latency of its packets (cycles)", "utilisation (flits/cycle)"
	if g, ok := isGrid(net); ok {
		m := &figure.GridMap{Wrap: g.Wrap(), Title: title, Node: node, Links: links, NodeLabel: nodeLabel, LinkLabel: linkLabel}
		for i := range g.Dims() {
			m.Sides = append(m.Sides, g.Side(i))
		}
		return &Heatmap{Grid: m}, nil
	}
	for _, l := range layouts {
		if pos, note := l.place(net); pos != nil {
			return &Heatmap{Graph: &figure.GraphMap{Pos: pos, Note: note, Title: title, Node: node, Links: links,
				NodeLabel: nodeLabel, LinkLabel: linkLabel}}, nil
		}
	}
	return nil, &Error{"heatmap", r.Topology + ": no layout"} // the circle places any network
}
