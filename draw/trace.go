package draw

// Space-time pictures of the packets a simulation traced (wormlab sim --trace,
// package simrun's TraceEvent lines): one row per channel the packets used (the
// source's injection channel, router-to-router links, the ejection channel at the
// destination), one column per cycle, and in the cell (channel, cycle) the packet
// whose flit crossed that channel then. A channel carries one flit a cycle, so the
// cells never overlap, whatever the VCs: the picture shows where packets moved,
// where they waited (the gaps), and how flits of different packets interleave on a
// link.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Trace is a read trace: the network's node names and every packet's flit moves.
type Trace struct {
	Topology string
	Nodes    []string
	Packets  []*TracedPacket // in order of generation
	byID     map[int64]*TracedPacket
}

// TracedPacket is one packet of a trace.
type TracedPacket struct {
	ID               int64
	Src, Dst         int
	Flits            int
	Generated        int64
	Delivered        int64 // -1: not delivered within the trace
	Moves            []Move
	Routed, VCGrants int
}

// Move is a flit crossing a channel: From -> To (From -1: the source's injection
// channel into router To; To -1: the ejection channel of router From).
type Move struct {
	Cycle    int64
	From, To int
	Flit, VC int
}

type traceLine struct {
	Trace *struct {
		Topology string   `json:"topology"`
		Nodes    []string `json:"nodes"`
	} `json:"trace"`
	Cycle  *int64 `json:"cycle"`
	Event  string `json:"event"`
	Packet int64  `json:"packet"`
	Node   int    `json:"node"`
	Dst    *int   `json:"dst"`
	Flits  *int   `json:"flits"`
	Flit   *int   `json:"flit"`
	VC     *int   `json:"vc"`
	To     *int   `json:"to"`
}

