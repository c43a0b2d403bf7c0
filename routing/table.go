package routing

// Routing tables read from a file: the routing function as data, R(router,
// destination, input channel) -> choices, the form in which Duato's theory states
// routing functions (J. Duato, IEEE TPDS 6(10), 1995: the input channel and the
// destination decide the output channels) and which Verbeek and Schmaltz's
// decision procedure checks (IEEE TPDS 25(8), 2014; docs/deadlock.md cites both
// as far as their abstracts go). A table lets a user check and simulate a
// routing wormlab does not implement, on any network wormlab reads, and what was
// proved deadlock-free (`wormlab deadlock --routing table:FILE`) is what runs
// (`wormlab sim --routing table:FILE`). The format is in docs/routing-table.md;
// ReadTable checks it, naming the entry at fault.
//
// A table routing keeps no state of its own: Start and Advance do nothing, and
// Route reads only the header's destination, input port and VC (both -1 at the
// source), which the simulator keeps.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// TableFormat is the value of a table file's "format" field.
const TableFormat = "wormlab-routing-table/1"

// maxTableSlots bounds the dense index (routers^2 x inputs x VCs) of a table.
const maxTableSlots = 1 << 27

// Table is a routing function given as a table: for every router, destination,
// input (the injection port or a network input port) and input VC, the choices.
type Table struct {
	net  topology.Network
	name string // the file, for messages
	spec string // the topology spec or "network" (an inline MODEL.md network)
	vcs  int
	n    int // routers
	in   int // input slots per router: 1 (injection) + the most input ports
	// index[((at*n+dst)*in+slot)*vcs+vc] is 1 + the entry deciding that state, 0
	// where the table has none.
	index []int32
	// per entry: its choices, the VCs of each choice the escape subfunction owns,
	// and its place in the file ("routes[3]")
	choices [][]sim.Choice
	escape  [][]uint64
	where   []string
	hasEsc  bool
	// routers where packets inject and eject (topology.Sources, Sinks)
	source, sink []bool
}

var _ sim.Routing = (*Table)(nil)

// TableError is a table that cannot be read or used: the file, the entry
// ("routes[3].choices[1].port") or state at fault, and what is wrong.
type TableError struct {
	File, Where, Msg string
}

func (e *TableError) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("routing table %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("routing table %s: %s: %s", e.File, e.Where, e.Msg)
}

// tableFile is the JSON of a table file.
type tableFile struct {
	Format   string          `json:"format"`
	Topology string          `json:"topology,omitempty"`
	Network  json.RawMessage `json:"network,omitempty"`
	VCs      int             `json:"vcs"`
	Routes   []tableRoute    `json:"routes"`
}

type tableRoute struct {
	At      json.RawMessage `json:"at"`
	Dst     json.RawMessage `json:"dst"`
	In      json.RawMessage `json:"in,omitempty"`
	From    json.RawMessage `json:"from,omitempty"`
	VC      *int            `json:"vc,omitempty"`
	Choices []tableChoice   `json:"choices"`
}

type tableChoice struct {
	Port   json.RawMessage `json:"port,omitempty"`
	To     json.RawMessage `json:"to,omitempty"`
	Edge   *int            `json:"edge,omitempty"`
	VCs    []int           `json:"vcs,omitempty"`
	Pri    int             `json:"pri,omitempty"`
	Escape []int           `json:"escape,omitempty"`
}

// LoadTable reads the table in file path (see ReadTable).
func LoadTable(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &TableError{File: path, Msg: err.Error()}
	}
	defer f.Close()
	return ReadTable(f, path)
}

