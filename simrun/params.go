package simrun

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Kind is the type of a parameter's values.
type Kind uint8

// The kinds of parameters.
const (
	String Kind = iota
	Int
	Uint
	Float
	Bool
)

// Param is one parameter of a Run: its flag name (also its name in sweep specs and
// in output rows), its help line and unit, and how to read and write it as text.
type Param struct {
	Name string
	Kind Kind
	Unit string // "flits/node/cycle", "cycles", "" for none
	Help string
	// Commas says a value may hold commas (--flits 1,16, --hot 0,5): a list of
	// such values is given by repeating the flag, not by commas.
	Commas bool
	// Specs says the values are KIND:PARAMS specs that may hold commas
	// (dragonfly:a=8,p=4,h=4): a list splits only where a new KIND: begins.
	Specs bool
	// Defining marks the parameters every output row carries, varying or not.
	Defining bool
	// Load marks the parameters that set the offered load (rate, msg-rate): the
	// x of a latency-load curve, the one a saturation search varies.
	Load bool
	get  func(*Run) string
	set  func(*Run, string) error
}

// Get is the parameter's value in r, as text.
func (p *Param) Get(r *Run) string { return p.get(r) }

// Set reads text into r; the error names the parameter.
func (p *Param) Set(r *Run, text string) error {
	if err := p.set(r, text); err != nil {
		return &Error{p.Name, err.Error()}
	}
	return nil
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func str(name, help string, defining bool, f func(*Run) *string) *Param {
	return &Param{Name: name, Kind: String, Help: help, Defining: defining,
		get: func(r *Run) string { return *f(r) },
		set: func(r *Run, s string) error {
			if s == "" {
				return fmt.Errorf("empty value")
			}
			*f(r) = s
			return nil
		}}
}

func integer(name, unit, help string, defining bool, f func(*Run) *int) *Param {
	return &Param{Name: name, Kind: Int, Unit: unit, Help: help, Defining: defining,
		get: func(r *Run) string { return strconv.Itoa(*f(r)) },
		set: func(r *Run, s string) error {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("%q is not an integer", s)
			}
			*f(r) = v
			return nil
		}}
}

func integer64(name, unit, help string, f func(*Run) *int64) *Param {
	return &Param{Name: name, Kind: Int, Unit: unit, Help: help,
		get: func(r *Run) string { return strconv.FormatInt(*f(r), 10) },
		set: func(r *Run, s string) error {
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return fmt.Errorf("%q is not an integer", s)
			}
			*f(r) = v
			return nil
		}}
}

func float(name, unit, help string, f func(*Run) *float64) *Param {
	return &Param{Name: name, Kind: Float, Unit: unit, Help: help,
		get: func(r *Run) string { return fmtFloat(*f(r)) },
		set: func(r *Run, s string) error {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%q is not a finite number", s)
			}
			*f(r) = v
			return nil
		}}
}

