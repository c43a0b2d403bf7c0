package simrun

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/internal/gctune"
)

// ExecOptions say how a job runs.
type ExecOptions struct {
	// MaxMemory is the memory budget of the points running at once
	// (Options.MaxMemory).
	MaxMemory int64
	// Progress, when set (standard error on a terminal), has a progress line
	// redrawn on it while several points run and while the saturation searches
	// run (points or probes done, the time left), each ended by a newline.
	Progress io.Writer
}

// Report is what running a job gave.
type Report struct {
	// Done are the outcomes of the points that started, in the points' order:
	// the finished ones, and those cut short by the context (Done false, a
	// partial result).
	Done []Outcome
	// Rows are Done as output rows (with their configuration's saturation),
	// SatRows the saturation searches', one per configuration.
	Rows, SatRows []Row
	// Err is the first error of a point or of the searches (not the context's).
	Err error
	// Heatmap is the drawing of the run (with Job.Heatmap).
	Heatmap *Heatmap
	// Tracer holds the trace (with Job.Trace).
	Tracer *Tracer
}

// Simulates reports whether the job runs its points: all but the saturation
// searches alone (--saturation without a load).
func (j *Job) Simulates() bool { return !j.Saturation || j.LoadGiven }

// Execute runs the job's points on j.Workers goroutines, then the saturation
// searches; a cancelled ctx stops both, and the points finished are kept. The
// error is bad input found by the run: a trace whose selection matched no
// packet, a heatmap that could not be drawn.
func (j *Job) Execute(ctx context.Context, opt ExecOptions) (*Report, error) {
	if len(j.Points) > 1 || j.Saturation {
		defer gctune.Tune()()
	}
	rep := &Report{}
	if j.Trace != "" {
		t, err := NewTracer(&j.Grid.Base, j.TraceSel)
		if err != nil {
			return nil, err
		}
		rep.Tracer = t
	}
	if j.Simulates() {
		eo := Options{Workers: j.Workers, MaxMemory: opt.MaxMemory}
		if opt.Progress != nil && len(j.Points) > 1 {
			eo.Progress = ProgressLine(opt.Progress, "sim", "points")
		}
		if j.Nodes || j.Heatmap != "" || rep.Tracer != nil {
			eo.Prepare = func(_ *Point, b *Built) {
				b.Measure.Nodes = j.Nodes || j.Heatmap != ""
				if rep.Tracer != nil {
					b.Config.Trace = rep.Tracer.Event
				}
			}
		}
		outs := Execute(ctx, j.Points, eo)
		if eo.Progress != nil {
			fmt.Fprintln(opt.Progress)
		}
		for _, o := range outs {
			if o.Err != nil && rep.Err == nil {
				rep.Err = o.Err
			}
			if o.Result == nil {
				continue // not started: nothing to show
			}
			if j.Heatmap != "" {
				title := j.Grid.Head() + fmt.Sprintf(" offered %g", o.Result.Offered)
				if !o.Done {
					// as its row is marked
					title += fmt.Sprintf(" (interrupted after %d cycles: the figures of the cycles run)", o.Result.Cycles)
				}
				hm, err := HeatmapOf(&o.Point.Run, o.Result, title)
				if err != nil {
					return nil, err
				}
				rep.Heatmap = hm
			}
			if !j.Channels {
				o.Result.Channels = nil
			}
			if !j.Nodes {
				o.Result.Nodes = nil
			}
			rep.Done = append(rep.Done, o)
		}
	}
	if rep.Tracer != nil && len(rep.Done) > 0 && rep.Tracer.Packets() == 0 {
		return nil, rep.Tracer.NoMatch(j.TraceText) // nothing written
	}
	rep.Rows = Rows(rep.Done)
	if j.Saturation && ctx.Err() == nil && rep.Err == nil {
		runs := make([]Run, len(j.SatPoints))
		for i, p := range j.SatPoints {
			runs[i] = p.Run
		}
		so := SatOptions{Tolerance: j.SatTol, Workers: j.Workers, MaxMemory: opt.MaxMemory}
		if opt.Progress != nil {
			so.Progress = ProgressLine(opt.Progress, "sim: saturation", "probes")
		}
		sats, err := Saturate(ctx, runs, so)
		if so.Progress != nil {
			fmt.Fprintln(opt.Progress)
		}
		if err != nil && ctx.Err() == nil {
			rep.Err = err
		}
		for i, p := range j.SatPoints {
			rep.SatRows = append(rep.SatRows, Row{Point: p, Saturation: sats[i]})
		}
		for i := range rep.Rows {
			rep.Rows[i].Saturation = sats[j.Grid.ConfigurationOf(rep.Rows[i].Point)]
		}
	}
	return rep, nil
}

// ProgressLine returns a progress callback that redraws one terminal line on w:
// what, the number done of the total, the unit, the time spent and the time left
// estimated from the mean time per point.
func ProgressLine(w io.Writer, what, unit string) func(done, total int) {
	start := time.Now()
	return func(done, total int) {
		el := time.Since(start)
		left := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
		fmt.Fprintf(w, "\r\x1b[K%s: %d/%d %s, %v elapsed, about %v left", what, done, total, unit, el.Round(time.Second), left)
	}
}