// ReadTable reads a routing table (name labels messages), builds its network and
// checks it: every entry names routers, ports and VCs that exist and choices that
// stay on the network; no two entries decide the same state; every state a packet
// can reach from any source to any destination has an entry; and no packet can be
// routed in a loop (every route ends at its destination whatever choices are
// taken).
func ReadTable(r io.Reader, name string) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<30))
	if err != nil {
		return nil, &TableError{File: name, Msg: err.Error()}
	}
	var tf tableFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		return nil, &TableError{File: name, Msg: "not a routing table: " + jsonMsg(err)}
	}
	if tf.Format != TableFormat {
		return nil, &TableError{File: name, Where: "format", Msg: fmt.Sprintf("%q, want %q", tf.Format, TableFormat)}
	}
	t := &Table{name: name, vcs: tf.VCs}
	switch {
	case tf.Topology != "" && tf.Network != nil:
		return nil, &TableError{File: name, Msg: "give \"topology\" or \"network\", not both"}
	case tf.Topology != "":
		net, err := topology.Parse(tf.Topology)
		if err != nil {
			return nil, &TableError{File: name, Where: "topology", Msg: err.Error()}
		}
		t.net, t.spec = net, tf.Topology
	case tf.Network != nil:
		in, err := model.ParseInstance([]byte(`{"network":` + string(tf.Network) + `,"messages":[]}`))
		if err != nil {
			return nil, &TableError{File: name, Where: "network", Msg: strings.TrimPrefix(err.Error(), "instance: network: ")}
		}
		t.net, t.spec = topology.FromModel(in.Net), "network"
	default:
		return nil, &TableError{File: name, Msg: "no \"topology\" and no \"network\""}
	}
	if t.vcs < 1 || t.vcs > 64 {
		return nil, &TableError{File: name, Where: "vcs", Msg: fmt.Sprintf("%d outside 1..64", t.vcs)}
	}
	t.n = t.net.Nodes()
	t.source, t.sink = make([]bool, t.n), make([]bool, t.n)
	for _, v := range topology.Sources(t.net) {
		t.source[v] = true
	}
	for _, v := range topology.Sinks(t.net) {
		t.sink[v] = true
	}
	for v := range t.n {
		t.in = max(t.in, t.net.InPorts(v)+1)
	}
	if slots := int64(t.n) * int64(t.n) * int64(t.in) * int64(t.vcs); slots > maxTableSlots {
		return nil, &TableError{File: name, Msg: fmt.Sprintf("%d routers, %d inputs and %d VCs make %d states, above %d", t.n, t.in, t.vcs, slots, maxTableSlots)}
	}
	t.index = make([]int32, t.n*t.n*t.in*t.vcs)
	names := map[string]int{}
	for v := range t.n {
		names[topology.NodeName(t.net, v)] = v
	}
	// Entries fill their states most general first, so that a more specific entry
	// (an input, then an input VC) overrides; two entries of one level on one
	// state are an error.
	level := make([]uint8, len(t.index))
	ps := make([]routeKey, len(tf.Routes))
	for i, rt := range tf.Routes {
		where := fmt.Sprintf("routes[%d]", i)
		p, err := t.parseRoute(rt, names, where)
		if err != nil {
			return nil, err
		}
		ps[i] = p
		ch, esc, err := t.parseChoices(rt.Choices, p.at, names, where)
		if err != nil {
			return nil, err
		}
		t.choices = append(t.choices, ch)
		t.escape = append(t.escape, esc)
		t.where = append(t.where, where)
	}
	for lv := uint8(1); lv <= 3; lv++ {
		for i, p := range ps {
			l := uint8(1)
			if p.slot >= 0 {
				l = 2
				if p.vc >= 0 {
					l = 3
				}
			}
			if l != lv {
				continue
			}
			for _, dst := range p.dsts {
				for slot := range t.in {
					if p.slot >= 0 && slot != p.slot {
						continue
					}
					for vc := range t.vcs {
						if (p.vc >= 0 && vc != p.vc) || (slot == 0 && vc > 0) {
							continue
						}
						k := t.key(p.at, dst, slot, vc)
						if level[k] == lv {
							return nil, &TableError{File: name, Where: t.where[i], Msg: fmt.Sprintf("decides the state of %s already decided by %s", t.stateName(p.at, dst, slot, vc), t.where[t.index[k]-1])}
						}
						level[k] = lv
						t.index[k] = int32(i + 1)
					}
				}
			}
		}
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// routeKey is what an entry decides: router at, destinations dsts, input slot
// (0 injection, p+1 input port p, -1 every input) and input VC (-1 every VC).
type routeKey struct {
	at, slot, vc int
	dsts         []int
}

// parseRoute reads an entry's router, destinations and input.
func (t *Table) parseRoute(rt tableRoute, names map[string]int, where string) (routeKey, error) {
	bad := func(field, format string, a ...any) error {
		return &TableError{File: t.name, Where: where + "." + field, Msg: fmt.Sprintf(format, a...)}
	}
	if rt.At == nil {
		return routeKey{}, bad("at", "missing")
	}
	at, err := t.node(rt.At, names)
	if err != nil {
		return routeKey{}, bad("at", "%v", err)
	}
	k := routeKey{at: at, slot: -1, vc: -1}
	if rt.Dst == nil {
		return routeKey{}, bad("dst", "missing")
	}
	var list []json.RawMessage
	if json.Unmarshal(rt.Dst, &list) != nil {
		list = []json.RawMessage{rt.Dst}
	}
	if len(list) == 0 {
		return routeKey{}, bad("dst", "an empty list")
	}
	for j, raw := range list {
		d, err := t.node(raw, names)
		if err != nil {
			return routeKey{}, bad("dst", "%v", err)
		}
		if !t.sink[d] {
			return routeKey{}, bad("dst", "%s is not a router where packets eject (no packet is sent to it)", topology.NodeName(t.net, d))
		}
		if d == at {
			return routeKey{}, bad("dst", "%s is the router itself (a packet there is delivered, not routed)", topology.NodeName(t.net, d))
		}
		if len(list) > 1 && j > 0 {
			for _, e := range k.dsts {
				if e == d {
					return routeKey{}, bad("dst", "%s listed twice", topology.NodeName(t.net, d))
				}
			}
		}
		k.dsts = append(k.dsts, d)
	}
	if rt.In != nil && rt.From != nil {
		return routeKey{}, bad("in", "give \"in\" or \"from\", not both")
	}
	switch {
	case rt.In != nil:
		var s string
		if json.Unmarshal(rt.In, &s) == nil && s == "inject" {
			if !t.source[at] {
				return routeKey{}, bad("in", "no packet is injected at %s", topology.NodeName(t.net, at))
			}
			k.slot = 0
			break
		}
		p, err := t.port(rt.In, at, true)
		if err != nil {
			return routeKey{}, bad("in", "%v", err)
		}
		k.slot = p + 1
	case rt.From != nil:
		from, err := t.node(rt.From, names)
		if err != nil {
			return routeKey{}, bad("from", "%v", err)
		}
		in := -1
		for p := range t.net.Ports(from) {
			if next, ip := t.net.Link(from, p); next == at {
				if in >= 0 && in != ip {
					return routeKey{}, bad("from", "%s has several links to %s: give \"in\"", topology.NodeName(t.net, from), topology.NodeName(t.net, at))
				}
				in = ip
			}
		}
		if in < 0 {
			return routeKey{}, bad("from", "%s has no link to %s", topology.NodeName(t.net, from), topology.NodeName(t.net, at))
		}
		k.slot = in + 1
	}
	if rt.VC != nil {
		if k.slot < 0 {
			return routeKey{}, bad("vc", "an input VC needs an input (\"in\" or \"from\")")
		}
		if k.slot == 0 {
			return routeKey{}, bad("vc", "a packet at its source holds no VC")
		}
		if *rt.VC < 0 || *rt.VC >= t.vcs {
			return routeKey{}, bad("vc", "%d outside 0..%d", *rt.VC, t.vcs-1)
		}
		k.vc = *rt.VC
	}
	return k, nil
}

// parseChoices reads an entry's choices at router at.
func (t *Table) parseChoices(cs []tableChoice, at int, names map[string]int, where string) ([]sim.Choice, []uint64, error) {
	if len(cs) == 0 {
		return nil, nil, &TableError{File: t.name, Where: where + ".choices", Msg: "no choice (every routed state needs one)"}
	}
	all := uint64(1)<<uint(t.vcs) - 1
	if t.vcs == 64 {
		all = ^uint64(0)
	}
	var out []sim.Choice
	var esc []uint64
	for j, c := range cs {
		w := fmt.Sprintf("%s.choices[%d]", where, j)
		bad := func(format string, a ...any) error {
			return &TableError{File: t.name, Where: w, Msg: fmt.Sprintf(format, a...)}
		}
		given := 0
		for _, b := range []bool{c.Port != nil, c.To != nil, c.Edge != nil} {
			if b {
				given++
			}
		}
		if given != 1 {
			return nil, nil, bad("give exactly one of \"port\", \"to\" and \"edge\"")
		}
		port := -1
		switch {
		case c.Port != nil:
			p, err := t.port(c.Port, at, false)
			if err != nil {
				return nil, nil, bad("port: %v", err)
			}
			port = p
		case c.To != nil:
			to, err := t.node(c.To, names)
			if err != nil {
				return nil, nil, bad("to: %v", err)
			}
			for p := range t.net.Ports(at) {
				if next, _ := t.net.Link(at, p); next == to {
					if port >= 0 {
						return nil, nil, bad("to: %s has several links to %s: give \"port\" or \"edge\"", topology.NodeName(t.net, at), topology.NodeName(t.net, to))
					}
					port = p
				}
			}
			if port < 0 {
				return nil, nil, bad("to: %s has no link to %s", topology.NodeName(t.net, at), topology.NodeName(t.net, to))
			}
		default:
			g, ok := t.net.(*topology.General)
			if !ok {
				return nil, nil, bad("edge: only a table with an inline \"network\" names edges")
			}
			e := *c.Edge
			for p := range t.net.Ports(at) {
				if g.Edge(at, p) == e {
					port = p
				}
			}
			if port < 0 {
				return nil, nil, bad("edge: edge %d does not leave %s", e, topology.NodeName(t.net, at))
			}
		}
		if next, _ := t.net.Link(at, port); next < 0 {
			return nil, nil, bad("port %s of %s has no link: the packet would leave the network", PortName(t.net, port), topology.NodeName(t.net, at))
		}
		vcs := all
		if c.VCs != nil {
			vcs = 0
			if len(c.VCs) == 0 {
				return nil, nil, bad("vcs: an empty list")
			}
			for _, v := range c.VCs {
				if v < 0 || v >= t.vcs {
					return nil, nil, bad("vcs: VC %d outside 0..%d", v, t.vcs-1)
				}
				vcs |= 1 << uint(v)
			}
		}
		var e uint64
		for _, v := range c.Escape {
			if v < 0 || v >= t.vcs || vcs>>uint(v)&1 == 0 {
				return nil, nil, bad("escape: VC %d is not one of the choice's VCs", v)
			}
			e |= 1 << uint(v)
		}
		if e != 0 {
			t.hasEsc = true
		}
		out = append(out, sim.Choice{Port: port, VCs: vcs, Pri: c.Pri})
		esc = append(esc, e)
	}
	return out, esc, nil
}

// node reads a router: its name (a JSON string) or its number.
func (t *Table) node(raw json.RawMessage, names map[string]int) (int, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if v, ok := names[s]; ok {
			return v, nil
		}
		return 0, fmt.Errorf("no router named %q", s)
	}
	var v int
	if json.Unmarshal(raw, &v) != nil {
		return 0, fmt.Errorf("%s is neither a router's name nor its number", raw)
	}
	if v < 0 || v >= t.n {
		return 0, fmt.Errorf("router %d outside 0..%d", v, t.n-1)
	}
	return v, nil
}

