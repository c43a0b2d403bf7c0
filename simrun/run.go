package simrun

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Run describes one open-loop simulation: the network, its routers, the traffic
// and the measurement plan, as plain values (names, numbers) that flags, a BookSim2
// configuration file and a sweep spec all set through the same parameters (Params).
// Build resolves the names against their registries and checks every value;
// Validate is Build without keeping the result.
type Run struct {
	Topology string // a topology spec: torus:8x8, mesh:4x4x4, fattree:64
	Routing  string // a routing algorithm of package routing (or an alias)
	VCs, Buf int    // virtual channels per physical channel, flits per VC buffer
	Flits    string // packet sizes: 16, a mix 1,16 or weighted 1:0.8,16:0.2
	Traffic  string // a traffic pattern of package sim
	Process  string // an injection process of package sim
	// Rate is the offered load in flits per node per cycle, MsgRate in packets
	// (messages) per node per cycle; exactly one is positive.
	Rate, MsgRate float64
	// BurstAlpha, BurstBeta and BurstRate are the on/off process's per-cycle
	// probabilities of turning on, of turning off, and of a packet while on
	// (BookSim2's burst_alpha, burst_beta, burst_r1); a negative one is derived
	// from the others and the rate. Only the onoff process reads them.
	BurstAlpha, BurstBeta, BurstRate float64
	Pipeline                         string // a delay preset: booksim, ideal
	// Delays override the preset's: -1 keeps it (cycles).
	RouteDelay, VCDelay, SwDelay, STDelay           int
	LinkDelay, CreditDelay, InjectDelay, EjectDelay int
	Select, Arb                                     string // selection and arbitration policies
	SwitchInput                                     string // the switch allocator's input stage
	Seed                                            uint64
	Unsafe                                          bool   // run with fewer VCs than the routing needs
	AtomicVC                                        string // on, off or auto
	InjectLimit                                     int    // 0: none
	ClassLimit                                      int    // 0: none
	Hot                                             string // hotspot: hot terminals, comma-separated ("": terminal 0)
	HotFraction                                     float64
	Radius                                          int
	Rel                                             float64 // the stop rule's relative half-width
	MinCycles, MaxCycles                            int64
	DeadlockCycles                                  int
}

// Default is wormlab sim's run without flags: BookSim2's 8x8 torus of docs/booksim.md
// with Dally and Seitz's dimension order, 4 VCs of 8 flits, 16-flit packets, uniform
// Bernoulli traffic at 0.1 flits/node/cycle.
func Default() Run {
	return Run{
		Topology: "torus:8x8", Routing: "dor", VCs: 4, Buf: 8, Flits: "16",
		Traffic: "uniform", Process: "bernoulli", Rate: 0.1,
		BurstAlpha: 0.5, BurstBeta: 0.5, BurstRate: -1,
		Pipeline:   "booksim",
		RouteDelay: -1, VCDelay: -1, SwDelay: -1, STDelay: -1,
		LinkDelay: -1, CreditDelay: -1, InjectDelay: -1, EjectDelay: -1,
		Select: "first", Arb: "round-robin", SwitchInput: "vc", Seed: 1, AtomicVC: "auto",
		HotFraction: 0.1, Radius: 1,
		Rel: 0.02, MinCycles: 10000, MaxCycles: 200000, DeadlockCycles: 1000,
	}
}

// Error names the parameter at fault (its flag name, without dashes). Param is
// empty when the message names what it is about itself.
type Error struct{ Param, Msg string }

func (e *Error) Error() string {
	if e.Param == "" {
		return e.Msg
	}
	return "--" + e.Param + ": " + e.Msg
}

func errf(param, format string, a ...any) *Error {
	return &Error{param, fmt.Sprintf(format, a...)}
}

// Built is a Run resolved: what package sim runs.
type Built struct {
	Net      topology.Network
	Alg      routing.Algorithm
	Config   sim.Config
	Workload sim.Workload
	Measure  sim.Measure
	Sizes    sim.Sizes
}

// Validate checks every value of r: Build without the result.
func (r *Run) Validate() error {
	_, err := r.Build()
	return err
}

// CheckFloor refuses r before its network is built when even the floor of its
// routers' memory, counted from its topology's parameters (topology.SizeOf,
// sim.NetworkFloor), is above budget (0: no budget), with an *Error naming
// max-memory; Build's estimate of the built network is the finer check after it.
func (r *Run) CheckFloor(budget int64) error {
	if budget <= 0 {
		return nil
	}
	sz, ok := topology.SizeOf(r.Topology)
	if !ok {
		return nil
	}
	if need := sim.NetworkFloor(sz, r.VCs, r.Buf); need > budget {
		return &Error{"max-memory", fmt.Sprintf("the run on %s with %d VCs of %d flits needs at least %s (%d routers, %d ports between them: their VCs and buffers), more than the memory budget of %s",
			r.Topology, r.VCs, r.Buf, sim.Bytes(need), sz.Routers, sz.Ports, sim.Bytes(budget))}
	}
	return nil
}

