package model

// Use is one message's use of an edge: message index Msg (into Instance.Messages)
// crosses the edge as e_{Pos+1} of its path.
type Use struct {
	Msg, Pos int
}

// Users returns, for each edge, the messages that use it, in message order. Cost
// O(sum of path lengths + edges).
func (in *Instance) Users() [][]Use {
	users := make([][]Use, len(in.Net.Edges))
	for i := range in.Messages {
		for k, e := range in.Messages[i].Path {
			users[e] = append(users[e], Use{i, k})
		}
	}
	return users
}

// Measures are the congestion and dilation figures of an instance, each with a
// witness (an edge or a message index, -1 when there is none).
type Measures struct {
	// Load[e] = c_e, the number of messages whose path uses edge e.
	Load []int
	// FlitLoad[e] = sum of L over the messages using edge e.
	FlitLoad []int
	// C is the message congestion max_e c_e, attained at CEdge.
	C, CEdge int
	// CL is the flit congestion max_e FlitLoad[e], attained at CLEdge.
	CL, CLEdge int
	// D is the dilation max_i d_i, attained by message DMsg.
	D, DMsg int
	// LMax is the largest message length.
	LMax int
	// TotalFlits is the sum of L over all messages; Holdings the sum of d_i + L_i,
	// the number of (edge, time) holdings a verifier must examine.
	TotalFlits, Holdings int
}

// Measure computes the instance's loads, congestion and dilation in O(sum d_i + edges).
func (in *Instance) Measure() Measures {
	m := newMeasures(len(in.Net.Edges))
	for i := range in.Messages {
		measureMessage(&m, i, in.Messages[i].Path, in.Messages[i].L)
	}
	m.congestion()
	return m
}

// newMeasures returns the measures of no message on a network of edges edges.
func newMeasures(edges int) Measures {
	return Measures{Load: make([]int, edges), FlitLoad: make([]int, edges), CEdge: -1, CLEdge: -1, DMsg: -1}
}

// measureMessage counts message i, of path path and length l, in m (all but congestion).
func measureMessage(m *Measures, i int, path []int, l int) {
	for _, e := range path {
		m.Load[e]++
		m.FlitLoad[e] += l
	}
	m.countMessage(i, len(path), l)
}

// countMessage counts message i, of d hops and length l, in m's dilation,
// lengths and holdings: measureMessage's count but for the edges' loads, which
// Paths.measure counts in its own records.
func (m *Measures) countMessage(i, d, l int) {
	if d > m.D {
		m.D, m.DMsg = d, i
	}
	m.LMax = max(m.LMax, l)
	m.TotalFlits += l
	m.Holdings += d + l
}

// congestion sets C, CL and their edges from the loads.
func (m *Measures) congestion() {
	for e := range m.Load {
		if m.Load[e] > m.C {
			m.C, m.CEdge = m.Load[e], e
		}
		if m.FlitLoad[e] > m.CL {
			m.CL, m.CLEdge = m.FlitLoad[e], e
		}
	}
}
