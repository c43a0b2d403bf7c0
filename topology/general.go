package topology

import "github.com/wormlab/wormlab/model"

// General is a MODEL.md network as routers: output ports are a node's outgoing
// edges in edge order, input ports its incoming edges in edge order, and every node
// is a terminal. It is what the simulator runs a MODEL.md instance on.
type General struct {
	table
	net  *model.Network
	port []int   // port[e]: the output port of edge e at its tail
	in   []int   // in[e]: the input port of edge e at its head
	edge [][]int // edge[v][p]: the edge leaving v by port p
	spec string  // the spec it was read from ("file:net.json"), else "model"
}

var _ Network = (*General)(nil)

// FromModel wraps a MODEL.md network.
func FromModel(net *model.Network) *General {
	n := len(net.Nodes)
	g := &General{net: net, port: make([]int, len(net.Edges)), in: make([]int, len(net.Edges)), edge: make([][]int, n)}
	g.out = make([][]link, n)
	g.inPorts = make([]int32, n)
	g.terminal = make([]bool, n)
	for e, ed := range net.Edges {
		g.port[e] = len(g.edge[ed.From])
		g.edge[ed.From] = append(g.edge[ed.From], e)
		g.in[e] = int(g.inPorts[ed.To])
		g.inPorts[ed.To]++
	}
	for v := range n {
		g.terminal[v] = true
		g.out[v] = make([]link, len(g.edge[v]))
		for p, e := range g.edge[v] {
			g.out[v][p] = link{int32(net.Edges[e].To), int32(g.in[e])}
		}
	}
	return g
}

// PortOf is the output port by which edge e leaves its tail node.
func (g *General) PortOf(e int) int { return g.port[e] }

// Edge is the edge that leaves v by output port p.
func (g *General) Edge(v, p int) int { return g.edge[v][p] }

// NodeName is the MODEL.md node name.
func (g *General) NodeName(v int) string { return g.net.Nodes[v] }

func (g *General) String() string {
	if g.spec != "" {
		return g.spec
	}
	return "model"
}
