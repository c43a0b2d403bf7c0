package topology

// A network from a file in the MODEL.md style ("file:net.json"): the JSON of a
// MODEL.md network (nodes, edges; an instance file is read for its "network"), each
// node a router and each edge a unidirectional link (a bidirected link is two
// edges), with two optional fields beside them:
//
//	{"nodes": ["a", "b", "c"],
//	 "edges": [["a", "b"], ["b", "a"], ["b", "c"], ["c", "b"]],
//	 "terminals": {"a": 2, "c": 1},
//	 "latency": [1, 1, 10, 10]}
//
// terminals gives a router's number of terminals (absent: one at every router;
// present: none at a router it omits); latency gives each edge's link latency in
// cycles, in edge order (absent: the pipeline's). Ports follow General: a router's
// output ports are its outgoing edges in edge order, its input ports its incoming
// edges in edge order; terminals are numbered router by router in node order.
//
// Refused, with the field or edge named: a node listed twice (a duplicate router),
// an edge naming a node not listed (a dangling link) or with fewer or more than two
// ends, an edge from a node to itself, a terminal count for an unknown router or
// below 0, a latency list of the wrong length or with a value below 1 or above
// MaxLatency, and no terminal at all.

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wormlab/wormlab/model"
)

func init() {
	registerKind("file", "file:net.json", func(path string) (Network, error) {
		data, err := readNetFile(path)
		if err != nil {
			return nil, &SpecError{Field: "file", Msg: err.Error()}
		}
		g, err := ReadNetworkFile(data)
		if err != nil {
			return nil, &SpecError{Field: "file " + path, Msg: err.Error()}
		}
		g.spec = "file:" + path
		return g, nil
	})
}

type netFile struct {
	Network   json.RawMessage `json:"network"`
	Nodes     []string        `json:"nodes"`
	Edges     [][]string      `json:"edges"`
	Terminals map[string]int  `json:"terminals"`
	Latency   []int           `json:"latency"`
}

// ReadNetworkFile reads a network file of the MODEL.md style.
func ReadNetworkFile(data []byte) (*General, error) {
	var f netFile
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a network object: %v", err)
	}
	if len(f.Network) > 0 {
		inner := f
		inner.Network = nil
		if err := json.Unmarshal(f.Network, &inner); err != nil {
			return nil, fmt.Errorf("network: %v", err)
		}
		f = inner
	}
	net := &model.Network{}
	for _, name := range f.Nodes {
		if _, dup := net.Node(name); dup {
			return nil, fmt.Errorf("nodes: router %q listed twice", name)
		}
		net.AddNode(name)
	}
	for e, pair := range f.Edges {
		if len(pair) != 2 {
			return nil, fmt.Errorf("edges[%d]: want [from, to], got %d names", e, len(pair))
		}
		var ends [2]int
		for j, name := range pair {
			i, ok := net.Node(name)
			if !ok {
				if f.Nodes != nil {
					return nil, fmt.Errorf("edges[%d] [%s, %s]: dangling link: no router %q", e, pair[0], pair[1], name)
				}
				i = net.AddNode(name)
			}
			ends[j] = i
		}
		if ends[0] == ends[1] {
			return nil, fmt.Errorf("edges[%d] [%s, %s]: a link from a router to itself", e, pair[0], pair[1])
		}
		net.AddEdge(ends[0], ends[1])
	}
	if len(net.Nodes) == 0 {
		return nil, fmt.Errorf("no routers")
	}
	conc := uniformConc(len(net.Nodes), 1)
	if f.Terminals != nil {
		conc = make([]int, len(net.Nodes))
		for name, c := range f.Terminals {
			v, ok := net.Node(name)
			if !ok {
				return nil, fmt.Errorf("terminals: no router %q", name)
			}
			if c < 0 {
				return nil, fmt.Errorf("terminals: router %q: %d below 0", name, c)
			}
			conc[v] = c
		}
	}
	var lat []int
	if f.Latency != nil {
		if len(f.Latency) != len(net.Edges) {
			return nil, fmt.Errorf("latency: %d values for %d edges", len(f.Latency), len(net.Edges))
		}
		for e, l := range f.Latency {
			if l < 1 {
				return nil, fmt.Errorf("latency[%d]: %d below 1", e, l)
			}
			if l > MaxLatency {
				return nil, fmt.Errorf("latency[%d]: %d above %d", e, l, MaxLatency)
			}
		}
		lat = f.Latency
	}
	return fromModel(net, conc, lat)
}

// fromModel wraps net with conc[v] terminals at router v and lat[e] the latency of
// edge e (nil: the pipeline's), after checking sizes.
func fromModel(net *model.Network, conc, lat []int) (*General, error) {
	total := 0
	for v, c := range conc {
		total += c
		if len(net.Out(v)) > 62 || len(net.In(v)) > 62 {
			return nil, fmt.Errorf("router %q has more than 62 links", net.Nodes[v])
		}
	}
	if total == 0 {
		return nil, fmt.Errorf("no terminals")
	}
	if len(net.Nodes) > MaxNodes || total > MaxNodes {
		return nil, fmt.Errorf("more than %d routers or terminals", MaxNodes)
	}
	g := FromModel(net)
	if lat != nil {
		g.lat = make([][]int32, len(net.Nodes))
		for v := range g.lat {
			g.lat[v] = make([]int32, len(g.edge[v]))
			for p, e := range g.edge[v] {
				g.lat[v][p] = int32(lat[e])
			}
		}
	}
	g.setTerminals(concentrated(conc))
	return g, nil
}