// port reads an output port (input when in) of router at: its number, or on a
// grid its direction (+x, -x, +y, ...; an input port is named by the side its
// link comes from).
func (t *Table) port(raw json.RawMessage, at int, in bool) (int, error) {
	n := t.net.Ports(at)
	if in {
		n = t.net.InPorts(at)
	}
	var p int
	if err := json.Unmarshal(raw, &p); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, fmt.Errorf("%s is neither a port's name nor its number", raw)
		}
		q, ok := portByName(t.net, s)
		if !ok {
			return 0, fmt.Errorf("no port named %q on %s", s, t.net)
		}
		p = q
	}
	if p < 0 || p >= n {
		what := "output"
		if in {
			what = "input"
		}
		return 0, fmt.Errorf("%s has no %s port %s (it has %d)", topology.NodeName(t.net, at), what, strconv.Itoa(p), n)
	}
	return p, nil
}

func (t *Table) key(at, dst, slot, vc int) int { return ((at*t.n+dst)*t.in+slot)*t.vcs + vc }

// stateName describes a routed state for messages.
func (t *Table) stateName(at, dst, slot, vc int) string {
	if slot == 0 {
		return fmt.Sprintf("a packet for %s injected at %s", topology.NodeName(t.net, dst), topology.NodeName(t.net, at))
	}
	return fmt.Sprintf("a packet for %s at %s arriving by input %s on VC %d", topology.NodeName(t.net, dst), topology.NodeName(t.net, at), PortName(t.net, slot-1), vc)
}

