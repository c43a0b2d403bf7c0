package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/simrun"
	"github.com/wormlab/wormlab/topology"
)

func init() {
	register(&command{
		name:    "sim",
		summary: "cycle-level network simulation: VC routers, credits, open-loop traffic or a batch",
		run:     runSim,
	})
}

func runSim(e *env) error {
	fs := newFlags(e, "sim", "",
		"Simulates input-queued wormhole routers with virtual channels and credit-based flow\n"+
			"control (package sim; docs/simulator.md). Open loop (the default): every node injects\n"+
			"packets at --rate flits/node/cycle (or --msg-rate packets/node/cycle) and the run\n"+
			"reports accepted load, mean latency (generation to tail delivery) with its 95%\n"+
			"interval after an MSER-5 warm-up, percentiles, and whether the point is saturated\n"+
			"(a saturated point prints no latency). A parameter flag may take a list A,B or a\n"+
			"range FROM:TO:STEP (--rates FROM:TO:STEP is --rate's): the cross product runs on\n"+
			"--workers cores, one row per point (--csv, or JSON Lines with --json).\n"+
			"--batch INSTANCE routes a MODEL.md instance's\n"+
			"messages on their fixed paths as a closed batch; with --theory (V=1, B=1, the ideal\n"+
			"pipeline, MODEL.md's pipelining rule) it writes the MODEL.md schedule, which equals\n"+
			"wormlab run's greedy schedule under --arb fixed (run --arb input) or round-robin,\n"+
			"with --rotate as run's default (run --rotate=false without it).")
	rf := simrun.Bind(fs, simrun.Default())
	config := fs.String("config", "", "read the run from a BookSim2 configuration `FILE` (key = value; lines; key=value arguments override it, flags override both; docs/booksim.md)")
	lenient := fs.Bool("lenient", false, "with --config: run with a warning for each key wormlab cannot honour instead of refusing")
	emit := fs.String("emit-config", "", "write the BookSim2 configuration of this run to `FILE` (- for standard output) instead of simulating")
	channels := fs.Bool("channels", false, "with --json: include every channel's utilisation")
	batch := fs.String("batch", "", "route the messages of a MODEL.md instance as a closed batch")
	theory := fs.Bool("theory", false, "with --batch: V=1, B=1, ideal pipeline, MODEL.md schedule out")
	rotate := fs.Bool("rotate", false, "with --theory: a closed cycle of worms waiting for each other's tails shifts together (wormlab run's default); without it, it is a deadlock")
	out := fs.String("o", "", "write the output to FILE")
	jsonOut := fs.Bool("json", false, "print JSON (JSON Lines with several points)")
	csvOut := fs.Bool("csv", false, "with several points: print CSV")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "points run at once")
	saturation := fs.Bool("saturation", false, "find the saturation throughput of each configuration: by bisection on the offered load, and in BookSim2's throughput mode (every source offered 1 flit/node/cycle)")
	satTol := fs.Float64("saturation-tol", 0.01, "with --saturation: the bisection's interval width, in flits/node/cycle")
	nodes := fs.Bool("nodes", false, "add every node's offered and accepted load and its latency as source and as destination (JSON \"nodes\"; a table in text)")
	heatmap := fs.String("heatmap", "", "draw the network to `FILE` (.svg): channels coloured by utilisation, nodes by the latency of their packets (tori and meshes of 1 to 3 dimensions; one run)")
	traceOut := fs.String("trace", "", "write the events of the selected packets to `FILE` as JSON Lines (generated, injected, routed with its choices, VC granted, each hop, delivered); wormlab draw FILE draws them")
	tracePackets := fs.String("trace-packets", "", "with --trace: packet numbers, a list or a range FROM:TO (0:9 the first ten generated)")
	traceSrc := fs.String("trace-src", "", "with --trace: packets from these nodes (a list)")
	traceDst := fs.String("trace-dst", "", "with --trace: packets to these nodes (a list)")
	traceCycles := fs.String("trace-cycles", "", "with --trace: packets generated in cycles FROM:TO (either may be left out)")
	traceMax := fs.Int("trace-max", simrun.DefaultTraceMax, "with --trace: the most events written; beyond, the trace is cut and says so")
	plotOut := fs.String("plot", "", "also draw the latency-load and accepted-offered curves to `FILE` (.svg, .png, .pdf, .eps): one series per varying parameter, saturated points marked")
	memory := memoryFlag(fs)
	args, err := parseFlags(fs, e.args, 0, -1)
	if err != nil {
		return err
	}
	if !*jsonOut {
		if err := unused(e, fs, "without --json (the channels' use is a JSON field)", "channels"); err != nil {
			return err
		}
	}
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *workers < 1 {
		return usageError("--workers: %d is below 1", *workers)
	}
	if *jsonOut && *csvOut {
		return usageError("--json and --csv: give one")
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	if err := checkOutput(*emit); err != nil {
		return err
	}
	plotFormat := ""
	if *plotOut != "" {
		plotFormat = strings.TrimPrefix(strings.ToLower(filepath.Ext(*plotOut)), ".")
		if !slices.Contains(figure.Formats, plotFormat) {
			return usageError("--plot %s: unknown format %q (want .%s)", *plotOut, plotFormat, strings.Join(figure.Formats, ", ."))
		}
		if err := checkOutput(*plotOut); err != nil {
			return err
		}
	}
	grid := &simrun.Grid{Base: simrun.Default()}
	var origin map[string]string
	switch {
	case *config != "":
		if grid.Base, origin, err = readBookSim(e, *config, args, *lenient); err != nil {
			return err
		}
	case len(args) > 0:
		return usageError("takes no arguments (key=value overrides go with --config), got %q", args[0])
	case *lenient:
		return usageError("--lenient goes with --config")
	}
	if err := rf.Apply(grid); err != nil {
		return usageError("%v", err)
	}
	// both given and crossed: the run would clip --min-cycles to --max-cycles
	// without a word (the default 10000 is clipped on purpose: --max-cycles alone)
	if rf.Given("min-cycles") && rf.Given("max-cycles") && grid.Base.MinCycles > grid.Base.MaxCycles {
		return usageError("--min-cycles: %d is above --max-cycles %d", grid.Base.MinCycles, grid.Base.MaxCycles)
	}
	// a bad value from the configuration names its key, not a flag it was not
	// given as
	badRun := func(err error) error {
		var se *simrun.Error
		if errors.As(err, &se) && !rf.Given(se.Param) && origin[se.Param] != "" {
			return usageError("booksim key %s: %s", origin[se.Param], se.Msg)
		}
		if se != nil && se.Param == "rate" && !rf.Given("rate") {
			// the flag as it was spelled (FuzzNetworkArgs); a --msg-rate of 0
			// reads as no packet load, so the flit load is the one checked
			switch {
			case rf.Given("rates"):
				se.Param = "rates"
			case rf.Given("msg-rate"):
				se.Param = "msg-rate"
			}
		}
		return usageError("%v", err)
	}
	if *emit != "" {
		if len(grid.Axes) > 0 {
			return usageError("--emit-config writes one run: --%s has several values", grid.Axes[0].Param)
		}
		text, err := simrun.ToBookSim(grid.Base)
		if err != nil {
			return badRun(err)
		}
		return writeOut(e, *emit, func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
	}
	budget, restore := memory()
	defer restore()
	ctx, stop := withTimeout(e, *timeout)
	defer stop()
	if *batch != "" {
		if rf.Given("rate") || rf.Given("rates") || rf.Given("msg-rate") || rf.Given("traffic") {
			return usageError("--batch takes no --rate, --rates, --msg-rate or --traffic")
		}
		// a batch routes the instance's messages on their paths: the open loop's
		// network, routing, traffic and measurement flags are not read
		why := "with --batch (the instance fixes the network, the paths and the packets)"
		if err := unused(e, fs, why, "topology", "routing", "flits", "process", "burst-alpha", "burst-beta", "burst-rate",
			"inject-limit", "hot", "hot-fraction", "radius", "rel", "min-cycles", "max-cycles", "unsafe", "atomic-vc",
			"saturation", "saturation-tol", "plot", "workers", "csv", "channels", "nodes", "heatmap", "trace", "trace-packets",
			"trace-src", "trace-dst", "trace-cycles", "trace-max", "config", "lenient"); err != nil {
			return err
		}
		if *theory {
			why := "with --theory (V = 1, B = 1, the ideal pipeline; the output is a MODEL.md schedule)"
			if err := unused(e, fs, why, "vcs", "buf", "pipeline", "route-delay", "vc-delay", "sw-delay", "st-delay",
				"link-delay", "credit-delay", "inject-delay", "eject-delay", "select", "json"); err != nil {
				return err
			}
		}
		if len(grid.Axes) > 0 {
			return usageError("--%s: --batch takes one value per flag", grid.Axes[0].Param)
		}
		in, err := readInstance(e, *batch)
		if err != nil {
			return err
		}
		cfg, err := grid.Base.Router(topology.FromModel(in.Net))
		if err != nil {
			return usageError("%v", err)
		}
		cfg.MaxMemory = budget
		if *theory {
			return simTheory(ctx, e, in, cfg, *rotate, *out)
		}
		if *rotate {
			return usageError("--rotate needs --theory")
		}
		return simBatch(ctx, e, in, cfg, *out, *jsonOut)
	}
	if *theory {
		return usageError("--theory needs --batch INSTANCE")
	}
	if *rotate {
		return usageError("--rotate needs --batch INSTANCE --theory")
	}
	pts, err := grid.Points()
	if err != nil {
		return badRun(err)
	}
	var tracer *simrun.Tracer
	sel, selText, err := traceSelection(fs, *tracePackets, *traceSrc, *traceDst, *traceCycles, *traceMax)
	if err != nil {
		return err
	}
	if *traceOut != "" {
		if len(pts) > 1 {
			return usageError("--trace follows one run: --%s has several values", grid.Axes[0].Param)
		}
		if sel.Empty() {
			return usageError("--trace needs a selection: --trace-packets (0:9 for the first ten), --trace-src, --trace-dst or --trace-cycles")
		}
		if err := sel.Check(&grid.Base); err != nil {
			return usageError("%v", err)
		}
		if err := checkOutput(*traceOut); err != nil {
			return err
		}
		if tracer, err = simrun.NewTracer(&grid.Base, sel); err != nil {
			return err
		}
	} else if selText != "" {
		return usageError("--trace-packets, --trace-src, --trace-dst, --trace-cycles and --trace-max go with --trace FILE")
	}
	if *heatmap != "" {
		if len(pts) > 1 {
			return usageError("--heatmap draws one run: --%s has several values", grid.Axes[0].Param)
		}
		if ext := strings.ToLower(filepath.Ext(*heatmap)); ext != ".svg" {
			return usageError("--heatmap %s: want a .svg file", *heatmap)
		}
		if err := simrun.CheckHeatmap(&grid.Base); err != nil {
			return usageError("%v", err)
		}
		if err := checkOutput(*heatmap); err != nil {
			return err
		}
	}
	loadGiven := rf.Given("rate") || rf.Given("rates") || rf.Given("msg-rate")
	var satGrid *simrun.Grid
	var satPts []simrun.Point
	if *saturation && !loadGiven {
		for _, f := range []struct {
			name string
			on   bool
		}{{"plot", *plotOut != ""}, {"heatmap", *heatmap != ""}, {"trace", *traceOut != ""}, {"nodes", *nodes}} {
			if f.on {
				return usageError("--%s draws or reports runs at a load: with --saturation alone there are none (give --rate, a list or a range)", f.name)
			}
		}
	}
	if *saturation {
		if !(*satTol > 0 && *satTol < 1) {
			return usageError("--saturation-tol: %g outside (0, 1)", *satTol)
		}
		satGrid = grid.Configurations()
		if satPts, err = satGrid.Points(); err != nil {
			return badRun(err)
		}
	} else if setFlags(fs)["saturation-tol"] {
		return usageError("--saturation-tol goes with --saturation")
	}
	sweep := len(pts) > 1 || rf.Given("rates")
	if len(pts) > 1 || *saturation {
		defer simrun.TuneGC()()
	}
	var done []simrun.Outcome
	var runErr error
	if !*saturation || loadGiven {
		opt := simrun.Options{Workers: *workers, MaxMemory: budget}
		if e.stderrTTY && len(pts) > 1 {
			opt.Progress = progressLine(e.stderr, "sim", "points")
		}
		if *nodes || *heatmap != "" || tracer != nil {
			opt.Prepare = func(_ *simrun.Point, b *simrun.Built) {
				b.Measure.Nodes = *nodes || *heatmap != ""
				if tracer != nil {
					b.Config.Trace = tracer.Event
				}
			}
		}
		outs := simrun.Execute(ctx, pts, opt)
		if opt.Progress != nil {
			fmt.Fprintln(e.stderr)
		}
		for _, o := range outs {
			if o.Err != nil && runErr == nil {
				runErr = o.Err
			}
			if o.Result == nil {
				continue // not started: nothing to show
			}
			if *heatmap != "" {
				hm, err := simrun.HeatmapOf(&o.Point.Run, o.Result, grid.Head()+fmt.Sprintf(" offered %g", o.Result.Offered))
				if err != nil {
					return err
				}
				err = writeOut(e, *heatmap, func(w io.Writer) error { return figure.Heatmap(w, hm) })
				if err != nil {
					return err
				}
			}
			if !*channels {
				o.Result.Channels = nil
			}
			if !*nodes {
				o.Result.Nodes = nil
			}
			done = append(done, o)
		}
	}
	if tracer != nil && len(done) > 0 && tracer.Packets() == 0 {
		return usageError("%v", tracer.NoMatch(selText)) // nothing written
	}
	rows := simrun.Rows(done)
	var satRows []simrun.Row
	if *saturation && ctx.Err() == nil && runErr == nil {
		runs := make([]simrun.Run, len(satPts))
		for i, p := range satPts {
			runs[i] = p.Run
		}
		opt := simrun.SatOptions{Tolerance: *satTol, Workers: *workers, MaxMemory: budget}
		if e.stderrTTY {
			opt.Progress = progressLine(e.stderr, "sim: saturation", "probes")
		}
		sats, err := simrun.Saturate(ctx, runs, opt)
		if opt.Progress != nil {
			fmt.Fprintln(e.stderr)
		}
		if err != nil && ctx.Err() == nil {
			runErr = err
		}
		for i, p := range satPts {
			satRows = append(satRows, simrun.Row{Point: p, Saturation: sats[i]})
		}
		for i := range rows {
			rows[i].Saturation = sats[grid.ConfigurationOf(rows[i].Point)]
		}
	}
	werr := writeOut(e, *out, func(wr io.Writer) error {
		if *saturation && !loadGiven {
			return printSaturation(wr, satGrid, satRows, *jsonOut, *csvOut)
		}
		if err := printSim(wr, grid, rows, sweep, *jsonOut, *csvOut); err != nil {
			return err
		}
		if *saturation && !*jsonOut && !*csvOut {
			fmt.Fprintln(wr)
			return simrun.WriteSaturation(wr, satGrid, satRows)
		}
		return nil
	})
	if werr != nil {
		return werr
	}
	if tracer != nil && len(done) > 0 {
		b, err := tracer.Bytes()
		if err != nil {
			return err
		}
		if err := writeOut(e, *traceOut, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
			return err
		}
		if tracer.Truncated() {
			fmt.Fprintf(e.stderr, "wormlab sim: --trace: %d packets selected; the trace stops at --trace-max %d events\n", tracer.Packets(), *traceMax)
		}
	}
	if *plotOut != "" && len(done) > 0 {
		figs, err := simrun.Figures(grid, done)
		if err != nil {
			return fmt.Errorf("--plot: %v", err)
		}
		err = writeOut(e, *plotOut, func(w io.Writer) error {
			return figure.DrawColumn(w, figs, plotFormat, figure.DefaultWidth, figure.DefaultHeight)
		})
		if err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		switch {
		case *saturation:
			return stopped(ctx, "the saturation searches say how far they got")
		case len(pts) > 1:
			finished := 0
			for _, r := range rows {
				if !r.Interrupted {
					finished++
				}
			}
			return stopped(ctx, "%d of %d points done; the rows cut short are marked interrupted", finished, len(pts))
		default:
			return stopped(ctx, "the row is partial (marked interrupted)")
		}
	}
	if runErr != nil {
		var dl *sim.DeadlockError
		if errors.As(runErr, &dl) {
			return negative("%v", strings.TrimPrefix(runErr.Error(), "sim: "))
		}
		var se *simrun.Error
		if errors.As(runErr, &se) {
			return usageError("%v", se)
		}
		var me *sim.MemoryError
		if errors.As(runErr, &me) {
			return usageError("--max-memory: %s", strings.TrimPrefix(me.Error(), "sim: "))
		}
		return runErr
	}
	return nil
}

// readBookSim reads a BookSim2 configuration and its key=value overrides into a
// run; the notes (approximations, ignored keys, with lenient the keys not
// honoured) go to stderr, one line each.
func readBookSim(e *env, path string, overrides []string, lenient bool) (simrun.Run, map[string]string, error) {
	r, closer, err := open(e, path)
	if err != nil {
		return simrun.Run{}, nil, err
	}
	defer closer()
	as, err := simrun.ParseBookSim(r, path)
	if err != nil {
		return simrun.Run{}, nil, err
	}
	for _, o := range overrides {
		if !strings.Contains(o, "=") {
			return simrun.Run{}, nil, usageError("%q: want key=value (a BookSim2 override)", o)
		}
		a, err := simrun.ParseBookSimArg(o)
		if err != nil {
			return simrun.Run{}, nil, err
		}
		as = append(as, a)
	}
	run, origin, notes, err := simrun.FromBookSim(as, lenient)
	if err != nil {
		return run, nil, err // one line: the key at fault
	}
	for _, n := range notes {
		fmt.Fprintf(e.stderr, "wormlab sim: config: %s\n", n)
	}
	return run, origin, nil
}

// traceSelection reads the --trace-* flags; the text names what was given.
func traceSelection(fs *flag.FlagSet, packets, src, dst, cycles string, most int) (simrun.TraceSelect, string, error) {
	sel := simrun.TraceSelect{To: -1, Max: most}
	var given []string
	ints := func(name, text string) ([]int64, error) {
		var out []int64
		parts := strings.Split(text, ",")
		if strings.Count(text, ":") == 1 && !strings.Contains(text, ",") {
			a, b, _ := strings.Cut(text, ":")
			parts = nil
			xs, err := simrun.Range(a+":"+b+":1", false)
			if err != nil {
				return nil, usageError("--%s: %v", name, err)
			}
			parts = xs
		}
		for _, p := range parts {
			x, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil {
				return nil, usageError("--%s: %q is not a whole number", name, p)
			}
			out = append(out, x)
		}
		return out, nil
	}
	if packets != "" {
		xs, err := ints("trace-packets", packets)
		if err != nil {
			return sel, "", err
		}
		sel.Packets = xs
		given = append(given, "packets "+packets)
	}
	for _, l := range []struct {
		name, text string
		dst        *[]int
	}{{"trace-src", src, &sel.Src}, {"trace-dst", dst, &sel.Dst}} {
		if l.text == "" {
			continue
		}
		xs, err := ints(l.name, l.text)
		if err != nil {
			return sel, "", err
		}
		for _, x := range xs {
			*l.dst = append(*l.dst, int(x))
		}
		given = append(given, strings.TrimPrefix(l.name, "trace-")+" "+l.text)
	}
	if cycles != "" {
		a, b, ok := strings.Cut(cycles, ":")
		if !ok {
			return sel, "", usageError("--trace-cycles: %q: want FROM:TO", cycles)
		}
		var err error
		if a != "" {
			if sel.From, err = strconv.ParseInt(a, 10, 64); err != nil || sel.From < 0 {
				return sel, "", usageError("--trace-cycles: %q: want cycles FROM:TO", cycles)
			}
		}
		if b != "" {
			if sel.To, err = strconv.ParseInt(b, 10, 64); err != nil || sel.To < sel.From {
				return sel, "", usageError("--trace-cycles: %q: want cycles FROM:TO with FROM <= TO", cycles)
			}
		}
		given = append(given, "cycles "+cycles)
	}
	if most < 1 {
		return sel, "", usageError("--trace-max: %d is below 1", most)
	}
	if setFlags(fs)["trace-max"] {
		given = append(given, fmt.Sprintf("at most %d events", most))
	}
	return sel, strings.Join(given, ", "), nil
}

// setFlags is the set of flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// printSaturation writes the saturation rows alone: a table, CSV, JSON Lines, or
// one indented JSON object for a single configuration.
func printSaturation(w io.Writer, g *simrun.Grid, rows []simrun.Row, jsonOut, csvOut bool) error {
	cols := g.Columns()
	switch {
	case jsonOut && len(rows) == 1:
		return writeIndented(w, cols, rows[0])
	case jsonOut:
		return simrun.WriteJSONLines(w, cols, rows)
	case csvOut:
		return simrun.WriteCSV(w, cols, rows)
	}
	fmt.Fprintln(w, g.Head())
	return simrun.WriteSaturation(w, g, rows)
}

func writeIndented(w io.Writer, cols []string, row simrun.Row) error {
	b, err := simrun.JSON(cols, row)
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

// progressLine returns a progress callback that redraws one terminal line: points
// done, the total, and the time left estimated from the mean time per point.
func progressLine(w io.Writer, what, unit string) func(done, total int) {
	start := time.Now()
	return func(done, total int) {
		el := time.Since(start)
		left := time.Duration(float64(el) / float64(done) * float64(total-done)).Round(time.Second)
		fmt.Fprintf(w, "\r\x1b[K%s: %d/%d %s, %v elapsed, about %v left", what, done, total, unit, el.Round(time.Second), left)
	}
}

func fmtPtr(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

// printSim writes the rows: several points as a table, CSV or JSON Lines, one
// point as text or an indented JSON object, every row with its parameters.
func printSim(w io.Writer, g *simrun.Grid, outs []simrun.Row, sweep, jsonOut, csvOut bool) error {
	cols := g.Columns()
	switch {
	case jsonOut && !sweep && len(outs) == 1:
		return writeIndented(w, cols, outs[0])
	case jsonOut:
		return simrun.WriteJSONLines(w, cols, outs)
	case csvOut:
		return simrun.WriteCSV(w, cols, outs)
	case sweep:
		return simrun.WriteTable(w, g, outs)
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
			fmt.Fprintf(w, "latency %s %s cycles%s; p50 %s p99 %s max %s\n", fmtPtr(r.Latency, 2), ci, prec, fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0))
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

// batchPackets turns an instance's messages into packets on their fixed paths.
func batchPackets(in *model.Instance, net *topology.General) []sim.Packet {
	ps := make([]sim.Packet, len(in.Messages))
	for i, m := range in.Messages {
		path := make([]int, len(m.Path))
		for k, ed := range m.Path {
			path[k] = net.PortOf(ed)
		}
		ps[i] = sim.Packet{Src: in.Net.Edges[m.Path[0]].From, Dst: in.Net.Edges[m.Path[len(m.Path)-1]].To, Flits: m.L, Path: path}
	}
	return ps
}

type simBatchReport struct {
	// Interrupted: Ctrl-C or --timeout ended the batch; messages not delivered
	// have delivery and latency 0.
	Interrupted bool    `json:"interrupted,omitempty"`
	Makespan    int64   `json:"makespan"`
	Latency     float64 `json:"latency"`
	Cycles      int64   `json:"cycles"`
	Messages    []struct {
		ID        string `json:"id"`
		Delivered int64  `json:"delivered"`
		Latency   int64  `json:"latency"`
	} `json:"messages"`
}

func simBatch(ctx context.Context, e *env, in *model.Instance, cfg sim.Config, out string, jsonOut bool) error {
	net := cfg.Net.(*topology.General)
	res, err := sim.RunBatch(ctx, cfg, batchPackets(in, net), sim.BatchOptions{})
	cut := err != nil && ctx.Err() != nil && res != nil
	if err := batchErr(in, err); err != nil && !cut {
		return err
	}
	rep := simBatchReport{Makespan: res.Makespan, Cycles: res.Cycles, Interrupted: cut}
	delivered := 0
	rep.Messages = make([]struct {
		ID        string `json:"id"`
		Delivered int64  `json:"delivered"`
		Latency   int64  `json:"latency"`
	}, len(in.Messages))
	for i, m := range in.Messages {
		rep.Messages[i].ID = m.ID
		rep.Messages[i].Delivered = res.Delivered[i]
		rep.Messages[i].Latency = res.Latency[i]
		rep.Latency += float64(res.Latency[i]) / float64(len(in.Messages))
		if res.Delivered[i] > 0 || res.Latency[i] > 0 {
			delivered++
		}
	}
	werr := writeOut(e, out, func(w io.Writer) error {
		if jsonOut {
			return writeJSON(w, rep)
		}
		if cut {
			_, err := fmt.Fprintf(w, "%s after %d cycles: %d of %d messages delivered\n", stopReason(ctx), rep.Cycles, delivered, len(in.Messages))
			return err
		}
		fmt.Fprintf(w, "makespan %d, mean latency %.2f cycles, %d messages\n", rep.Makespan, rep.Latency, len(in.Messages))
		return nil
	})
	if werr != nil || !cut {
		return werr
	}
	return stopped(ctx, "%d of %d messages delivered", delivered, len(in.Messages))
}

// batchErr maps a batch's error to an exit status; a deadlock names the messages
// of the wait cycle (a batch released at 0 numbers its packets as its messages).
func batchErr(in *model.Instance, err error) error {
	if err == nil {
		return nil
	}
	var dl *sim.DeadlockError
	var ce *sim.ConfigError
	var me *sim.MemoryError
	switch {
	case errors.As(err, &me):
		return usageError("--max-memory: %s", strings.TrimPrefix(me.Error(), "sim: "))
	case errors.As(err, &dl):
		var b strings.Builder
		fmt.Fprintf(&b, "deadlock: no flit moved for %d cycles up to cycle %d with %d flits in the network", dl.Idle, dl.At, dl.Flits)
		if len(dl.Cycle) > 0 {
			b.WriteString("; wait cycle:")
			for _, w := range dl.Cycle {
				fmt.Fprintf(&b, " (node %s input %d vc %d message %q)", w.Name, w.Port, w.VC, in.Messages[w.Packet].ID)
			}
		}
		return negative("%s", b.String())
	case errors.As(err, &ce):
		return usageError("%v", strings.TrimPrefix(err.Error(), "sim: "))
	}
	return err
}

// simTheory runs the instance in the theory model and writes the MODEL.md schedule.
func simTheory(ctx context.Context, e *env, in *model.Instance, cfg sim.Config, rotate bool, out string) error {
	tc, ps := sim.TheoryConfig(in, cfg.Arbiter, cfg.Seed)
	tc.Rotate = rotate
	tc.DeadlockCycles = cfg.DeadlockCycles
	tc.MaxMemory = cfg.MaxMemory
	s, _, err := sim.TheoryRun(ctx, in, tc, ps)
	if err != nil && ctx.Err() != nil {
		return stopped(ctx, "no schedule (the batch did not end)")
	}
	if err := batchErr(in, err); err != nil {
		return err
	}
	return writeSchedule(e, out, s)
}
