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
		if p.Name == "rate" || p.Name == "msg-rate" {
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

// JSON is one row as a flat JSON object: the columns' values, then the result's
// fields.
func JSON(cols []string, r *Run, res *sim.Result) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for _, c := range cols {
		p := byName[c]
		k, _ := json.Marshal(c)
		v, err := json.Marshal(value(p, p.get(r)))
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		b.WriteByte(',')
	}
	body, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	b.Write(body[1:])
	return b.Bytes(), nil
}

// WriteJSONLines writes one row per outcome with a result.
func WriteJSONLines(w io.Writer, cols []string, outs []Outcome) error {
	for _, o := range outs {
		b, err := JSON(cols, &o.Point.Run, o.Result)
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

// WriteCSV writes a header and one row per outcome: the columns' values, then the
// measured fields (empty where a saturated point has no latency).
func WriteCSV(w io.Writer, cols []string, outs []Outcome) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(append(slices.Clone(cols), resultColumns...)); err != nil {
		return err
	}
	for _, o := range outs {
		r := o.Result
		rec := make([]string, 0, len(cols)+len(resultColumns))
		for _, c := range cols {
			rec = append(rec, byName[c].get(&o.Point.Run))
		}
		rec = append(rec, fmtFloat(r.Offered), fmtFloat(r.MsgRate), strconv.FormatFloat(r.Generated, 'f', 4, 64),
			strconv.FormatFloat(r.Accepted, 'f', 4, 64), fmtPtr(r.Latency, 2), fmtPtr(r.LatencyCI, 2),
			fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), strconv.FormatBool(r.Saturated),
			strconv.FormatBool(r.Precise), r.Reason, strconv.FormatInt(r.Cycles, 10),
			strconv.FormatInt(r.Warmup, 10), strconv.Itoa(r.Measured))
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
func WriteTable(w io.Writer, g *Grid, outs []Outcome) error {
	vary := g.Varying()
	rate := slices.Index(vary, "rate") // the offered column shows it
	if rate >= 0 {
		vary = slices.Delete(slices.Clone(vary), rate, rate+1)
	}
	values := func(o Outcome) []string {
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
			lat = fmtPtr(r.Latency, 2) + " +- " + fmtPtr(r.LatencyCI, 2)
			if !r.Precise {
				lat += "*"
				star = true
			}
		}
		fmt.Fprintf(&b, "%-8g %-8.4f %-16s %-5s %-5s %-6s %d", r.Offered, r.Accepted, lat, fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), r.Cycles)
		if r.Saturated && r.Reason != "" {
			fmt.Fprintf(&b, "  (%s)", r.Reason)
		}
		fmt.Fprintln(w, b.String())
	}
	if star {
		fmt.Fprintln(w, "(* the stop rule was not met within the cycle budget)")
	}
	return nil
}
