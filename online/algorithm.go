package online

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// Algorithm is an online routing algorithm with its own parameters: it drives an
// engine (Setup.NewEngine) to route the instance and fills the result's schedule and
// figures. Each algorithm is a value in its own file (greedy.go, delayed.go,
// randomdelay.go, phased.go, store.go).
type Algorithm interface {
	// Name is the algorithm's registered name ("greedy", "phased", ...).
	Name() string
	// Route routes in; it sets r.Schedule and, where it has them, r.Delivered,
	// r.Counters, r.Steps and its own figures.
	Route(ctx context.Context, in *model.Instance, s *Setup, r *Result) error
}

// Options are the settings every algorithm shares: the engine's arbitration, the
// seed of the run, and what the engine records.
type Options struct {
	// Arb is an engine arbitration policy name (engine.Policies); "" is "message".
	// Policy, when set, is used instead.
	Arb    string
	Policy engine.Policy
	Seed   uint64
	// RecordSteps keeps per-step counters in Result.Steps.
	RecordSteps bool
	// Rotate lets a closed cycle of worms waiting for each other's tails shift
	// (engine.Config.Rotate).
	Rotate bool
	// MeetBudget bounds the diagnostic Result.Meet, whose work is MeetWork(in)
	// pair visits (quadratic in the edges' congestion): 0 examines the pairs when
	// the work is at most the instance's flit-hops (sum over messages of L times
	// path length; a pair visit costs about 12 ns, a flit-hop of the engine
	// tens, so the diagnostic stays under a tenth of the run) or 2^20, a positive
	// budget when the work is at most it, a negative one always.
	MeetBudget int64
}

// Setup is what a run gives its algorithm: the options and the run's random source
// (seeded from Options.Seed).
type Setup struct {
	Options
	Rng *rand.Rand
}

// NewEngine returns a wormhole engine for in under the setup's options.
func (s *Setup) NewEngine(in *model.Instance) (*engine.Engine, error) {
	return engine.New(in, s.engineConfig())
}

func (s *Setup) engineConfig() engine.Config {
	return engine.Config{Arb: s.Arb, Policy: s.Policy, Seed: s.Seed, RecordSteps: s.RecordSteps, Rotate: s.Rotate}
}

// Params is where a registered algorithm reads its parameters from: a parsed
// flag.FlagSet on which Define declared them.
type Params interface {
	Lookup(name string) *flag.Flag
}

// Entry is a registered algorithm: its name, a one-line summary, the parameters it
// reads (flag names), how to declare them, and how to build it from their values.
type Entry struct {
	Name, Summary string
	// Params lists the flag names New reads.
	Params []string
	// Define declares the parameters on fs; a name another algorithm declared already
	// is skipped (the algorithms that share R and unit give them one meaning).
	Define func(fs *flag.FlagSet)
	// New builds the algorithm from the parsed parameters.
	New func(p Params) (Algorithm, error)
}

var registry = map[string]*Entry{}

// Register makes an algorithm available by name; each algorithm file calls it from
// init. Registering a name twice panics (programmer error).
func Register(e *Entry) {
	if _, dup := registry[e.Name]; dup {
		panic("online: algorithm registered twice: " + e.Name)
	}
	registry[e.Name] = e
}

// Lookup returns the entry registered under name.
func Lookup(name string) (*Entry, error) {
	e, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("online: unknown algorithm %q (want one of %s)", name, strings.Join(Algorithms(), ", "))
	}
	return e, nil
}

// Algorithms lists the registered algorithm names, sorted.
func Algorithms() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DefineAll declares every registered algorithm's parameters on fs.
func DefineAll(fs *flag.FlagSet) {
	for _, n := range Algorithms() {
		registry[n].Define(fs)
	}
}

// The parameter helpers declare a flag unless it exists, and read it back.
func defineInt(fs *flag.FlagSet, name string, usage string) {
	if fs.Lookup(name) == nil {
		fs.Int(name, 0, usage)
	}
}

func defineFloat(fs *flag.FlagSet, name string, usage string) {
	if fs.Lookup(name) == nil {
		fs.Float64(name, 0, usage)
	}
}

func defineBool(fs *flag.FlagSet, name string, usage string) {
	if fs.Lookup(name) == nil {
		fs.Bool(name, false, usage)
	}
}

func param[T any](p Params, name string) T {
	var zero T
	f := p.Lookup(name)
	if f == nil {
		return zero
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return zero
	}
	v, _ := g.Get().(T)
	return v
}
