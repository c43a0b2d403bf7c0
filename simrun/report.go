package simrun

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/sim"
)

// Columns lists the parameters every row of g carries, in the order of Params:
// the defining ones (topology, routing, VCs, buffer, sizes, traffic, process,
// pipeline, seed), the varying ones and any set away from its default. The load
// is not among them: a row's result carries it (offered, msg_rate).
func (g *Grid) Columns() []string {
	d := Default()
	vary := g.Varying()
	var cols []string
	for _, p := range Params() {
		if p.Load {
			continue
		}
		if p.Defining || slices.Contains(vary, p.Name) || p.get(&g.Base) != p.get(&d) {
			cols = append(cols, p.Name)
		}
	}
	return cols
}

// value is a parameter's value as JSON: a number, a boolean or a string.
func value(p *Param, text string) any {
	switch p.Kind {
	case Int, Uint, Float:
		return json.Number(text)
	case Bool:
		return text == "true"
	}
	return text
}

// Row is one line of output: a point and its result, or (with a saturation
// search) its configuration's saturation throughput, or both.
type Row struct {
	Point      Point
	Result     *sim.Result // nil: a saturation row alone
	Saturation *Saturation
	// Interrupted marks a result cut short (Ctrl-C, --timeout): its figures are
	// those of the cycles run (JSON "interrupted": true, a CSV column, a note).
	Interrupted bool
}

// Rows are the outcomes with a result, as rows; a point cut short is marked.
func Rows(outs []Outcome) []Row {
	rows := make([]Row, 0, len(outs))
	for _, o := range outs {
		if o.Result != nil {
			rows = append(rows, Row{Point: o.Point, Result: o.Result, Interrupted: !o.Done})
		}
	}
	return rows
}

