package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
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
			"(a saturated point prints no latency). --rates FROM:TO:STEP prints one row per rate\n"+
			"(--csv, or JSON Lines with --json). --batch INSTANCE routes a MODEL.md instance's\n"+
			"messages on their fixed paths as a closed batch; with --theory (V=1, B=1, the ideal\n"+
			"pipeline, MODEL.md's pipelining rule) it writes the MODEL.md schedule, which equals\n"+
			"wormlab run's greedy schedule under --arb fixed (run --arb input) or round-robin,\n"+
			"with --rotate as run's default (run --rotate=false without it).\n\n"+
			"routings: "+strings.Join(routing.Names(), ", ")+"\n"+
			"traffic: "+strings.Join(sim.PatternNames(), ", ")+"\n"+
			"pipelines: "+strings.Join(sim.PipelineNames(), ", "))
	topo := fs.String("topology", "torus:8x8", "network: torus:KxK..., mesh:KxK..., fattree:N")
	rname := fs.String("routing", "dor", "routing algorithm")
	vcs := fs.Int("vcs", 4, "virtual channels per physical channel")
	buf := fs.Int("buf", 8, "flits per VC buffer")
	flits := fs.String("flits", "16", "packet size in flits: 16, a mix 1,16 or weighted 1:0.8,16:0.2")
	traffic := fs.String("traffic", "uniform", "traffic pattern")
	rate := fs.Float64("rate", 0, "offered load in flits/node/cycle, in (0, 1] (default 0.1)")
	rates := fs.String("rates", "", "sweep FROM:TO:STEP of --rate, one row per rate")
	msgRate := fs.Float64("msg-rate", 0, "offered load in packets/node/cycle instead of --rate")
	process := fs.String("process", "bernoulli", "injection process: "+strings.Join(sim.ProcessNames(), ", "))
	pipe := fs.String("pipeline", "booksim", "router delay preset: "+strings.Join(sim.PipelineNames(), ", "))
	dRoute := fs.Int("route-delay", -1, "routing delay (cycles; -1: the preset's)")
	dVC := fs.Int("vc-delay", -1, "VC allocation delay")
	dSw := fs.Int("sw-delay", -1, "switch allocation delay")
	dST := fs.Int("st-delay", -1, "switch traversal delay")
	dLink := fs.Int("link-delay", -1, "link latency")
	dCredit := fs.Int("credit-delay", -1, "credit latency")
	dInj := fs.Int("inject-delay", -1, "generation to injection buffer")
	dEj := fs.Int("eject-delay", -1, "switch to sink")
	sel := fs.String("select", "first", "selection among free VCs: "+strings.Join(sim.SelectorNames(), ", "))
	arb := fs.String("arb", "round-robin", "arbitration: "+strings.Join(sim.ArbitrationNames(), ", "))
	seed := fs.Uint64("seed", 1, "random seed")
	unsafe := fs.Bool("unsafe", false, "allow fewer VCs than the routing needs to be deadlock-free")
	atomic := fs.String("atomic-vc", "auto", "reallocate a VC only once its buffer is empty: on, off, or auto (on for routings that rest on Duato's theorem)")
	limit := fs.Int("inject-limit", 0, "a node starts a packet only while fewer than N of its packets are in the network (0: no limit)")
	hot := fs.String("hot", "", "hotspot: hot nodes, comma-separated (default 0)")
	hotFrac := fs.Float64("hot-fraction", 0, "hotspot: share of packets to the hot nodes (default 0.1)")
	radius := fs.Int("radius", 0, "local: largest distance (default 1)")
	rel := fs.Float64("rel", 0.02, "stop when the interval's half-width is below this fraction of the mean")
	minCycles := fs.Int64("min-cycles", 10000, "cycles before the stop rule is looked at")
	maxCycles := fs.Int64("max-cycles", 200000, "cycle budget of a point")
	deadCycles := fs.Int("deadlock-cycles", 1000, "cycles without a move that make a deadlock")
	channels := fs.Bool("channels", false, "with --json: include every channel's utilisation")
	batch := fs.String("batch", "", "route the messages of a MODEL.md instance as a closed batch")
	theory := fs.Bool("theory", false, "with --batch: V=1, B=1, ideal pipeline, MODEL.md schedule out")
	rotate := fs.Bool("rotate", false, "with --theory: a closed cycle of worms waiting for each other's tails shifts together (wormlab run's default); without it, it is a deadlock")
	out := fs.String("o", "", "write the output to FILE")
	jsonOut := fs.Bool("json", false, "print JSON (JSON Lines with --rates)")
	csvOut := fs.Bool("csv", false, "with --rates: print CSV")
	timeout := fs.Duration("timeout", 0, "stop after this long (0: no limit)")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *timeout < 0 {
		return usageError("--timeout: %v is negative", *timeout)
	}
	if *buf < 1 {
		return usageError("--buf: %d, want at least 1", *buf)
	}
	if *vcs < 1 || *vcs > 64 {
		return usageError("--vcs: %d outside 1..64", *vcs)
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	ctx, stop := interruptContext()
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	delays := func(p sim.Pipeline) sim.Pipeline {
		for _, d := range []struct {
			v   int
			dst *int
		}{{*dRoute, &p.Route}, {*dVC, &p.VCAlloc}, {*dSw, &p.SwAlloc}, {*dST, &p.Traverse}, {*dLink, &p.Link}, {*dCredit, &p.Credit}, {*dInj, &p.Inject}, {*dEj, &p.Eject}} {
			if d.v >= 0 {
				*d.dst = d.v
			}
		}
		return p
	}
	selector, err := sim.LookupSelector(*sel)
	if err != nil {
		return usageError("--select: %v", err)
	}
	arbit, err := sim.LookupArbitration(*arb)
	if err != nil {
		return usageError("--arb: %v", err)
	}
	if *batch != "" {
		if set["rate"] || set["rates"] || set["msg-rate"] || set["traffic"] {
			return usageError("--batch takes no --rate, --rates, --msg-rate or --traffic")
		}
		in, err := readInstance(e, *batch)
		if err != nil {
			return err
		}
		net := topology.FromModel(in.Net)
		cfg := sim.Config{Net: net, VCs: *vcs, Buf: *buf, Select: selector, Arbiter: arbit, Seed: *seed, DeadlockCycles: *deadCycles}
		p, err := sim.LookupPipeline(*pipe, net)
		if err != nil {
			return usageError("--pipeline: %v", err)
		}
		cfg.Pipeline = delays(p)
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
	net, alg, need, err := networkRouting(*topo, *rname)
	if err != nil {
		return err
	}
	if *vcs < need && !*unsafe {
		return usageError("--vcs: %s needs at least %d VCs on %s, got %d (--unsafe to run anyway)", alg.Name, need, net, *vcs)
	}
	rt, err := alg.New(net, *vcs)
	if err != nil {
		return usageError("--routing: %v", err)
	}
	p, err := sim.LookupPipeline(*pipe, net)
	if err != nil {
		return usageError("--pipeline: %v", err)
	}
	sizes, err := sim.ParseSizes(*flits)
	if err != nil {
		return usageError("--flits: %v", err)
	}
	proc, err := sim.LookupProcess(*process)
	if err != nil {
		return usageError("--process: %v", err)
	}
	params := sim.PatternParams{Net: net, HotFraction: *hotFrac, Radius: *radius, Seed: *seed}
	if *hot != "" {
		for _, s := range strings.Split(*hot, ",") {
			x, err := strconv.Atoi(s)
			if err != nil {
				return usageError("--hot: %q is not a node number", s)
			}
			params.Hot = append(params.Hot, x)
		}
	}
	pat, err := sim.NewPattern(*traffic, params)
	if err != nil {
		return usageError("--traffic: %v", err)
	}
	if set["rate"] && set["msg-rate"] {
		return usageError("--rate and --msg-rate: give one")
	}
	var points []float64
	msg := set["msg-rate"]
	switch {
	case *rates != "":
		if set["rate"] || msg {
			return usageError("--rates: give --rates or --rate / --msg-rate, not both")
		}
		points, err = parseRates(*rates)
		if err != nil {
			return usageError("--rates: %v", err)
		}
	case msg:
		if !(*msgRate > 0 && *msgRate <= 1) {
			return usageError("--msg-rate: %g outside (0, 1]", *msgRate)
		}
		points = []float64{*msgRate}
	default:
		r := *rate
		if !set["rate"] {
			r = 0.1
		}
		if !(r > 0 && r <= 1) {
			return usageError("--rate: %g outside (0, 1]", r)
		}
		points = []float64{r}
	}
	if *limit < 0 {
		return usageError("--inject-limit: %d is negative", *limit)
	}
	if *deadCycles < 1 {
		return usageError("--deadlock-cycles: %d, want at least 1", *deadCycles)
	}
	if !(*rel > 0) || *minCycles < 1 || *maxCycles < 1 {
		return usageError("--rel, --min-cycles and --max-cycles must be positive")
	}
	cfg := sim.Config{Net: net, Routing: rt, VCs: *vcs, Buf: *buf, Pipeline: delays(p), Select: selector, Arbiter: arbit, Seed: *seed, DeadlockCycles: *deadCycles}
	switch *atomic {
	case "auto":
		cfg.AtomicVC = alg.Atomic
	case "on":
		cfg.AtomicVC = true
	case "off":
	default:
		return usageError("--atomic-vc: %q, want on, off or auto", *atomic)
	}
	meas := sim.Measure{RelHalfWidth: *rel, MinCycles: *minCycles, MaxCycles: *maxCycles}
	head := fmt.Sprintf("%s %s vcs=%d buf=%d flits=%s %s %s pipeline=%s seed=%d", net, alg.Name, *vcs, *buf, sizes, *traffic, *process, *pipe, *seed)
	var rows []*sim.Result
	var runErr error
	for _, x := range points {
		w := sim.Workload{Pattern: pat, Process: proc, Sizes: sizes, InjectLimit: *limit}
		if msg {
			w.MsgRate = x
		} else {
			w.Rate = x
		}
		res, err := sim.RunOpen(ctx, cfg, w, meas)
		if err != nil {
			var ce *sim.ConfigError
			if errors.As(err, &ce) {
				return usageError("%v", strings.TrimPrefix(err.Error(), "sim: "))
			}
			runErr = err
			if res != nil && ctx.Err() != nil {
				rows = append(rows, res)
			}
			break
		}
		if !*channels {
			res.Channels = nil
		}
		rows = append(rows, res)
	}
	werr := writeOut(e, *out, func(wr io.Writer) error {
		return printSimRows(wr, head, rows, *rates != "", *jsonOut, *csvOut)
	})
	if werr != nil {
		return werr
	}
	if runErr != nil {
		var dl *sim.DeadlockError
		if errors.As(runErr, &dl) {
			return negative("%v", strings.TrimPrefix(runErr.Error(), "sim: "))
		}
		if errors.Is(runErr, context.Canceled) || errors.Is(runErr, context.DeadlineExceeded) {
			fmt.Fprintf(e.stderr, "wormlab: sim: stopped early (%v); the last row is partial\n", runErr)
			return nil
		}
		return runErr
	}
	return nil
}

// parseRates reads --rates FROM:TO:STEP of offered loads in (0, 1].
func parseRates(s string) ([]float64, error) {
	xs, err := parseRange(s)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 || xs[0] <= 0 || xs[len(xs)-1] > 1 {
		return nil, fmt.Errorf("%q: want 0 < FROM <= TO <= 1 and STEP > 0", s)
	}
	return xs, nil
}

func fmtPtr(p *float64, prec int) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'f', prec, 64)
}

