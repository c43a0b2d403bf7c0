package simrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// TraceSelect chooses the packets a trace follows: those matching every
// selection given (a packet's id among Packets, its source among Src, its
// destination among Dst, its generation cycle in [From, To]); Max bounds the
// events written (0: DefaultTraceMax).
type TraceSelect struct {
	Packets  []int64
	Src, Dst []int
	From, To int64 // To < 0: no end
	Max      int
}

// DefaultTraceMax is the most events a trace writes by default (about 12 MB).
const DefaultTraceMax = 100000

// Empty reports a selection that selects nothing in particular.
func (s TraceSelect) Empty() bool {
	return len(s.Packets) == 0 && len(s.Src) == 0 && len(s.Dst) == 0 && s.From == 0 && s.To < 0
}

// Check refuses a selection that can match no packet of r before the run: nodes
// outside the network, a window that starts past the cycle budget.
func (s TraceSelect) Check(r *Run) error {
	net, err := topology.Parse(r.Topology)
	if err != nil {
		return errf("topology", "%v", err)
	}
	for _, l := range []struct {
		name  string
		nodes []int
	}{{"trace-src", s.Src}, {"trace-dst", s.Dst}} {
		for _, v := range l.nodes {
			if v < 0 || v >= net.Nodes() || !net.Terminal(v) {
				return errf(l.name, "node %d is not a terminal of %s", v, r.Topology)
			}
		}
	}
	if s.From < 0 || (s.To >= 0 && s.To < s.From) {
		return errf("trace-cycles", "%d:%d is not a window FROM:TO of cycles", s.From, s.To)
	}
	if s.From >= r.MaxCycles {
		return errf("trace-cycles", "starts at cycle %d, past the run's budget of %d cycles (--max-cycles)", s.From, r.MaxCycles)
	}
	for _, p := range s.Packets {
		if p < 0 {
			return errf("trace-packets", "%d is not a packet number", p)
		}
	}
	return nil
}

// TraceEvent is one line of a trace (JSON Lines): what happened to a packet in a
// cycle, at a node. Event is one of generate, inject, route, vc (a VC granted),
// send (a flit leaves by an output port: a hop, or into the sink), arrive (a
// flit enters an input buffer) and deliver.
type TraceEvent struct {
	Cycle  int64  `json:"cycle"`
	Event  string `json:"event"`
	Packet int64  `json:"packet"`
	Node   int32  `json:"node"`
	// generate: the destination and the size
	Dst   *int32 `json:"dst,omitempty"`
	Flits *int32 `json:"flits,omitempty"`
	// inject, send, arrive, deliver: the flit (0 the head)
	Flit *int32 `json:"flit,omitempty"`
	// route, vc, send: the input port and VC the packet is in
	InPort *int32 `json:"in_port,omitempty"`
	InVC   *int32 `json:"in_vc,omitempty"`
	// vc, send, arrive, inject: the port and VC (output for vc and send, input
	// for arrive and inject)
	Port *int32 `json:"port,omitempty"`
	VC   *int32 `json:"vc,omitempty"`
	// send: the node the link leads to (-1: the sink)
	To *int32 `json:"to,omitempty"`
	// route: the choices, output ports with their allowed VCs
	Choices []TraceChoice `json:"choices,omitempty"`
}

// TraceChoice is one routing choice.
type TraceChoice struct {
	Port int   `json:"port"`
	VCs  []int `json:"vcs"`
	Pri  int   `json:"pri,omitempty"`
}

// Tracer writes the events of the selected packets as JSON Lines; the first line
// describes the run: {"trace": {"topology": ..., "routing": ..., "nodes": [names]}}.
type Tracer struct {
	sel       TraceSelect
	net       topology.Network
	buf       bytes.Buffer
	chosen    map[int64]bool
	events    int
	packets   int
	truncated bool
	err       error
}