// JSON is one row as a flat JSON object: the columns' values, then the result's
// fields, then "saturation".
func JSON(cols []string, row Row) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range cols {
		p := byName[c]
		k, _ := json.Marshal(c)
		v, err := json.Marshal(value(p, p.get(&row.Point.Run)))
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	if row.Result != nil {
		body, err := json.Marshal(row.Result)
		if err != nil {
			return nil, err
		}
		if len(cols) > 0 {
			b.WriteByte(',')
		}
		b.Write(body[1 : len(body)-1])
	}
	if row.Saturation != nil {
		sat, err := json.Marshal(row.Saturation)
		if err != nil {
			return nil, err
		}
		b.WriteString(`,"saturation":`)
		b.Write(sat)
	}
	if row.Interrupted {
		b.WriteString(`,"interrupted":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// WriteJSONLines writes one JSON object per row.
func WriteJSONLines(w io.Writer, cols []string, rows []Row) error {
	for _, r := range rows {
		b, err := JSON(cols, r)
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s\n", b); err != nil {
			return err
		}
	}
	return nil
}

// resultColumns are a row's measured fields in CSV, in this order.
var resultColumns = []string{"offered", "msg_rate", "generated", "accepted", "latency", "latency_ci", "p50", "p99", "max", "saturated", "precise", "reason", "cycles", "warmup", "measured"}

func fmtPtr(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

// satColumns are a row's saturation fields in CSV.
var satColumns = []string{"saturation_lo", "saturation_hi", "accepted_lo", "throughput", "throughput_offered", "probes"}

// WriteCSV writes a header and one line per row: the columns' values, the
// measured fields (empty where a saturated point has no latency) when rows have
// results, the saturation fields when they have them.
func WriteCSV(w io.Writer, cols []string, rows []Row) error {
	hasRes, hasSat, hasInt := false, false, false
	for _, r := range rows {
		hasRes = hasRes || r.Result != nil
		hasSat = hasSat || r.Saturation != nil
		hasInt = hasInt || r.Interrupted
	}
	head := slices.Clone(cols)
	if hasRes {
		head = append(head, resultColumns...)
	}
	if hasSat {
		head = append(head, satColumns...)
	}
	if hasInt {
		head = append(head, "interrupted")
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, row := range rows {
		rec := make([]string, 0, len(head))
		for _, c := range cols {
			rec = append(rec, byName[c].get(&row.Point.Run))
		}
		if r := row.Result; hasRes && r != nil {
			rec = append(rec, fmtFloat(r.Offered), fmtFloat(r.MsgRate), strconv.FormatFloat(r.Generated, 'f', 4, 64),
				strconv.FormatFloat(r.Accepted, 'f', 4, 64), fmtPtr(r.Latency, 2), fmtPtr(r.LatencyCI, 2),
				fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), strconv.FormatBool(r.Saturated),
				strconv.FormatBool(r.Precise), r.Reason, strconv.FormatInt(r.Cycles, 10),
				strconv.FormatInt(r.Warmup, 10), strconv.Itoa(r.Measured))
		} else if hasRes {
			rec = append(rec, make([]string, len(resultColumns))...)
		}
		if s := row.Saturation; hasSat && s != nil {
			rec = append(rec, fmtFloat(s.Lo), fmtPtr(s.Hi, 6), strconv.FormatFloat(s.AcceptedLo, 'f', 4, 64),
				strconv.FormatFloat(s.Throughput, 'f', 4, 64), fmtFloat(s.Upper), strconv.Itoa(s.Probes))
		} else if hasSat {
			rec = append(rec, make([]string, len(satColumns))...)
		}
		if hasInt {
			rec = append(rec, strconv.FormatBool(row.Interrupted))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Head is the line above a table: the parameters that do not vary (topology,
// routing, traffic and process bare, the others name=value).
func (g *Grid) Head() string {
	vary := g.Varying()
	var parts []string
	for _, c := range g.Columns() {
		if slices.Contains(vary, c) {
			continue
		}
		v := byName[c].get(&g.Base)
		switch c {
		case "topology", "routing", "traffic", "process":
			parts = append(parts, v)
		default:
			parts = append(parts, c+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// WriteTable writes the head line, then one row per outcome: the varying
// parameters, offered and accepted load, the latency with its interval (a * when
// the stop rule was not met within the budget), percentiles, cycles, and for a
// saturated point why. The footnote on * comes only when a row has one.
func WriteTable(w io.Writer, g *Grid, outs []Row) error {
	vary := g.Varying()
	rate := slices.Index(vary, "rate") // the offered column shows it
	if rate >= 0 {
		vary = slices.Delete(slices.Clone(vary), rate, rate+1)
	}
	values := func(o Row) []string {
		if rate < 0 {
			return o.Point.Vary
		}
		return slices.Delete(slices.Clone(o.Point.Vary), rate, rate+1)
	}
	fmt.Fprintln(w, g.Head())
	width := make([]int, len(vary))
	for k, name := range vary {
		width[k] = max(len(name), 7)
		for _, o := range outs {
			width[k] = max(width[k], len(values(o)[k]))
		}
	}
	var b strings.Builder
	for k, name := range vary {
		fmt.Fprintf(&b, "%-*s ", width[k], name)
	}
	fmt.Fprintf(&b, "%-8s %-8s %-16s %-5s %-5s %-6s %s", "offered", "accepted", "latency", "p50", "p99", "max", "cycles")
	fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	star := false
	for _, o := range outs {
		r := o.Result
		b.Reset()
		for k, v := range values(o) {
			fmt.Fprintf(&b, "%-*s ", width[k], v)
		}
		lat := "saturated"
		if !r.Saturated {
			switch {
			case r.Latency == nil:
				lat = "none" // no packet measured
			case r.LatencyCI == nil:
				lat = fmtPtr(r.Latency, 2)
			default:
				lat = fmtPtr(r.Latency, 2) + " +- " + fmtPtr(r.LatencyCI, 2)
			}
			if !r.Precise {
				lat += "*"
				star = true
			}
		}
		fmt.Fprintf(&b, "%-8g %-8.4f %-16s %-5s %-5s %-6s %d", r.Offered, r.Accepted, lat, fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), r.Cycles)
		if r.Reason != "" { // why saturated, or why no latency
			fmt.Fprintf(&b, "  (%s)", r.Reason)
		}
		if o.Interrupted {
			b.WriteString("  (interrupted: partial)")
		}
		fmt.Fprintln(w, b.String())
	}
	if star {
		fmt.Fprintln(w, "(* the stop rule was not met within the cycle budget)")
	}
	return nil
}

// WriteSaturation writes the saturation throughputs of rows (one per
// configuration of g, whose axes are the parameters that vary between them): the
// highest offered load found stable and the lowest found saturated by bisection,
// the load accepted at the former, and the throughput mode's accepted load.
func WriteSaturation(w io.Writer, g *Grid, rows []Row) error {
	vary := g.Varying()
	if len(rows) > 0 && rows[0].Saturation != nil {
		s := rows[0].Saturation
		fmt.Fprintf(w, "saturation throughput (flits/node/cycle): bisection on the offered load to within %g; throughput mode: every source offered %g\n", s.Tolerance, s.Upper)
	}
	width := make([]int, len(vary))
	for k, name := range vary {
		width[k] = len(name)
		for _, r := range rows {
			width[k] = max(width[k], len(r.Point.Vary[k]))
		}
	}
	var b strings.Builder
	for k, name := range vary {
		fmt.Fprintf(&b, "%-*s ", width[k], name)
	}
	fmt.Fprintf(&b, "%-13s %-15s %-15s %-11s %s", "stable up to", "saturated from", "accepted there", "throughput", "probes")
	fmt.Fprintln(w, b.String())
	for _, r := range rows {
		s := r.Saturation
		if s == nil {
			continue
		}
		b.Reset()
		for k := range vary {
			fmt.Fprintf(&b, "%-*s ", width[k], r.Point.Vary[k])
		}
		hi := "(none)"
		if s.Hi != nil {
			hi = strconv.FormatFloat(*s.Hi, 'f', 4, 64)
		}
		note := ""
		if !s.Done {
			note = "  (interrupted)"
		}
		fmt.Fprintf(&b, "%-13.4f %-15s %-15.4f %-11.4f %d%s", s.Lo, hi, s.AcceptedLo, s.Throughput, s.Probes, note)
		fmt.Fprintln(w, b.String())
	}
	return nil
}
