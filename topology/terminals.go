package topology

// Terminals apart from routers. Dally and Towles (Principles and Practices of
// Interconnection Networks, 2004, section 7.1 and chapter 4) attach a terminal to a
// router by an injection channel and an ejection channel; a concentrated network
// attaches several terminals to one router (a concentrated mesh c, a flattened
// butterfly k, a dragonfly p), and a k-ary n-fly injects at its first stage and
// ejects at its last. The simulator gives every terminal its own injection and
// ejection port; routings see routers only.

// TerminalMap says where terminals attach. Terminals are numbered 0 .. Len()-1;
// terminal t injects at router In[t] by that router's injection port InPort[t] and
// ejects at router Out[t] by its ejection port OutPort[t]; Injectors[r] and
// Ejectors[r] count router r's injection and ejection ports. On every network but
// the butterfly In = Out and InPort = OutPort, and a router's terminals are
// numbered consecutively (router-major: router r's c terminals are c*r ..
// c*r+c-1 when every router has c), as BookSim2 numbers its dragonfly's and
// flattened butterfly's nodes router by router.
type TerminalMap struct {
	In, Out             []int32
	InPort, OutPort     []int32
	Injectors, Ejectors []int32
}

// Len is the number of terminals.
func (m *TerminalMap) Len() int { return len(m.In) }

// Local is the terminal at router r's ejection port k (the inverse of Out and
// OutPort), or -1. O(terminals).
func (m *TerminalMap) Local(r, k int) int {
	for t := range m.Out {
		if int(m.Out[t]) == r && int(m.OutPort[t]) == k {
			return t
		}
	}
	return -1
}

// concentrated builds the map of conc[r] terminals at router r, injecting and
// ejecting there, numbered router by router.
func concentrated(conc []int) *TerminalMap {
	m := &TerminalMap{Injectors: make([]int32, len(conc)), Ejectors: make([]int32, len(conc))}
	for r, c := range conc {
		for k := range c {
			m.In = append(m.In, int32(r))
			m.Out = append(m.Out, int32(r))
			m.InPort = append(m.InPort, int32(k))
			m.OutPort = append(m.OutPort, int32(k))
		}
		m.Injectors[r] = int32(c)
		m.Ejectors[r] = int32(c)
	}
	return m
}

// uniformConc is c terminals at each of n routers.
func uniformConc(n, c int) []int {
	conc := make([]int, n)
	for i := range conc {
		conc[i] = c
	}
	return conc
}

// setTerminals installs m in t, marking as terminals the routers with an
// injection or ejection port.
func (t *table) setTerminals(m *TerminalMap) {
	t.terms = m
	for r := range t.terminal {
		t.terminal[r] = m.Injectors[r] > 0 || m.Ejectors[r] > 0
	}
}

func (t *table) terminalMap() *TerminalMap { return t.terms }

// TerminalsOf returns where the terminals of n attach: the network's own map when
// it has one (shared: read it, do not change it), else one terminal at each router
// with Terminal true, numbered in router order (terminal i is the i-th terminal
// router: node i on a torus or mesh, processor i on a fat-tree), built in O(routers).
func TerminalsOf(n Network) *TerminalMap {
	if tm, ok := n.(interface{ terminalMap() *TerminalMap }); ok {
		if m := tm.terminalMap(); m != nil {
			return m
		}
	}
	conc := make([]int, n.Nodes())
	for r := range conc {
		if n.Terminal(r) {
			conc[r] = 1
		}
	}
	return concentrated(conc)
}

// Sources and Sinks list, in increasing order, the routers at which some terminal
// injects and at which some terminal ejects (both are Terminals(n) but on a
// butterfly): the pairs a routing must connect.
func Sources(n Network) []int { return attached(TerminalsOf(n).Injectors) }

// Sinks: see Sources.
func Sinks(n Network) []int { return attached(TerminalsOf(n).Ejectors) }

func attached(count []int32) []int {
	var rs []int
	for r, c := range count {
		if c > 0 {
			rs = append(rs, r)
		}
	}
	return rs
}

// Latency is the latency in cycles of the link leaving node by output port port
// when the network sets one (a dragonfly's local and global channels, a file's
// weighted links), else 0: the simulator's pipeline then decides.
func Latency(n Network, node, port int) int {
	if l, ok := n.(interface{ linkLatency(node, port int) int }); ok {
		return l.linkLatency(node, port)
	}
	return 0
}

func (t *table) linkLatency(node, port int) int {
	if t.lat == nil {
		return 0
	}
	return int(t.lat[node][port])
}