// Build resolves r: the network, the routing on it, the router configuration, the
// workload and the measurement plan. Errors are *Error naming the parameter.
func (r *Run) Build() (*Built, error) {
	if err := r.checkNumbers(); err != nil {
		return nil, err
	}
	net, err := topology.Parse(r.Topology)
	if err != nil {
		return nil, errf("topology", "%v", err)
	}
	alg, err := routing.Lookup(r.Routing)
	if err != nil {
		return nil, errf("routing", "%v", err)
	}
	need, err := alg.MinVCs(net)
	if err != nil {
		return nil, errf("routing", "%v", err)
	}
	if why := alg.RefutedOn(net); why != "" && !r.Unsafe {
		return nil, errf("routing", "%s is not deadlock-free on %s: %s (--unsafe to run anyway)", alg.Name, net, why)
	}
	if r.VCs < need && !r.Unsafe {
		return nil, errf("vcs", "%s needs at least %d VCs on %s, got %d (--unsafe to run anyway)", alg.Name, need, net, r.VCs)
	}
	rt, err := alg.New(net, r.VCs)
	if err != nil {
		return nil, errf("routing", "%v", err)
	}
	cfg, err := r.Router(net)
	if err != nil {
		return nil, err
	}
	cfg.Routing = rt
	switch r.AtomicVC {
	case "auto":
		cfg.AtomicVC = alg.Atomic
	case "on":
		cfg.AtomicVC = true
	case "off":
	default:
		return nil, errf("atomic-vc", "%q, want on, off or auto", r.AtomicVC)
	}
	w, sizes, err := r.workload(net)
	if err != nil {
		return nil, err
	}
	m := sim.Measure{RelHalfWidth: r.Rel, MinCycles: r.MinCycles, MaxCycles: r.MaxCycles}
	return &Built{Net: net, Alg: alg, Config: cfg, Workload: w, Measure: m, Sizes: sizes}, nil
}

// checkNumbers checks the values that need nothing resolved.
func (r *Run) checkNumbers() error {
	switch {
	case r.Buf < 1:
		return errf("buf", "%d, want at least 1", r.Buf)
	case r.Buf > sim.MaxBuf:
		return errf("buf", "%d above %d", r.Buf, sim.MaxBuf)
	case r.VCs < 1 || r.VCs > 64:
		return errf("vcs", "%d outside 1..64", r.VCs)
	case r.InjectLimit < 0 || r.InjectLimit > math.MaxInt32:
		// the simulator counts in 32 bits: 2^32+1 was a limit of 1 (issue 26)
		return errf("inject-limit", "%d outside 0..%d", r.InjectLimit, math.MaxInt32)
	case r.ClassLimit < 0 || r.ClassLimit > math.MaxInt32:
		return errf("class-limit", "%d outside 0..%d", r.ClassLimit, math.MaxInt32)
	case r.DeadlockCycles < 1:
		return errf("deadlock-cycles", "%d, want at least 1", r.DeadlockCycles)
	case !(r.Rel > 0 && r.Rel < 1):
		return errf("rel", "%g outside (0, 1)", r.Rel)
	case r.MinCycles < 1:
		return errf("min-cycles", "%d, want at least 1", r.MinCycles)
	case r.MaxCycles < 1:
		return errf("max-cycles", "%d, want at least 1", r.MaxCycles)
	case r.Rate != 0 && r.MsgRate != 0:
		return &Error{"", "--rate and --msg-rate: give one"}
	case r.MsgRate != 0 && !(r.MsgRate > 0 && r.MsgRate <= 1):
		return errf("msg-rate", "%g outside (0, 1]", r.MsgRate)
	case r.MsgRate == 0 && !(r.Rate > 0 && r.Rate <= 1):
		return errf("rate", "%g outside (0, 1]", r.Rate)
	}
	for _, d := range r.delays() {
		lo := 0
		if d.name == "link-delay" || d.name == "credit-delay" {
			lo = 1
		}
		if d.v != -1 && (d.v < lo || d.v > 64) {
			return errf(d.name, "%d outside %d..64 (or -1: the preset's)", d.v, lo)
		}
	}
	d := Default()
	// a pattern's own parameters, as its registry entry declares them (an unknown
	// pattern is reported by Build)
	for _, p := range []struct {
		param sim.PatternParam
		set   bool
	}{{sim.ParamHot, r.Hot != ""}, {sim.ParamHotFraction, r.HotFraction != d.HotFraction}, {sim.ParamRadius, r.Radius != d.Radius}} {
		if p.set && slices.Contains(sim.PatternNames(), r.Traffic) && !sim.PatternReads(r.Traffic, p.param) {
			return errf(string(p.param), "applies to --traffic %s only, not %s", strings.Join(sim.PatternsReading(p.param), " or "), r.Traffic)
		}
	}
	// a fraction of 0 ran as 0.1 and one of NaN as 0 (issue 26): in range, or
	// refused
	if !(r.HotFraction > 0 && r.HotFraction <= 1) {
		return errf("hot-fraction", "%g outside (0, 1] (a share of the packets; 0 is --traffic uniform)", r.HotFraction)
	}
	if r.Radius < 1 {
		return errf("radius", "%d is below 1", r.Radius)
	}
	if r.Process != "onoff" {
		for _, b := range r.bursts() {
			if b.v != b.def0 {
				return errf(b.name, "applies to --process onoff only, not %s", r.Process)
			}
		}
	}
	return nil
}