// ReadTrace reads a trace; errors name the line.
func ReadTrace(r io.Reader) (*Trace, error) {
	t := &Trace{byID: map[int64]*TracedPacket{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var l traceLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			return nil, fmt.Errorf("line %d: not a trace line: %v", line, err)
		}
		if l.Trace != nil {
			t.Topology, t.Nodes = l.Trace.Topology, l.Trace.Nodes
			continue
		}
		if l.Cycle == nil {
			return nil, fmt.Errorf("line %d: an event without a cycle", line)
		}
		c := *l.Cycle
		p := t.byID[l.Packet]
		if l.Event == "generate" {
			if p != nil {
				return nil, fmt.Errorf("line %d: packet %d generated twice", line, l.Packet)
			}
			if l.Dst == nil || l.Flits == nil {
				return nil, fmt.Errorf("line %d: a generate event needs dst and flits", line)
			}
			p = &TracedPacket{ID: l.Packet, Src: l.Node, Dst: *l.Dst, Flits: *l.Flits, Generated: c, Delivered: -1}
			t.byID[l.Packet] = p
			t.Packets = append(t.Packets, p)
			continue
		}
		if p == nil {
			return nil, fmt.Errorf("line %d: packet %d before its generate event", line, l.Packet)
		}
		flit, vc := -1, -1
		if l.Flit != nil {
			flit = *l.Flit
		}
		if l.VC != nil {
			vc = *l.VC
		}
		switch l.Event {
		case "inject":
			p.Moves = append(p.Moves, Move{c, -1, l.Node, flit, vc})
		case "send":
			if l.To == nil {
				return nil, fmt.Errorf("line %d: a send event needs to", line)
			}
			p.Moves = append(p.Moves, Move{c, l.Node, *l.To, flit, vc})
		case "deliver":
			if flit == p.Flits-1 {
				p.Delivered = c
			}
		case "route":
			p.Routed++
		case "vc":
			p.VCGrants++
		case "arrive":
		default:
			return nil, fmt.Errorf("line %d: unknown event %q", line, l.Event)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(t.Packets) == 0 {
		return nil, fmt.Errorf("no packet in the trace")
	}
	return t, nil
}

// TraceOptions select what to draw.
type TraceOptions struct {
	Title    string
	Packets  []int64 // nil: all
	From, To int64   // cycles; To 0: the last
	MaxCells int     // 0: DefaultMaxBars
}

// channel is a row of the picture.
type channel struct{ from, to int }

// TraceSVG draws the selected packets of t. It returns the number of packets
// drawn and left out (beyond MaxCells cells).
func TraceSVG(w io.Writer, t *Trace, opt TraceOptions) (drawn, left int, err error) {
	if opt.MaxCells <= 0 {
		opt.MaxCells = DefaultMaxBars
	}
	var pkts []*TracedPacket
	for _, id := range opt.Packets {
		if t.byID[id] == nil {
			return 0, 0, fmt.Errorf("packet %d is not in the trace", id)
		}
	}
	cells := 0
	for _, p := range t.Packets {
		if opt.Packets != nil && !slices.Contains(opt.Packets, p.ID) {
			continue
		}
		if cells+len(p.Moves) > opt.MaxCells {
			left++
			continue
		}
		cells += len(p.Moves)
		pkts = append(pkts, p)
	}
	if len(pkts) == 0 {
		return 0, left, fmt.Errorf("nothing to draw (every packet is beyond --max-bars)")
	}
	// rows in order of first use, the cycle window
	first := map[channel]int64{}
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, p := range pkts {
		lo, hi = min(lo, p.Generated), max(hi, p.Generated)
		if p.Delivered >= 0 {
			hi = max(hi, p.Delivered)
		}
		for _, m := range p.Moves {
			ch := channel{m.From, m.To}
			if c, ok := first[ch]; !ok || m.Cycle < c {
				first[ch] = m.Cycle
			}
			lo, hi = min(lo, m.Cycle), max(hi, m.Cycle)
		}
	}
	if opt.From > 0 {
		lo = max(lo, opt.From)
	}
	if opt.To > 0 {
		hi = min(hi, opt.To)
	}
	if hi < lo {
		return 0, left, fmt.Errorf("no event in cycles %d:%d", opt.From, opt.To)
	}
	rows := make([]channel, 0, len(first))
	for ch := range first {
		rows = append(rows, ch)
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if first[a] != first[b] {
			return first[a] < first[b]
		}
		return a.from < b.from || (a.from == b.from && a.to < b.to)
	})
	rowOf := map[channel]int{}
	for i, ch := range rows {
		rowOf[ch] = i
	}
	name := func(v int) string {
		if v >= 0 && v < len(t.Nodes) {
			return t.Nodes[v]
		}
		return strconv.Itoa(v)
	}
	label := func(ch channel) string {
		switch {
		case ch.from < 0:
			return "inject " + name(ch.to)
		case ch.to < 0:
			return "eject " + name(ch.from)
		}
		return name(ch.from) + " -> " + name(ch.to)
	}
	span := hi - lo + 1
	cw := math.Max(1, math.Min(16, 1400/float64(span)))
	const rh, left0, top = 14.0, 110.0, 46.0
	width := left0 + float64(span)*cw + 20
	legendRows := min(len(pkts), 40)
	height := top + float64(len(rows))*rh + 40 + 14*float64(legendRows+1)
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	p(`<?xml version="1.0"?>` + "\n")
	p(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="'Liberation Sans',Arial,Helvetica,sans-serif" font-size="10">`+"\n", width, height, width, height)
	p(`<rect width="100%%" height="100%%" fill="#ffffff"/>` + "\n")
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("%s: %d packets, cycles %d-%d", t.Topology, len(pkts), lo, hi)
	}
	p(`<text x="%.1f" y="16" font-size="13">%s</text>`+"\n", left0, html.EscapeString(title))
	// time axis: a tick every step cycles
	step := int64(1)
	for float64(step)*cw < 40 {
		step *= 2
		if float64(step)*cw < 40 {
			step = step / 2 * 5
		}
	}
	for c := (lo + step - 1) / step * step; c <= hi; c += step {
		x := left0 + float64(c-lo)*cw
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#dddddd" stroke-width="0.5"/>`+"\n", x, top-4, x, top+float64(len(rows))*rh)
		p(`<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", x, top-8, c)
	}
	for i, ch := range rows {
		y := top + float64(i)*rh
		p(`<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", left0-4, y+rh-4, html.EscapeString(label(ch)))
		p(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eeeeee" stroke-width="0.5"/>`+"\n", left0, y+rh, width-20, y+rh)
	}
	for k, pk := range pkts {
		col := palette[k%len(palette)]
		for _, m := range pk.Moves {
			if m.Cycle < lo || m.Cycle > hi {
				continue
			}
			x := left0 + float64(m.Cycle-lo)*cw
			y := top + float64(rowOf[channel{m.From, m.To}])*rh
			stroke := ""
			if m.Flit == 0 {
				stroke = ` stroke="#000000" stroke-width="0.8"`
			}
			p(`<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"%s><title>packet %d flit %d, VC %d, cycle %d</title></rect>`+"\n",
				x, y+1, cw, rh-2, col, stroke, pk.ID, m.Flit, m.VC, m.Cycle)
		}
	}
	// legend
	ly := top + float64(len(rows))*rh + 24
	p(`<text x="%.1f" y="%.1f">each cell: the packet whose flit crossed the channel in that cycle; the head outlined; hover for flit, VC, cycle</text>`+"\n", left0, ly)
	for k, pk := range pkts[:legendRows] {
		y := ly + 14*float64(k+1)
		lat := "not delivered in the trace"
		if pk.Delivered >= 0 {
			lat = fmt.Sprintf("latency %d", pk.Delivered-pk.Generated)
		}
		p(`<rect x="%.1f" y="%.1f" width="10" height="10" fill="%s"/>`+"\n", left0, y-9, palette[k%len(palette)])
		p(`<text x="%.1f" y="%.1f">packet %d: %s -> %s, %d flits, generated %d, %s</text>`+"\n", left0+14, y, pk.ID, html.EscapeString(name(pk.Src)), html.EscapeString(name(pk.Dst)), pk.Flits, pk.Generated, lat)
	}
	if len(pkts) > legendRows {
		p(`<text x="%.1f" y="%.1f">... and %d more packets</text>`+"\n", left0, ly+14*float64(legendRows+1)+4, len(pkts)-legendRows)
	}
	p("</svg>\n")
	return len(pkts), left, bw.Flush()
}
