package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/draw"
)

func init() {
	register(&command{
		name:    "draw",
		summary: "draw a schedule as an SVG space-time diagram, violations in red",
		run:     runDraw,
	})
}

func runDraw(e *env) error {
	fs := newFlags(e, "draw", "INSTANCE SCHEDULE  |  TRACE",
		"Writes an SVG space-time diagram of SCHEDULE for INSTANCE (\"-\" reads standard\n"+
			"input): one row per edge the messages use, time across, each worm's holdings\n"+
			"as bars in its colour, and the violations wormlab verify finds marked in red\n"+
			"and listed under the diagram; hatching marks the steps in which a worm waits.\n"+
			"An illegal schedule is drawn too (exit status 0); wormlab verify gives the\n"+
			"verdict. Store-and-forward schedules (run --algo store) are drawn as their\n"+
			"packets occupy the edges. Large schedules: select with --messages, --edges,\n"+
			"--time; beyond --max-bars the first messages that fit are drawn and a line on\n"+
			"stderr (and in the picture) says what was left out.\n"+
			"With one argument, a trace written by wormlab sim --trace: one row per channel the\n"+
			"packets used (injection, links, ejection), one column per cycle, each cell the\n"+
			"packet whose flit crossed the channel then (--messages selects packets by number).")
	out := fs.String("o", "", "write the SVG to `FILE` (default standard output)")
	title := fs.String("title", "", "title line (default: instance, model, makespan, verdict)")
	msgs := fs.String("messages", "", "draw only these messages: ids separated by commas")
	edges := fs.String("edges", "", "draw only these edges' rows: indices or from->to names, separated by commas")
	window := fs.String("time", "", "draw only the steps FROM:TO (either may be left out: 10:, :50)")
	maxBars := fs.Int("max-bars", draw.DefaultMaxBars, "draw at most this many bars; beyond, the first messages that fit, and a note on the rest")
	args, err := parseFlags(fs, e.args, 1, 2)
	if err != nil {
		return err
	}
	if *maxBars < 1 {
		return usageError("--max-bars: %d is below 1", *maxBars)
	}
	opt := draw.Options{Title: *title, MaxBars: *maxBars}
	if *window != "" {
		a, b, ok := strings.Cut(*window, ":")
		if !ok {
			return usageError("--time: %q: want FROM:TO", *window)
		}
		for _, p := range []struct {
			s string
			v *int
		}{{a, &opt.From}, {b, &opt.To}} {
			if p.s == "" {
				continue
			}
			v, err := strconv.Atoi(p.s)
			if err != nil || v < 1 {
				return usageError("--time: %q: want positive steps FROM:TO", *window)
			}
			*p.v = v
		}
		if opt.From > 0 && opt.To > 0 && opt.From > opt.To {
			return usageError("--time: %q: FROM is after TO", *window)
		}
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	if len(args) == 1 {
		if *edges != "" {
			return usageError("--edges: a trace is drawn by channel; select packets with --messages")
		}
		return drawTrace(e, args[0], *msgs, *title, opt, *out)
	}
	in, s, err := readPairFilled(e, args[0], args[1])
	if err != nil {
		return err
	}
	if *msgs != "" {
		idx := in.Index()
		opt.Messages = map[int]bool{}
		for _, id := range strings.Split(*msgs, ",") {
			i, ok := idx[strings.TrimSpace(id)]
			if !ok {
				return usageError("--messages: no message %q in the instance", id)
			}
			opt.Messages[i] = true
		}
	}
	if *edges != "" {
		opt.Edges = map[int]bool{}
		for _, f := range strings.Split(*edges, ",") {
			f = strings.TrimSpace(f)
			if k, err := strconv.Atoi(f); err == nil {
				if k < 0 || k >= len(in.Net.Edges) {
					return usageError("--edges: no edge %d (the network has %d)", k, len(in.Net.Edges))
				}
				opt.Edges[k] = true
				continue
			}
			found := false
			for k := range in.Net.Edges {
				if in.Net.EdgeName(k) == f {
					opt.Edges[k], found = true, true
				}
			}
			if !found {
				return usageError("--edges: no edge %q in the network", f)
			}
		}
	}
	var drawn *draw.Drawn
	err = writeOut(e, *out, func(w io.Writer) error {
		var err error
		drawn, err = draw.Render(w, in, s, opt)
		return err
	})
	if err == nil && drawn.LeftOut != "" {
		fmt.Fprintf(e.stderr, "wormlab draw: %s\n", drawn.LeftOut)
	}
	return err
}

// drawTrace draws a trace written by wormlab sim --trace: one row per channel, a
// column per cycle (draw.TraceSVG).
func drawTrace(e *env, path, msgs, title string, opt draw.Options, out string) error {
	r, closer, err := open(e, path)
	if err != nil {
		return err
	}
	defer closer()
	t, err := draw.ReadTrace(r)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	to := draw.TraceOptions{Title: title, From: int64(opt.From), To: int64(opt.To), MaxCells: opt.MaxBars}
	if msgs != "" {
		to.Packets = []int64{}
		for _, id := range strings.Split(msgs, ",") {
			x, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64)
			if err != nil {
				return usageError("--messages: %q is not a packet number", id)
			}
			to.Packets = append(to.Packets, x)
		}
	}
	var left int
	err = writeOut(e, out, func(w io.Writer) error {
		var err error
		_, left, err = draw.TraceSVG(w, t, to)
		return err
	})
	if err != nil {
		return usageError("%s: %v", path, err)
	}
	if left > 0 {
		fmt.Fprintf(e.stderr, "wormlab draw: %d packets left out beyond --max-bars %d cells\n", left, opt.MaxBars)
	}
	return nil
}