// check walks every packet from every source to every destination through the
// table: each state reached short of the destination must have an entry, and the
// states must not form a cycle (a packet that can be routed round a loop forever).
func (t *Table) check() error {
	per := t.n * t.in * t.vcs
	mark := make([]uint8, per) // 0 new, 1 on the stack, 2 done
	from := make([]int32, per) // the state it was first reached from, for messages
	type frame struct {
		s    int32
		next int // the next (choice, VC) pair to follow, as choice<<6 | vc
	}
	var stack []frame
	// routers where terminals eject and inject (the same but on a butterfly)
	for _, dst := range topology.Sinks(t.net) {
		clear(mark)
		for _, src := range topology.Sources(t.net) {
			if src == dst {
				continue
			}
			s0 := int32((src*t.in + 0) * t.vcs)
			if mark[s0] != 0 {
				continue
			}
			mark[s0], from[s0] = 1, -1
			stack = append(stack[:0], frame{s: s0})
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				at, slot, vc := int(f.s)/(t.in*t.vcs), int(f.s)/t.vcs%t.in, int(f.s)%t.vcs
				e := t.index[t.key(at, dst, slot, vc)]
				if e == 0 {
					return &TableError{File: t.name, Msg: fmt.Sprintf("no entry for %s (reachable: %s)", t.stateName(at, dst, slot, vc), t.trail(from, f.s, dst))}
				}
				ch := t.choices[e-1]
				// advance to the next (choice, VC) not yet followed
				var succ int32 = -1
				for f.next < len(ch)<<6 {
					c, v := f.next>>6, f.next&63
					f.next++
					if ch[c].VCs>>uint(v)&1 == 0 {
						continue
					}
					next, in := t.net.Link(at, ch[c].Port)
					if next == dst {
						continue
					}
					succ = int32((next*t.in+in+1)*t.vcs + v)
					break
				}
				if succ < 0 {
					mark[f.s] = 2
					stack = stack[:len(stack)-1]
					continue
				}
				switch mark[succ] {
				case 0:
					mark[succ], from[succ] = 1, f.s
					stack = append(stack, frame{s: succ})
				case 1:
					return &TableError{File: t.name, Msg: fmt.Sprintf("routes a packet for %s in a loop through %s", topology.NodeName(t.net, dst), t.trail(from, f.s, dst))}
				}
			}
		}
	}
	return nil
}