// Write prints the report: with the saturation searches alone their rows,
// else the points' rows (several points as a table, CSV or JSON Lines; one
// point as text or an indented JSON object), and in text the saturation table
// after them.
func (j *Job) Write(w io.Writer, rep *Report) error {
	if !j.Simulates() {
		return writeSaturationRows(w, j.SatGrid, rep.SatRows, j.JSON, j.CSV)
	}
	if err := writeRows(w, j.Grid, rep.Rows, j.Sweep, j.JSON, j.CSV); err != nil {
		return err
	}
	if j.Saturation && !j.JSON && !j.CSV {
		fmt.Fprintln(w)
		return WriteSaturation(w, j.SatGrid, rep.SatRows)
	}
	return nil
}

// Figures are the curves of the points run (Figures).
func (j *Job) Figures(rep *Report) ([]*figure.Figure, error) { return Figures(j.Grid, rep.Done) }

// StopNote says, for a job cut short, what its output holds: a point or a
// search stopped before it started has no row, and the note says so rather
// than promise a row marked interrupted. A job with points and saturation
// searches says both.
func (j *Job) StopNote(rep *Report) string {
	var notes []string
	if j.Simulates() {
		notes = append(notes, j.pointsNote(rep))
	}
	switch {
	case j.Saturation && len(rep.SatRows) == 0:
		notes = append(notes, "the saturation searches did not start: no row")
	case j.Saturation:
		notes = append(notes, "the saturation searches say how far they got")
	}
	return strings.Join(notes, "; ")
}

// pointsNote is StopNote's part for the points run.
func (j *Job) pointsNote(rep *Report) string {
	switch {
	case len(j.Points) > 1:
		finished := 0
		for _, r := range rep.Rows {
			if !r.Interrupted {
				finished++
			}
		}
		note := fmt.Sprintf("%d of %d points done; the rows cut short are marked interrupted", finished, len(j.Points))
		if n := len(j.Points) - len(rep.Rows); n > 0 {
			note += fmt.Sprintf("; %d not started have no row", n)
		}
		return note
	case len(rep.Rows) == 0:
		return "the point did not start: no row"
	}
	return "the row is partial (marked interrupted)"
}

// writeSaturationRows writes the saturation rows alone: a table, CSV, JSON
// Lines, or one indented JSON object for a single configuration.
func writeSaturationRows(w io.Writer, g *Grid, rows []Row, jsonOut, csvOut bool) error {
	cols := g.Columns()
	switch {
	case jsonOut && len(rows) == 1:
		return writeIndented(w, cols, rows[0])
	case jsonOut:
		return WriteJSONLines(w, cols, rows)
	case csvOut:
		return WriteCSV(w, cols, rows)
	}
	fmt.Fprintln(w, g.Head())
	return WriteSaturation(w, g, rows)
}

func writeIndented(w io.Writer, cols []string, row Row) error {
	b, err := JSON(cols, row)
	if err != nil {
		return err
	}
	var ind bytes.Buffer
	if err := json.Indent(&ind, b, "", "  "); err != nil {
		return err
	}
	ind.WriteByte('\n')
	_, err = w.Write(ind.Bytes())
	return err
}

// writeRows writes the rows: several points as a table, CSV or JSON Lines, one
// point as text or an indented JSON object, every row with its parameters.
func writeRows(w io.Writer, g *Grid, outs []Row, sweep, jsonOut, csvOut bool) error {
	cols := g.Columns()
	switch {
	case jsonOut && !sweep && len(outs) == 1:
		return writeIndented(w, cols, outs[0])
	case jsonOut:
		return WriteJSONLines(w, cols, outs)
	case csvOut:
		return WriteCSV(w, cols, outs)
	case sweep:
		return WriteTable(w, g, outs)
	}
	for _, o := range outs {
		r := o.Result
		fmt.Fprintln(w, g.Head())
		if o.Interrupted {
			fmt.Fprintf(w, "interrupted after %d cycles: the figures are those of the cycles run\n", r.Cycles)
		}
		fmt.Fprintf(w, "offered %g flits/node/cycle (%.4g packets), accepted %.4f\n", r.Offered, r.MsgRate, r.Accepted)
		if r.Saturated {
			fmt.Fprintf(w, "saturated: %s; no steady latency\n", r.Reason)
		} else {
			ci := "(no interval)"
			if r.LatencyCI != nil {
				ci = fmt.Sprintf("+- %s (%g%%)", fmtPtr(r.LatencyCI, 2), 100*r.Level)
			}
			prec := ""
			if !r.Precise {
				prec = " (stop rule not met within the budget)"
			}
			switch {
			case r.Latency == nil && r.Reason != "":
				fmt.Fprintf(w, "latency: none, %s%s\n", r.Reason, prec)
			case r.Latency == nil:
				fmt.Fprintf(w, "latency: no packet measured%s\n", prec)
			default:
				fmt.Fprintf(w, "latency %s %s cycles%s; p50 %s p99 %s max %s\n", fmtPtr(r.Latency, 2), ci, prec, fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0))
			}
		}
		fmt.Fprintf(w, "cycles %d, warm-up %d, %d packets measured; channel use mean %.3f max %.3f\n", r.Cycles, r.Warmup, r.Measured, r.UtilMean, r.UtilMax)
		if len(r.Nodes) > 0 {
			fmt.Fprintf(w, "%-6s %-8s %-8s %-11s %s\n", "node", "offered", "accepted", "latency-src", "latency-dst")
			for _, ns := range r.Nodes {
				fmt.Fprintf(w, "%-6d %-8.4f %-8.4f %-11s %s\n", ns.Node, ns.Offered, ns.Accepted, fmtPtr(ns.LatencySrc, 2), fmtPtr(ns.LatencyDst, 2))
			}
		}
	}
	return nil
}