// NewTracer starts a trace of r's run.
func NewTracer(r *Run, sel TraceSelect) (*Tracer, error) {
	net, err := topology.Parse(r.Topology)
	if err != nil {
		return nil, errf("topology", "%v", err)
	}
	if sel.Max <= 0 {
		sel.Max = DefaultTraceMax
	}
	t := &Tracer{sel: sel, net: net, chosen: map[int64]bool{}}
	names := make([]string, net.Nodes())
	for v := range names {
		names[v] = topology.NodeName(net, v)
	}
	head := map[string]any{"trace": map[string]any{"topology": r.Topology, "routing": r.Routing, "vcs": r.VCs,
		"flits": r.Flits, "traffic": r.Traffic, "offered": r.Offered(), "seed": r.Seed, "nodes": names}}
	b, err := json.Marshal(head)
	if err != nil {
		return nil, err
	}
	t.buf.Write(b)
	t.buf.WriteByte('\n')
	return t, nil
}

func (t *Tracer) selects(ev sim.Event) bool {
	s := t.sel
	return (len(s.Packets) == 0 || slices.Contains(s.Packets, ev.Packet)) &&
		(len(s.Src) == 0 || slices.Contains(s.Src, int(ev.Node))) &&
		(len(s.Dst) == 0 || slices.Contains(s.Dst, int(ev.Dst))) &&
		ev.Cycle >= s.From && (s.To < 0 || ev.Cycle <= s.To)
}

// Event is the hook for sim.Config.Trace.
func (t *Tracer) Event(ev sim.Event) {
	if ev.Kind == sim.Generate && t.selects(ev) {
		t.chosen[ev.Packet] = true
		t.packets++
	}
	if !t.chosen[ev.Packet] || ev.Kind == sim.Credit || ev.Kind == sim.Tick {
		return
	}
	if t.events >= t.sel.Max {
		t.truncated = true
		return
	}
	i32 := func(x int32) *int32 { return &x }
	te := TraceEvent{Cycle: ev.Cycle, Packet: ev.Packet, Node: ev.Node}
	switch ev.Kind {
	case sim.Generate:
		te.Event, te.Dst, te.Flits = "generate", i32(ev.Dst), i32(ev.Flit)
	case sim.Inject:
		te.Event, te.Flit, te.Port, te.VC = "inject", i32(ev.Flit), i32(ev.InPort), i32(ev.VC)
	case sim.Route:
		te.Event, te.InPort, te.InVC = "route", i32(ev.InPort), i32(ev.InVC)
		for _, c := range ev.Choices {
			tc := TraceChoice{Port: c.Port, Pri: c.Pri}
			for v := range 64 {
				if c.VCs&(1<<uint(v)) != 0 {
					tc.VCs = append(tc.VCs, v)
				}
			}
			te.Choices = append(te.Choices, tc)
		}
	case sim.Grant:
		te.Event, te.Port, te.VC, te.InPort, te.InVC = "vc", i32(ev.Port), i32(ev.VC), i32(ev.InPort), i32(ev.InVC)
	case sim.Send:
		to := int32(-1)
		if int(ev.Port) < t.net.Ports(int(ev.Node)) {
			next, _ := t.net.Link(int(ev.Node), int(ev.Port))
			to = int32(next)
		}
		te.Event, te.Flit, te.Port, te.VC, te.InPort, te.InVC, te.To = "send", i32(ev.Flit), i32(ev.Port), i32(ev.VC), i32(ev.InPort), i32(ev.InVC), i32(to)
	case sim.Arrive:
		te.Event, te.Flit, te.Port, te.VC = "arrive", i32(ev.Flit), i32(ev.Port), i32(ev.VC)
	case sim.Deliver:
		te.Event, te.Flit = "deliver", i32(ev.Flit)
	default:
		return
	}
	b, err := json.Marshal(te)
	if err != nil {
		t.err = err
		return
	}
	t.buf.Write(b)
	t.buf.WriteByte('\n')
	t.events++
}

// Packets is the number of packets selected, Events the events written.
func (t *Tracer) Packets() int { return t.packets }

// Events is the number of events written.
func (t *Tracer) Events() int { return t.events }

// Truncated reports that events were left out past the bound.
func (t *Tracer) Truncated() bool { return t.truncated }

// Bytes is the trace, or the error that stopped it.
func (t *Tracer) Bytes() ([]byte, error) {
	if t.err != nil {
		return nil, t.err
	}
	return t.buf.Bytes(), nil
}

// NoMatch is the error of a selection that matched no packet.
func (t *Tracer) NoMatch(s string) error {
	return &Error{"trace", fmt.Sprintf("the selection (%s) matched no packet of the run", s)}
}