// burst is a probability of the on/off process: its flag, its value and its
// default.
type burst struct {
	name    string
	v, def0 float64
}

func (r *Run) bursts() []burst {
	d := Default()
	return []burst{{"burst-alpha", r.BurstAlpha, d.BurstAlpha}, {"burst-beta", r.BurstBeta, d.BurstBeta}, {"burst-rate", r.BurstRate, d.BurstRate}}
}

type delay struct {
	name string
	v    int
	dst  func(*sim.Pipeline) *int
}

func (r *Run) delays() []delay {
	return []delay{
		{"route-delay", r.RouteDelay, func(p *sim.Pipeline) *int { return &p.Route }},
		{"vc-delay", r.VCDelay, func(p *sim.Pipeline) *int { return &p.VCAlloc }},
		{"sw-delay", r.SwDelay, func(p *sim.Pipeline) *int { return &p.SwAlloc }},
		{"st-delay", r.STDelay, func(p *sim.Pipeline) *int { return &p.Traverse }},
		{"link-delay", r.LinkDelay, func(p *sim.Pipeline) *int { return &p.Link }},
		{"credit-delay", r.CreditDelay, func(p *sim.Pipeline) *int { return &p.Credit }},
		{"inject-delay", r.InjectDelay, func(p *sim.Pipeline) *int { return &p.Inject }},
		{"eject-delay", r.EjectDelay, func(p *sim.Pipeline) *int { return &p.Eject }},
	}
}

// Pipeline is the preset with r's delays applied.
func (r *Run) PipelineFor(net topology.Network) (sim.Pipeline, error) {
	p, err := sim.LookupPipeline(r.Pipeline, net)
	if err != nil {
		return p, errf("pipeline", "%v", err)
	}
	for _, d := range r.delays() {
		if d.v >= 0 {
			*d.dst(&p) = d.v
		}
	}
	return p, nil
}

// Router is the router configuration of r on net without a routing: VCs, buffers,
// pipeline, policies, seed, deadlock timeout (closed batches use it with fixed
// paths). It checks the configuration as package sim will.
func (r *Run) Router(net topology.Network) (sim.Config, error) {
	if err := r.checkNumbers(); err != nil {
		return sim.Config{}, err
	}
	p, err := r.PipelineFor(net)
	if err != nil {
		return sim.Config{}, err
	}
	selector, err := sim.LookupSelector(r.Select)
	if err != nil {
		return sim.Config{}, errf("select", "%v", err)
	}
	arb, err := sim.LookupArbitration(r.Arb)
	if err != nil {
		return sim.Config{}, errf("arb", "%v", err)
	}
	swin, err := sim.LookupSwitchInput(r.SwitchInput)
	if err != nil {
		return sim.Config{}, errf("switch-input", "%v", err)
	}
	cfg := sim.Config{Net: net, VCs: r.VCs, Buf: r.Buf, Pipeline: p, Select: selector, Arbiter: arb, SwitchInput: swin, Seed: r.Seed, DeadlockCycles: r.DeadlockCycles}
	if err := cfg.Validate(); err != nil {
		return cfg, simError(err)
	}
	return cfg, nil
}

