package simrun

import (
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
)

// Job is one invocation of wormlab sim as a value: a grid of runs (from flags, a
// BookSim2 configuration, or both) and what to do with it (simulate the points,
// find each configuration's saturation throughput, write the BookSim2 file, or
// route a MODEL.md instance as a closed batch), with the outputs asked for.
// JobFlags.Job builds and validates it: every check on the command line is made
// there, before any work, and each error is an *Error (or the Env's own) naming
// what is wrong.
type Job struct {
	Grid *Grid
	// Origin maps a parameter set by the BookSim2 file to the key that set it
	// (an error names the key), Notes are the file's remarks (approximations,
	// ignored keys), one line each.
	Origin map[string]string
	Notes  []string

	// Emit: write the BookSim2 configuration (EmitText) to this file instead of
	// simulating.
	Emit, EmitText string
	// Batch: route this MODEL.md instance's messages as a closed batch; Theory in
	// the theory model (V = 1, B = 1, the ideal pipeline), Rotate as wormlab run.
	Batch          string
	Theory, Rotate bool

	// Points are the grid's points, validated (none with Saturation alone);
	// Sweep says the output is a table or rows (several points, or --rates).
	Points []Point
	Sweep  bool
	// LoadGiven: an offered load was given (--rate, --rates, --msg-rate).
	LoadGiven bool
	// Saturation: search each configuration's saturation throughput (SatGrid,
	// SatPoints: the grid without its load axes) to within SatTol.
	Saturation bool
	SatTol     float64
	SatGrid    *Grid
	SatPoints  []Point

	Nodes, Channels bool   // per-node statistics; channels' use in the JSON
	Heatmap         string // .svg file: the network coloured by use and latency
	// Trace: the events of the packets TraceSel selects (TraceText says the
	// selection as given) to this file, at most TraceMax events.
	Trace     string
	TraceSel  TraceSelect
	TraceText string
	// Plot: the latency-load and accepted-offered curves, in PlotFormat.
	Plot, PlotFormat string
	Out              string // the output file ("" or -: standard output)
	JSON, CSV        bool
	Workers          int
	Timeout          time.Duration

	given map[string]bool // the parameters' flags given (Flags.Given)
}

// Env is what reading a job needs from the command around it.
type Env struct {
	// Open opens a configuration file ("-": standard input); the function it
	// returns closes it.
	Open func(path string) (io.Reader, func(), error)
	// CheckOutput refuses an output file that cannot be written (nil: none
	// refused); it is called before any work.
	CheckOutput func(path string) error
	// Implied are flags the caller passes whether or not the run reads them (a
	// sweep's --seed and --json): they are not refused as unused.
	Implied map[string]bool
	// MaxMemory, when positive, is the memory budget: a point whose floor is above
	// it is refused before its network is built (Run.CheckFloor).
	MaxMemory int64
}

// JobFlags are wormlab sim's flags: the run's parameters (Flags) and the job's
// own (outputs, modes, workers).
type JobFlags struct {
	fs  *flag.FlagSet
	run *Flags

	config, emit, batch, heatmap, plot, out                 *string
	trace, tracePackets, traceSrc, traceDst, traceCycles    *string
	lenient, channels, theory, rotate, jsonOut, csvOut, nds *bool
	saturation                                              *bool
	satTol                                                  *float64
	timeout                                                 *time.Duration
	workers, traceMax                                       *int
}