// trail names the routers a packet for dst passed to reach state s.
func (t *Table) trail(from []int32, s int32, dst int) string {
	var at []string
	for ; s >= 0 && len(at) < 64; s = from[s] {
		at = append(at, topology.NodeName(t.net, int(s)/(t.in*t.vcs)))
	}
	for i, j := 0, len(at)-1; i < j; i, j = i+1, j-1 {
		at[i], at[j] = at[j], at[i]
	}
	return strings.Join(at, " -> ")
}

// Net is the table's network.
func (t *Table) Net() topology.Network { return t.net }

// VCs is the number of VCs the table routes on.
func (t *Table) VCs() int { return t.vcs }

// Spec is the table's topology spec, or "network" for an inline MODEL.md network.
func (t *Table) Spec() string { return t.spec }

// HasEscape reports whether some choice names escape VCs (Duato's condition can
// then be checked).
func (t *Table) HasEscape() bool { return t.hasEsc }

// entry is the entry deciding h at router at, -1 when there is none.
func (t *Table) entry(at int, h *sim.Header) int {
	slot, vc := int(h.InPort)+1, int(h.VC)
	if slot == 0 || vc < 0 {
		slot, vc = 0, 0
	}
	if vc >= t.vcs || slot >= t.in || int(h.Dst) >= t.n || at >= t.n {
		return -1
	}
	return int(t.index[t.key(at, int(h.Dst), slot, vc)]) - 1
}

// Start keeps no state.
func (t *Table) Start(h *sim.Header, r *rand.Rand) {}

// Starts lists the one start state.
func (t *Table) Starts(h sim.Header, out []sim.Header) []sim.Header { return append(out, h) }

// Route appends the entry's choices (none where the table has no entry).
func (t *Table) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if e := t.entry(at, h); e >= 0 {
		out = append(out, t.choices[e]...)
	}
	return out
}

// Advance keeps no state.
func (t *Table) Advance(at int, h *sim.Header, port, vc int) {}

// Where names the entry that decides a packet h at router at ("routes[3]"), or
// describes the state when no entry does.
func (t *Table) Where(at int, h *sim.Header) string {
	if e := t.entry(at, h); e >= 0 {
		return t.where[e]
	}
	slot, vc := int(h.InPort)+1, int(h.VC)
	if slot == 0 || vc < 0 {
		slot, vc = 0, 0
	}
	return "no entry for " + t.stateName(at, int(h.Dst), slot, vc)
}