// simError maps a sim.ConfigError's field to the parameter that sets it.
func simError(err error) error {
	if me, ok := err.(*sim.MemoryError); ok {
		return &Error{"max-memory", strings.TrimPrefix(me.Error(), "sim: ")}
	}
	ce, ok := err.(*sim.ConfigError)
	if !ok {
		return err
	}
	param := map[string]string{
		"vcs": "vcs", "buf": "buf", "deadlock-cycles": "deadlock-cycles", "net": "topology",
		"pipeline.route": "route-delay", "pipeline.vc-alloc": "vc-delay", "pipeline.sw-alloc": "sw-delay",
		"pipeline.traverse": "st-delay", "pipeline.link": "link-delay", "pipeline.credit": "credit-delay",
		"pipeline.inject": "inject-delay", "pipeline.eject": "eject-delay",
		"rate": "rate", "traffic": "traffic", "switch-input": "switch-input", "inject-limit": "inject-limit", "sizes": "flits",
	}[ce.Field]
	if param == "" {
		return &Error{"", ce.Field + ": " + ce.Msg}
	}
	return &Error{param, ce.Msg}
}

// workload builds r's traffic on net.
func (r *Run) workload(net topology.Network) (sim.Workload, sim.Sizes, error) {
	sizes, err := sim.ParseSizes(r.Flits)
	if err != nil {
		return sim.Workload{}, sizes, errf("flits", "%v", err)
	}
	proc, err := r.process()
	if err != nil {
		return sim.Workload{}, sizes, err
	}
	params := sim.PatternParams{Net: net, HotFraction: r.HotFraction, Radius: r.Radius, Seed: r.Seed}
	if r.Hot != "" {
		for _, s := range strings.Split(r.Hot, ",") {
			x, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return sim.Workload{}, sizes, errf("hot", "%q is not a node number", s)
			}
			if slices.Contains(params.Hot, x) {
				return sim.Workload{}, sizes, errf("hot", "%d appears twice", x)
			}
			params.Hot = append(params.Hot, x)
		}
	}
	pat, err := sim.NewPattern(r.Traffic, params)
	if err != nil {
		if ce, ok := err.(*sim.ConfigError); ok { // a pattern's parameter: --hot, --radius
			return sim.Workload{}, sizes, errf(ce.Field, "%s", ce.Msg)
		}
		return sim.Workload{}, sizes, errf("traffic", "%v", err)
	}
	w := sim.Workload{Pattern: pat, Process: proc, Sizes: sizes, InjectLimit: r.InjectLimit, ClassLimit: r.ClassLimit, Rate: r.Rate, MsgRate: r.MsgRate}
	pkts := r.MsgRate
	param := "msg-rate"
	if r.MsgRate == 0 {
		pkts, param = r.Rate/sizes.Mean(), "rate"
	}
	if pkts > proc.MaxRate() {
		return w, sizes, errf(param, "%g packets/node/cycle is above the %s process's most, %g", pkts, r.Process, proc.MaxRate())
	}
	if oo, ok := proc.(sim.OnOff); ok {
		if _, _, _, err := oo.Params(pkts); err != nil {
			return w, sizes, errf("process", "%v", err)
		}
	}
	return w, sizes, nil
}

// process is r's injection process, with its parameters.
func (r *Run) process() (sim.Process, error) {
	proc, err := sim.LookupProcess(r.Process)
	if err != nil {
		return nil, errf("process", "%v", err)
	}
	if _, ok := proc.(sim.OnOff); ok {
		bs := r.bursts()
		derived, given := 0, ""
		for _, b := range bs {
			switch {
			case math.IsNaN(b.v) || b.v > 1:
				return nil, errf(b.name, "%g above 1 (a probability per cycle; negative: derived)", b.v)
			case b.v == 0:
				// the process would make nothing (alpha, r1) or
				// cannot run (beta): it was refused naming --rate
				return nil, errf(b.name, "0 is not in (0, 1] (a probability per cycle; negative: derived from the rate)")
			case b.v < 0:
				derived++
			}
			if (b.v < 0) != (b.def0 < 0) && given == "" {
				given = b.name // derived where the default is given, or the reverse
			}
		}
		if derived != 1 {
			if given == "" {
				given = bs[0].name
			}
			return nil, errf(given, "of --burst-alpha %g, --burst-beta %g and --burst-rate %g exactly one is derived from the rate (negative), not %d",
				r.BurstAlpha, r.BurstBeta, r.BurstRate, derived)
		}
		return sim.OnOff{Alpha: r.BurstAlpha, Beta: r.BurstBeta, R1: r.BurstRate}, nil
	}
	return proc, nil
}

// Offered is the offered load of r in flits per node per cycle (MsgRate times the
// mean packet size when the rate is given in packets); 0 when the sizes do not
// parse.
func (r *Run) Offered() float64 {
	if r.MsgRate == 0 {
		return r.Rate
	}
	z, err := sim.ParseSizes(r.Flits)
	if err != nil {
		return 0
	}
	return r.MsgRate * z.Mean()
}