// BindJob declares wormlab sim's flags on fs.
func BindJob(fs *flag.FlagSet) *JobFlags {
	f := &JobFlags{fs: fs, run: Bind(fs, Default())}
	f.config = fs.String("config", "", "read the run from a BookSim2 configuration `FILE` (key = value; lines; key=value arguments override it, flags override both; docs/booksim.md)")
	f.lenient = fs.Bool("lenient", false, "with --config: run with a warning for each key wormlab cannot honour instead of refusing")
	f.emit = fs.String("emit-config", "", "write the BookSim2 configuration of this run to `FILE` (- for standard output) instead of simulating")
	f.channels = fs.Bool("channels", false, "with --json: include every channel's utilisation")
	f.batch = fs.String("batch", "", "route the messages of a MODEL.md instance as a closed batch")
	f.theory = fs.Bool("theory", false, "with --batch: V=1, B=1, ideal pipeline, MODEL.md schedule out")
	f.rotate = fs.Bool("rotate", false, "with --theory: a closed cycle of worms waiting for each other's tails shifts together (wormlab run's default); without it, it is a deadlock")
	f.out = fs.String("o", "", "write the output to FILE")
	f.jsonOut = fs.Bool("json", false, "print JSON (JSON Lines with several points)")
	f.csvOut = fs.Bool("csv", false, "print CSV: a header and a row per point (one point too)")
	f.timeout = fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	f.workers = fs.Int("workers", runtime.GOMAXPROCS(0), "points run at once")
	f.saturation = fs.Bool("saturation", false, "find the saturation throughput of each configuration: by bisection on the offered load, and in BookSim2's throughput mode (every source offered 1 flit/node/cycle)")
	f.satTol = fs.Float64("saturation-tol", 0.01, "with --saturation: the bisection's interval width, in flits/node/cycle")
	f.nds = fs.Bool("nodes", false, "add every node's offered and accepted load and its latency as source and as destination (JSON \"nodes\"; a table in text)")
	f.heatmap = fs.String("heatmap", "", "draw the network to `FILE` (.svg): channels coloured by utilisation, nodes by the latency of their packets (tori and meshes of 1 to 3 dimensions as grids, other networks of up to 2048 routers by a layout; one run)")
	f.trace = fs.String("trace", "", "write the events of the selected packets to `FILE` as JSON Lines (generated, injected, routed with its choices, VC granted, each hop, delivered); wormlab draw FILE draws them")
	f.tracePackets = fs.String("trace-packets", "", "with --trace: packet numbers, a list or a range FROM:TO (0:9 the first ten generated)")
	f.traceSrc = fs.String("trace-src", "", "with --trace: packets from these nodes (a list)")
	f.traceDst = fs.String("trace-dst", "", "with --trace: packets to these nodes (a list)")
	f.traceCycles = fs.String("trace-cycles", "", "with --trace: packets generated in cycles FROM:TO (either may be left out)")
	f.traceMax = fs.Int("trace-max", DefaultTraceMax, "with --trace: the most events written; beyond, the trace is cut and says so")
	f.plot = fs.String("plot", "", "also draw the latency-load and accepted-offered curves to `FILE` (.svg, .png, .pdf, .eps): one series per varying parameter, saturated points marked")
	return f
}

// Given reports whether the flag was on the command line.
func (f *JobFlags) Given(name string) bool {
	if f.run.vals[name] != nil {
		return f.run.Given(name)
	}
	given := false
	f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == name })
	return given
}

// unused refuses the flags in names given on the command line but for the
// implied ones: the job chosen does not read them; why says which job it is.
func (f *JobFlags) unused(env Env, why string, names ...string) error {
	for _, n := range names {
		if f.Given(n) && !env.Implied[n] {
			return &Error{n, "not used " + why}
		}
	}
	return nil
}

