package model

import (
	"encoding/json"
	"fmt"
)

// Extra holds the JSON fields of an object that wormlab does not interpret. They are
// written back unchanged.
type Extra map[string]json.RawMessage

// Message is a worm: an id, a path of edge indices e_1 .. e_d, and a length L >= 1 in
// flits.
type Message struct {
	ID   string
	Path []int
	L    int
	// AsEdges makes the JSON writer give the path as edge indices ("edges"); otherwise
	// it is written as node names ("path") whenever no hop is ambiguous.
	AsEdges bool
	Extra   Extra
}

// D returns the message's path length d_i.
func (m *Message) D() int { return len(m.Path) }

// Instance is a routing problem: a network and a batch of messages on fixed paths.
type Instance struct {
	Name string
	Net  *Network
	// Flits is the default message length written at the top level; every Message
	// carries its resolved length in L.
	Flits    int
	Messages []Message
	Extra    Extra
}

// MaxTotalFlits bounds sum_i L_i over an instance's messages, so that every measure
// (c_L, total flits) and lower bound (at most d + sum_i L_i) is exact in an int.
const MaxTotalFlits = 1 << 62

// Validate checks everything MODEL.md requires of an instance: edges name existing
// nodes, ids are unique and non-empty, every path is a non-empty walk over existing
// edges that uses no edge twice, and every length is at least 1 (and, beyond
// MODEL.md, the lengths sum to at most MaxTotalFlits). The error names the message
// and the hop or edge at fault.
func (in *Instance) Validate() error {
	if in.Net == nil {
		return fmt.Errorf("instance: no network")
	}
	net := in.Net
	if err := net.validate(); err != nil {
		return err
	}
	if in.Flits < 0 {
		return fmt.Errorf("instance: field \"flits\": %d is below 1", in.Flits)
	}
	ids := make(map[string]bool, len(in.Messages))
	used := make([]int, len(net.Edges)) // edge -> 1 + index of the last message using it
	flits := 0                          // sum of L_i so far, at most MaxTotalFlits
	for i := range in.Messages {
		m := &in.Messages[i]
		if m.ID == "" {
			return fmt.Errorf("instance: message #%d: empty id", i)
		}
		if ids[m.ID] {
			return fmt.Errorf("instance: message %q: duplicate id", m.ID)
		}
		ids[m.ID] = true
		if m.L < 1 {
			return fmt.Errorf("instance: message %q: flits %d is below 1", m.ID, m.L)
		}
		if m.L > MaxTotalFlits-flits {
			return fmt.Errorf("instance: message %q: flits %d: the lengths of the messages sum to more than %d", m.ID, m.L, MaxTotalFlits)
		}
		flits += m.L
		if len(m.Path) == 0 {
			return fmt.Errorf("instance: message %q: empty path", m.ID)
		}
		for k, e := range m.Path {
			if e < 0 || e >= len(net.Edges) {
				return fmt.Errorf("instance: message %q: edge index %d out of range (network has %d edges)", m.ID, e, len(net.Edges))
			}
			if k > 0 {
				prev := net.Edges[m.Path[k-1]]
				if prev.To != net.Edges[e].From {
					return fmt.Errorf("instance: message %q: not a walk: edge %d (%s) does not start where edge %d (%s) ends",
						m.ID, e, net.EdgeName(e), m.Path[k-1], net.EdgeName(m.Path[k-1]))
				}
			}
			if used[e] == i+1 {
				return fmt.Errorf("instance: message %q: path uses edge %d (%s) twice", m.ID, e, net.EdgeName(e))
			}
			used[e] = i + 1
		}
	}
	return nil
}

// validate checks that node names are unique and edges join existing nodes.
func (net *Network) validate() error {
	seenName := make(map[string]bool, len(net.Nodes))
	for _, name := range net.Nodes {
		if seenName[name] {
			return fmt.Errorf("instance: network: duplicate node %q", name)
		}
		seenName[name] = true
	}
	for e, ed := range net.Edges {
		if ed.From < 0 || ed.From >= len(net.Nodes) || ed.To < 0 || ed.To >= len(net.Nodes) {
			return fmt.Errorf("instance: network: edge %d: node index out of range", e)
		}
	}
	return nil
}

// Index returns a map from message id to message index.
func (in *Instance) Index() map[string]int {
	idx := make(map[string]int, len(in.Messages))
	for i := range in.Messages {
		idx[in.Messages[i].ID] = i
	}
	return idx
}

// PathFromNodes resolves a walk given by node names into edge indices. It fails on an
// unknown node, a hop with no edge, and a hop with parallel edges (ambiguous).
func (n *Network) PathFromNodes(names []string) ([]int, error) {
	if len(names) < 2 {
		return nil, fmt.Errorf("path %q: needs at least two nodes", names)
	}
	path := make([]int, 0, len(names)-1)
	prev, ok := n.Node(names[0])
	if !ok {
		return nil, fmt.Errorf("unknown node %q", names[0])
	}
	for _, name := range names[1:] {
		cur, ok := n.Node(name)
		if !ok {
			return nil, fmt.Errorf("unknown node %q", name)
		}
		e, count := n.edgeBetween(prev, cur)
		switch count {
		case 0:
			return nil, fmt.Errorf("hop %s->%s: no such edge", n.Nodes[prev], name)
		case 1:
			path = append(path, e)
		default:
			return nil, fmt.Errorf("hop %s->%s: ambiguous, %d parallel edges (give the path as edge indices)", n.Nodes[prev], name, count)
		}
		prev = cur
	}
	return path, nil
}

// NodesOf returns the node names a path visits (d+1 names).
func (n *Network) NodesOf(path []int) []string {
	if len(path) == 0 {
		return nil
	}
	names := make([]string, 0, len(path)+1)
	names = append(names, n.Nodes[n.Edges[path[0]].From])
	for _, e := range path {
		names = append(names, n.Nodes[n.Edges[e].To])
	}
	return names
}

// Clone returns a deep copy of the instance's messages sharing the network (networks
// are not modified by algorithms).
func (in *Instance) Clone() *Instance {
	out := *in
	out.Messages = make([]Message, len(in.Messages))
	for i, m := range in.Messages {
		m.Path = append([]int(nil), m.Path...)
		out.Messages[i] = m
	}
	return &out
}