var params = []*Param{
	specList(str("topology", "network: "+topology.Kinds(), true, func(r *Run) *string { return &r.Topology })),
	str("routing", "routing algorithm: "+strings.Join(routing.Names(), ", "), true, func(r *Run) *string { return &r.Routing }),
	integer("vcs", "", "virtual channels per physical channel", true, func(r *Run) *int { return &r.VCs }),
	integer("buf", "flits", "flits per VC buffer", true, func(r *Run) *int { return &r.Buf }),
	withCommas(str("flits", "packet size in flits: 16, a mix 1,16 or weighted 1:0.8,16:0.2", true, func(r *Run) *string { return &r.Flits })),
	str("traffic", "traffic pattern: "+strings.Join(sim.PatternNames(), ", "), true, func(r *Run) *string { return &r.Traffic }),
	str("process", "injection process: "+strings.Join(sim.ProcessNames(), ", "), true, func(r *Run) *string { return &r.Process }),
	float("burst-alpha", "", "onoff: probability per cycle that an off source turns on (negative: derived from the rate)", func(r *Run) *float64 { return &r.BurstAlpha }),
	float("burst-beta", "", "onoff: probability per cycle that an on source turns off (negative: derived)", func(r *Run) *float64 { return &r.BurstBeta }),
	float("burst-rate", "packets/cycle", "onoff: probability of a packet in a cycle on (BookSim2's burst_r1; negative: derived)", func(r *Run) *float64 { return &r.BurstRate }),
	str("pipeline", "router delay preset: "+strings.Join(sim.PipelineNames(), ", "), true, func(r *Run) *string { return &r.Pipeline }),
	integer("route-delay", "cycles", "routing delay (-1: the preset's)", false, func(r *Run) *int { return &r.RouteDelay }),
	integer("vc-delay", "cycles", "VC allocation delay (-1: the preset's)", false, func(r *Run) *int { return &r.VCDelay }),
	integer("sw-delay", "cycles", "switch allocation delay (-1: the preset's)", false, func(r *Run) *int { return &r.SwDelay }),
	integer("st-delay", "cycles", "switch traversal delay (-1: the preset's)", false, func(r *Run) *int { return &r.STDelay }),
	integer("link-delay", "cycles", "link latency (-1: the preset's)", false, func(r *Run) *int { return &r.LinkDelay }),
	integer("credit-delay", "cycles", "credit latency (-1: the preset's)", false, func(r *Run) *int { return &r.CreditDelay }),
	integer("inject-delay", "cycles", "generation to injection buffer (-1: the preset's)", false, func(r *Run) *int { return &r.InjectDelay }),
	integer("eject-delay", "cycles", "switch to sink (-1: the preset's)", false, func(r *Run) *int { return &r.EjectDelay }),
	str("select", "selection among free VCs: "+strings.Join(sim.SelectorNames(), ", "), false, func(r *Run) *string { return &r.Select }),
	str("arb", "arbitration: "+strings.Join(sim.ArbitrationNames(), ", "), false, func(r *Run) *string { return &r.Arb }),
	str("switch-input", "switch allocator's input stage: "+strings.Join(sim.SwitchInputNames(), ", ")+" (vc: round-robin over an input's VCs; output: over the output ports they ask for, BookSim2's)", false, func(r *Run) *string { return &r.SwitchInput }),
	str("atomic-vc", "reallocate a VC only once its buffer is empty: on, off, or auto (on for routings that rest on Duato's theorem)", false, func(r *Run) *string { return &r.AtomicVC }),
	integer("inject-limit", "packets", "a node starts a packet only while fewer than N of its packets are in the network (0: no limit)", false, func(r *Run) *int { return &r.InjectLimit }),
	integer("class-limit", "packets", "a node starts a packet only while fewer than N of its router's input VCs of the packet's class (its first hop's lowest VC) hold a flit: seed 003's congestion control (0: no limit)", false, func(r *Run) *int { return &r.ClassLimit }),
	withCommas(&Param{Name: "hot", Kind: String, Help: "hotspot: hot nodes, comma-separated (default 0)",
		get: func(r *Run) string { return r.Hot },
		set: func(r *Run, s string) error { r.Hot = s; return nil }}),
	float("hot-fraction", "", "hotspot: share of packets to the hot nodes, in (0, 1]", func(r *Run) *float64 { return &r.HotFraction }),
	integer("radius", "hops", "local: largest grid distance, localsq: the square's half-side; 1 up to the diameter", false, func(r *Run) *int { return &r.Radius }),
	float("rel", "", "stop when the interval's half-width is below this fraction of the mean", func(r *Run) *float64 { return &r.Rel }),
	integer64("min-cycles", "cycles", "cycles before the stop rule is looked at", func(r *Run) *int64 { return &r.MinCycles }),
	integer64("max-cycles", "cycles", "cycle budget of a point", func(r *Run) *int64 { return &r.MaxCycles }),
	integer("deadlock-cycles", "cycles", "cycles without a move that make a deadlock", false, func(r *Run) *int { return &r.DeadlockCycles }),
	{Name: "unsafe", Kind: Bool, Help: "allow fewer VCs than the routing needs to be deadlock-free",
		get: func(r *Run) string { return strconv.FormatBool(r.Unsafe) },
		set: func(r *Run, s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("%q is not true or false", s)
			}
			r.Unsafe = v
			return nil
		}},
	{Name: "seed", Kind: Uint, Help: "random seed", Defining: true,
		get: func(r *Run) string { return strconv.FormatUint(r.Seed, 10) },
		set: func(r *Run, s string) error {
			v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return fmt.Errorf("%q is not an unsigned integer", s)
			}
			r.Seed = v
			return nil
		}},
	load(float("msg-rate", "packets/node/cycle", "offered load in packets/node/cycle instead of --rate", func(r *Run) *float64 { return &r.MsgRate }),
		func(r *Run) { r.Rate = 0 }),
	load(float("rate", "flits/node/cycle", "offered load in flits/node/cycle, in (0, 1] (default 0.1)", func(r *Run) *float64 { return &r.Rate }),
		func(r *Run) { r.MsgRate = 0 }),
}

// load makes a load parameter clear the other load when set: a run has one.
func load(p *Param, clear func(*Run)) *Param {
	p.Load = true
	set := p.set
	p.set = func(r *Run, s string) error {
		if err := set(r, s); err != nil {
			return err
		}
		clear(r)
		return nil
	}
	return p
}

func withCommas(p *Param) *Param { p.Commas = true; return p }

// specList marks a parameter whose values are KIND:PARAMS specs with commas of
// their own: a list splits only at a comma that begins a new KIND: (splitSpecs).
func specList(p *Param) *Param { p.Specs = true; return p }

var byName = func() map[string]*Param {
	m := map[string]*Param{}
	for _, p := range params {
		m[p.Name] = p
	}
	return m
}()

// Params lists the parameters of a Run in a fixed order: the network and the
// router first, the measurement plan, then the seed and the load (an output's
// rows vary fastest in the last).
func Params() []*Param { return params }

// Names lists the parameters' names in the order of Params.
func Names() []string {
	ns := make([]string, len(params))
	for i, p := range params {
		ns[i] = p.Name
	}
	return ns
}

// Lookup returns the parameter of that name.
func Lookup(name string) (*Param, bool) {
	p, ok := byName[name]
	return p, ok
}

// Set sets parameter name of r from text.
func (r *Run) Set(name, text string) error {
	p, ok := byName[name]
	if !ok {
		return &Error{"", fmt.Sprintf("no parameter %q", name)}
	}
	return p.Set(r, text)
}

// Get is the text of parameter name in r ("" for an unknown name).
func (r *Run) Get(name string) string {
	p, ok := byName[name]
	if !ok {
		return ""
	}
	return p.get(r)
}