// Job reads the parsed flags and args (BookSim2 key=value overrides) into a
// validated job. The notes of a configuration file are in the job even when an
// error follows them.
func (f *JobFlags) Job(args []string, env Env) (*Job, error) {
	j := &Job{Grid: &Grid{Base: Default(), MaxMemory: env.MaxMemory}, Emit: *f.emit, Batch: *f.batch, Theory: *f.theory, Rotate: *f.rotate,
		Saturation: *f.saturation, SatTol: *f.satTol, Nodes: *f.nds, Channels: *f.channels, Heatmap: *f.heatmap,
		Trace: *f.trace, Plot: *f.plot, Out: *f.out, JSON: *f.jsonOut, CSV: *f.csvOut, Workers: *f.workers, Timeout: *f.timeout,
		given: map[string]bool{}}
	for _, n := range f.run.Names() {
		j.given[n] = f.run.Given(n)
	}
	j.LoadGiven = j.given["rate"] || j.given[ratesFlag] || j.given["msg-rate"]
	check := func(path string) error {
		if env.CheckOutput == nil {
			return nil
		}
		return env.CheckOutput(path)
	}
	if !j.JSON {
		if err := f.unused(env, "without --json (the channels' use is a JSON field)", "channels"); err != nil {
			return j, err
		}
	}
	switch {
	case j.Timeout < 0:
		return j, errf("timeout", "%v is negative", j.Timeout)
	case j.Workers < 1:
		return j, errf("workers", "%d is below 1", j.Workers)
	case j.JSON && j.CSV:
		return j, &Error{"", "--json and --csv: give one"}
	}
	if err := check(j.Out); err != nil {
		return j, err
	}
	if err := check(j.Emit); err != nil {
		return j, err
	}
	if j.Plot != "" {
		j.PlotFormat = strings.TrimPrefix(strings.ToLower(filepath.Ext(j.Plot)), ".")
		if !slices.Contains(figure.Formats, j.PlotFormat) {
			return j, &Error{"", fmt.Sprintf("--plot %s: unknown format %q (want .%s)", j.Plot, j.PlotFormat, strings.Join(figure.Formats, ", ."))}
		}
		if err := check(j.Plot); err != nil {
			return j, err
		}
	}
	switch {
	case *f.config != "":
		r, closer, err := env.Open(*f.config)
		if err != nil {
			return j, err
		}
		defer closer()
		run, origin, notes, err := ReadBookSim(r, *f.config, args, *f.lenient)
		if err != nil {
			return j, err // one line: the key at fault
		}
		j.Grid.Base, j.Origin, j.Notes = run, origin, notes
	case len(args) > 0:
		return j, &Error{"", fmt.Sprintf("takes no arguments (key=value overrides go with --config), got %q", args[0])}
	case *f.lenient:
		return j, &Error{"", "--lenient goes with --config"}
	}
	if err := f.run.Apply(j.Grid); err != nil {
		return j, err
	}
	if j.Emit != "" {
		if err := j.cyclesCrossed([]Point{{Run: j.Grid.Base}}); err != nil {
			return j, err
		}
		if len(j.Grid.Axes) > 0 {
			return j, &Error{"", fmt.Sprintf("--emit-config writes one run: --%s has several values", j.Grid.Axes[0].Param)}
		}
		text, err := ToBookSim(j.Grid.Base)
		if err != nil {
			return j, j.Blame(err)
		}
		j.EmitText = text
		return j, nil
	}
	if j.Batch != "" {
		return j, f.batchJob(j, env)
	}
	if j.Theory {
		return j, &Error{"", "--theory needs --batch INSTANCE"}
	}
	if j.Rotate {
		return j, &Error{"", "--rotate needs --batch INSTANCE --theory"}
	}
	pts, err := j.Grid.Points()
	if err != nil {
		return j, j.Blame(err)
	}
	j.Points = pts
	if err := j.cyclesCrossed(pts); err != nil {
		return j, err
	}
	if err := f.traceJob(j, check); err != nil {
		return j, err
	}
	if j.Heatmap != "" {
		if len(pts) > 1 {
			return j, &Error{"", fmt.Sprintf("--heatmap draws one run: --%s has several values", j.Grid.Axes[0].Param)}
		}
		if ext := strings.ToLower(filepath.Ext(j.Heatmap)); ext != ".svg" {
			return j, &Error{"", fmt.Sprintf("--heatmap %s: want a .svg file", j.Heatmap)}
		}
		if err := CheckHeatmap(&j.Grid.Base); err != nil {
			return j, err
		}
		if err := check(j.Heatmap); err != nil {
			return j, err
		}
	}
	if j.Saturation && !j.LoadGiven {
		for _, o := range []struct {
			name string
			on   bool
		}{{"plot", j.Plot != ""}, {"heatmap", j.Heatmap != ""}, {"trace", j.Trace != ""}, {"nodes", j.Nodes}} {
			if o.on {
				return j, &Error{"", "--" + o.name + " draws or reports runs at a load: with --saturation alone there are none (give --rate, a list or a range)"}
			}
		}
	}
	if j.Saturation {
		if !(j.SatTol > 0 && j.SatTol < 1) {
			return j, errf("saturation-tol", "%g outside (0, 1)", j.SatTol)
		}
		j.SatGrid = j.Grid.Configurations()
		if j.SatPoints, err = j.SatGrid.Points(); err != nil {
			return j, j.Blame(err)
		}
	} else if f.Given("saturation-tol") {
		return j, &Error{"", "--saturation-tol goes with --saturation"}
	}
	j.Sweep = len(pts) > 1 || j.given[ratesFlag]
	return j, nil
}