// EscapeTable is a Table some of whose choices name escape VCs: it reports them
// to Duato's condition (package deadlock's Escaper).
type EscapeTable struct{ *Table }

// Escape reports whether VC vc of port is an escape choice for h at router at.
func (t EscapeTable) Escape(at int, h *sim.Header, port, vc int) bool {
	e := t.entry(at, h)
	if e < 0 {
		return false
	}
	for i, c := range t.choices[e] {
		if c.Port == port && t.escape[e][i]>>uint(vc)&1 == 1 {
			return true
		}
	}
	return false
}

// Routing returns the table as a sim.Routing: an EscapeTable when some choice names
// escape VCs, else the Table itself.
func (t *Table) Routing() sim.Routing {
	if t.hasEsc {
		return EscapeTable{t}
	}
	return t
}

// TableAlgorithm reads the table in file and describes it as an Algorithm: it
// routes on the table's network only (MinVCs and New fail on another) and needs the
// table's VCs.
func TableAlgorithm(file string) (Algorithm, error) {
	t, err := LoadTable(file)
	if err != nil {
		return Algorithm{}, err
	}
	same := func(net topology.Network) error {
		if !SameNetwork(net, t.net) {
			return fmt.Errorf("the table %s routes on %s, not on %s", file, t.spec, net)
		}
		return nil
	}
	return Algorithm{
		Name:    "table:" + file,
		Summary: "the routing table in " + file,
		MinVCs: func(net topology.Network) (int, error) {
			if err := same(net); err != nil {
				return 0, err
			}
			return t.vcs, nil
		},
		New: func(net topology.Network, vcs int) (sim.Routing, error) {
			if err := same(net); err != nil {
				return nil, err
			}
			if vcs < t.vcs {
				return nil, fmt.Errorf("the table %s routes on %d VCs, %d given", file, t.vcs, vcs)
			}
			return t.Routing(), nil
		},
	}, nil
}

// SameNetwork reports whether a and b are the same routers and links: the same
// number of routers, each with the same ports, links and terminal.
func SameNetwork(a, b topology.Network) bool {
	if a.Nodes() != b.Nodes() {
		return false
	}
	for v := range a.Nodes() {
		if a.Ports(v) != b.Ports(v) || a.InPorts(v) != b.InPorts(v) || a.Terminal(v) != b.Terminal(v) {
			return false
		}
		for p := range a.Ports(v) {
			n1, i1 := a.Link(v, p)
			n2, i2 := b.Link(v, p)
			if n1 != n2 || i1 != i2 {
				return false
			}
		}
	}
	return true
}

// PortName names output port p of a router of net: on a grid its direction (+x,
// -x, +y, -y, +z, -z, then +d3, -d3, ...), elsewhere its number. An input port of
// a grid has the name of the side its link comes from.
func PortName(net topology.Network, p int) string {
	if _, ok := net.(*topology.Grid); !ok {
		return strconv.Itoa(p)
	}
	dim, dir := topology.PortDim(p)
	sign := "+"
	if dir < 0 {
		sign = "-"
	}
	if dim < 3 {
		return sign + string("xyz"[dim])
	}
	return sign + "d" + strconv.Itoa(dim)
}

// portByName is PortName's inverse on grids.
func portByName(net topology.Network, s string) (int, bool) {
	g, ok := net.(*topology.Grid)
	if !ok || len(s) < 2 || (s[0] != '+' && s[0] != '-') {
		return 0, false
	}
	dim := -1
	switch rest := s[1:]; {
	case len(rest) == 1 && strings.Contains("xyz", rest):
		dim = strings.Index("xyz", rest)
	case strings.HasPrefix(rest, "d"):
		d, err := strconv.Atoi(rest[1:])
		if err != nil || d < 3 {
			return 0, false
		}
		dim = d
	}
	if dim < 0 || dim >= g.Dims() {
		return 0, false
	}
	dir := 1
	if s[0] == '-' {
		dir = -1
	}
	return topology.Port(dim, dir), true
}

func jsonMsg(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == io.EOF:
		return "empty file"
	case err == io.ErrUnexpectedEOF:
		return "invalid JSON: the file ends inside a value"
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Sprintf("field %q: want %s, got %s", te.Field, te.Type, te.Value)
	}
	return err.Error()
}