func printSimRows(w io.Writer, head string, rows []*sim.Result, sweep, jsonOut, csvOut bool) error {
	switch {
	case jsonOut && !sweep && len(rows) == 1:
		return writeJSON(w, rows[0])
	case jsonOut:
		for _, r := range rows {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", b)
		}
		return nil
	case csvOut || sweep:
		if csvOut {
			fmt.Fprintln(w, "offered,accepted,latency,latency_ci,p50,p99,max,saturated,precise,reason,cycles")
			for _, r := range rows {
				fmt.Fprintf(w, "%g,%.4f,%s,%s,%s,%s,%s,%t,%t,%q,%d\n", r.Offered, r.Accepted, fmtPtr(r.Latency, 2), fmtPtr(r.LatencyCI, 2),
					fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), r.Saturated, r.Precise, r.Reason, r.Cycles)
			}
			return nil
		}
		fmt.Fprintln(w, head)
		fmt.Fprintf(w, "%-8s %-8s %-16s %-5s %-5s %-6s %s\n", "offered", "accepted", "latency", "p50", "p99", "max", "cycles")
		for _, r := range rows {
			lat := "saturated"
			if !r.Saturated {
				lat = fmtPtr(r.Latency, 2) + " +- " + fmtPtr(r.LatencyCI, 2)
				if !r.Precise {
					lat += "*"
				}
			}
			fmt.Fprintf(w, "%-8g %-8.4f %-16s %-5s %-5s %-6s %d\n", r.Offered, r.Accepted, lat, fmtPtr(r.P50, 0), fmtPtr(r.P99, 0), fmtPtr(r.Max, 0), r.Cycles)
		}
		fmt.Fprintln(w, "(* the stop rule was not met within the cycle budget)")
		return nil
	}
	for _, r := range rows {
		fmt.Fprintln(w, head)
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
	Makespan int64   `json:"makespan"`
	Latency  float64 `json:"latency"`
	Cycles   int64   `json:"cycles"`
	Messages []struct {
		ID        string `json:"id"`
		Delivered int64  `json:"delivered"`
		Latency   int64  `json:"latency"`
	} `json:"messages"`
}

func simBatch(ctx context.Context, e *env, in *model.Instance, cfg sim.Config, out string, jsonOut bool) error {
	net := cfg.Net.(*topology.General)
	res, err := sim.RunBatch(ctx, cfg, batchPackets(in, net), sim.BatchOptions{})
	if err := batchErr(in, err); err != nil {
		return err
	}
	rep := simBatchReport{Makespan: res.Makespan, Cycles: res.Cycles}
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
	}
	return writeOut(e, out, func(w io.Writer) error {
		if jsonOut {
			return writeJSON(w, rep)
		}
		fmt.Fprintf(w, "makespan %d, mean latency %.2f cycles, %d messages\n", rep.Makespan, rep.Latency, len(in.Messages))
		return nil
	})
}

// batchErr maps a batch's error to an exit status; a deadlock names the messages
// of the wait cycle (a batch released at 0 numbers its packets as its messages).
func batchErr(in *model.Instance, err error) error {
	if err == nil {
		return nil
	}
	var dl *sim.DeadlockError
	var ce *sim.ConfigError
	switch {
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
	s, _, err := sim.TheoryRun(ctx, in, tc, ps)
	if err := batchErr(in, err); err != nil {
		return err
	}
	return writeSchedule(e, out, s)
}