// cyclesCrossed refuses a --min-cycles given above a point's --max-cycles (given,
// listed, the configuration's or the default), naming the point: its run would
// clip --min-cycles to --max-cycles without a word. The default 10000 is clipped
// on purpose (--max-cycles alone).
func (j *Job) cyclesCrossed(pts []Point) error {
	if !j.given["min-cycles"] {
		return nil
	}
	for _, p := range pts {
		r := p.Run
		if r.MinCycles <= r.MaxCycles {
			continue
		}
		at := ""
		for k, a := range j.Grid.Axes {
			at += fmt.Sprintf(" %s=%s", a.Param, p.Vary[k])
		}
		switch {
		case at != "":
			at = " (at" + at + ")"
		case j.Origin["max-cycles"] != "":
			at = " (booksim key " + j.Origin["max-cycles"] + ")"
		case !j.given["max-cycles"]:
			at = " (its default)"
		}
		return errf("min-cycles", "%d is above --max-cycles %d%s", r.MinCycles, r.MaxCycles, at)
	}
	return nil
}

// batchJob checks a batch job: the open loop's flags are refused.
func (f *JobFlags) batchJob(j *Job, env Env) error {
	if j.LoadGiven || j.given["traffic"] {
		return &Error{"", "--batch takes no --rate, --rates, --msg-rate or --traffic"}
	}
	// a batch routes the instance's messages on their paths: the open loop's
	// network, routing, traffic and measurement flags are not read
	why := "with --batch (the instance fixes the network, the paths and the packets)"
	if err := f.unused(env, why, "topology", "routing", "flits", "process", "burst-alpha", "burst-beta", "burst-rate",
		"inject-limit", "hot", "hot-fraction", "radius", "rel", "min-cycles", "max-cycles", "unsafe", "atomic-vc",
		"saturation", "saturation-tol", "plot", "workers", "csv", "channels", "nodes", "heatmap", "trace", "trace-packets",
		"trace-src", "trace-dst", "trace-cycles", "trace-max", "config", "lenient"); err != nil {
		return err
	}
	if j.Theory {
		why := "with --theory (V = 1, B = 1, the ideal pipeline; the output is a MODEL.md schedule)"
		if err := f.unused(env, why, "vcs", "buf", "pipeline", "route-delay", "vc-delay", "sw-delay", "st-delay",
			"link-delay", "credit-delay", "inject-delay", "eject-delay", "select", "json"); err != nil {
			return err
		}
	}
	if len(j.Grid.Axes) > 0 {
		return &Error{j.Grid.Axes[0].Param, "--batch takes one value per flag"}
	}
	if j.Rotate && !j.Theory {
		return &Error{"", "--rotate needs --theory"}
	}
	return nil
}

// traceJob reads the --trace-* flags into j and checks them.
func (f *JobFlags) traceJob(j *Job, check func(string) error) error {
	sel, text, err := ParseTraceSelect(*f.tracePackets, *f.traceSrc, *f.traceDst, *f.traceCycles, *f.traceMax, f.Given("trace-max"))
	if err != nil {
		return err
	}
	j.TraceSel, j.TraceText = sel, text
	if j.Trace == "" {
		if text != "" {
			return &Error{"", "--trace-packets, --trace-src, --trace-dst, --trace-cycles and --trace-max go with --trace FILE"}
		}
		return nil
	}
	if len(j.Points) > 1 {
		return &Error{"", fmt.Sprintf("--trace follows one run: --%s has several values", j.Grid.Axes[0].Param)}
	}
	if sel.Empty() {
		return &Error{"", "--trace needs a selection: --trace-packets (0:9 for the first ten), --trace-src, --trace-dst or --trace-cycles"}
	}
	if err := sel.Check(&j.Grid.Base); err != nil {
		return err
	}
	return check(j.Trace)
}

// Blame names, in an error of the grid's runs, the flag or key the user gave: a
// value from the configuration file names its key, a load given as --rates or
// --msg-rate names that flag.
func (j *Job) Blame(err error) error {
	var se *Error
	if !errors.As(err, &se) {
		return err
	}
	if !j.given[se.Param] && j.Origin[se.Param] != "" {
		return &Error{"", fmt.Sprintf("booksim key %s: %s", j.Origin[se.Param], se.Msg)}
	}
	if se.Param == "rate" && !j.given["rate"] {
		// the flag as it was spelled (FuzzNetworkArgs); a --msg-rate of 0 reads
		// as no packet load, so the flit load is the one checked
		switch {
		case j.given[ratesFlag]:
			se.Param = ratesFlag
		case j.given["msg-rate"]:
			se.Param = "msg-rate"
		}
	}
	return err
}

// ReadBookSim reads a BookSim2 configuration from r (name says where it is in
// errors) and its key=value overrides into a run: origin maps each parameter set
// to its key, notes are the approximations and ignored keys (with lenient, the
// keys not honoured), one line each.
func ReadBookSim(r io.Reader, name string, overrides []string, lenient bool) (run Run, origin map[string]string, notes []string, err error) {
	as, err := ParseBookSim(r, name)
	if err != nil {
		return Run{}, nil, nil, err
	}
	for _, o := range overrides {
		if !strings.Contains(o, "=") {
			return Run{}, nil, nil, &Error{"", fmt.Sprintf("%q: want key=value (a BookSim2 override)", o)}
		}
		a, err := ParseBookSimArg(o)
		if err != nil {
			return Run{}, nil, nil, err
		}
		as = append(as, a)
	}
	return FromBookSim(as, lenient)
}

// ParseTraceSelect reads the --trace-* flags: packet numbers (a list, or a
// range FROM:TO), sources and destinations (lists), a window of generation
// cycles FROM:TO (either end may be left out) and the most events; maxGiven says
// --trace-max was given. text says what was given, for messages ("" when
// nothing was).
func ParseTraceSelect(packets, src, dst, cycles string, most int, maxGiven bool) (sel TraceSelect, text string, err error) {
	sel = TraceSelect{To: -1, Max: most}
	var given []string
	ints := func(name, text string) ([]int64, error) {
		parts := strings.Split(text, ",")
		if strings.Count(text, ":") == 1 && !strings.Contains(text, ",") {
			a, b, _ := strings.Cut(text, ":")
			xs, err := rangeAs(a+":"+b+":1", text, false)
			if err != nil {
				return nil, &Error{name, err.Error()}
			}
			parts = xs
		}
		var out []int64
		for _, p := range parts {
			x, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil {
				return nil, errf(name, "%q is not a whole number", p)
			}
			out = append(out, x)
		}
		return out, nil
	}
	if packets != "" {
		if sel.Packets, err = ints("trace-packets", packets); err != nil {
			return sel, "", err
		}
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
			return sel, "", errf("trace-cycles", "%q: want FROM:TO", cycles)
		}
		if a != "" {
			if sel.From, err = strconv.ParseInt(a, 10, 64); err != nil || sel.From < 0 {
				return sel, "", errf("trace-cycles", "%q: want cycles FROM:TO", cycles)
			}
		}
		if b != "" {
			if sel.To, err = strconv.ParseInt(b, 10, 64); err != nil || sel.To < sel.From {
				return sel, "", errf("trace-cycles", "%q: want cycles FROM:TO with FROM <= TO", cycles)
			}
		}
		given = append(given, "cycles "+cycles)
	}
	if most < 1 {
		return sel, "", errf("trace-max", "%d is below 1", most)
	}
	if maxGiven {
		given = append(given, fmt.Sprintf("at most %d events", most))
	}
	return sel, strings.Join(given, ", "), nil
}
