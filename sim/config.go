package sim

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/topology"
)

// Pipeline is the per-hop delay of a router and its channels, in whole cycles.
//
// A head flit that enters an input buffer in cycle a is routed in the first cycle
// its virtual channel is idle with it at the front; it may win a VC from cycle
// a+Route on, and the switch from Route+VCAlloc cycles after arrival; a flit granted
// the switch in cycle s is written into the next router's buffer in cycle
// s+SwAlloc+Traverse+Link (s+SwAlloc+Traverse+Eject at the destination's sink). The
// credit of the slot it left reaches the upstream router in cycle s+Credit. A packet
// generated in cycle c can enter its source router's injection buffer in cycle
// c+Inject at the earliest, one flit per cycle.
type Pipeline struct {
	Route, VCAlloc, SwAlloc, Traverse int
	Link, Credit, Inject, Eject       int
}

// Ideal is one cycle per hop and no router stages: a flit crosses a link in the
// cycle after it arrived (the theory model's count, seed 004's simulation's).
func Ideal() Pipeline { return Pipeline{Link: 1, Credit: 1} }

// BookSim is BookSim2's iq router with its defaults (routing_delay,
// vc_alloc_delay, sw_alloc_delay and st_final_delay 1) and its channels: latency
// 2 on a torus (use_noc_latency), 1 elsewhere, credits as slow as flits, an
// injection channel of 1 after the cycle of creation and an ejection channel of 1.
func BookSim(net topology.Network) Pipeline {
	link := 1
	if g, ok := net.(*topology.Grid); ok && g.Wrap() {
		link = 2
	}
	return Pipeline{Route: 1, VCAlloc: 1, SwAlloc: 1, Traverse: 1, Link: link, Credit: link, Inject: 2, Eject: 1}
}

var pipelines = map[string]func(topology.Network) Pipeline{
	"ideal":   func(topology.Network) Pipeline { return Ideal() },
	"booksim": BookSim,
}

// PipelineNames lists the presets.
func PipelineNames() []string {
	ns := make([]string, 0, len(pipelines))
	for n := range pipelines {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// LookupPipeline returns the named preset for net.
func LookupPipeline(name string, net topology.Network) (Pipeline, error) {
	f, ok := pipelines[name]
	if !ok {
		return Pipeline{}, fmt.Errorf("unknown pipeline %q (want one of %s)", name, strings.Join(PipelineNames(), ", "))
	}
	return f(net), nil
}

// ZeroLoad is the latency of a packet of l flits over h router-to-router links in
// an empty network, from its generation to its tail's delivery:
//
//	T0 = Inject + (h+1)(Route + VCAlloc + SwAlloc + Traverse) + h Link + Eject + (l - 1)
//
// (the head crosses h+1 routers and h links, the tail follows l-1 cycles behind).
// With BookSim it is BookSim2's measured 3 + 4(h+1) + 2h + l - 1 on a torus; with
// Ideal it is MODEL.md's d + L - 1. It holds when every buffer covers its credit
// loop, Buf >= MinBuf(); with less the body of a long packet is paced by credits.
func (p Pipeline) ZeroLoad(h, l int) int {
	return p.Inject + (h+1)*(p.Route+p.VCAlloc+p.SwAlloc+p.Traverse) + h*p.Link + p.Eject + l - 1
}

// MinBuf is the smallest buffer that lets a VC carry a flit every cycle: a slot
// freed downstream is reusable SwAlloc+Traverse+Link+Credit cycles after the flit
// that filled it was sent (and Inject+1 at the injection port, whose credit takes
// one cycle).
func (p Pipeline) MinBuf() int {
	return max(p.SwAlloc+p.Traverse+p.Link+p.Credit, p.Inject+1)
}

func (p Pipeline) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"route", p.Route}, {"vc-alloc", p.VCAlloc}, {"sw-alloc", p.SwAlloc}, {"traverse", p.Traverse}, {"inject", p.Inject}, {"eject", p.Eject}} {
		if f.v < 0 || f.v > maxDelay {
			return &ConfigError{Field: "pipeline." + f.name, Msg: fmt.Sprintf("%d outside 0..%d", f.v, maxDelay)}
		}
	}
	if p.Link < 1 || p.Link > maxDelay {
		return &ConfigError{Field: "pipeline.link", Msg: fmt.Sprintf("%d outside 1..%d", p.Link, maxDelay)}
	}
	if p.Credit < 1 || p.Credit > maxDelay {
		return &ConfigError{Field: "pipeline.credit", Msg: fmt.Sprintf("%d outside 1..%d", p.Credit, maxDelay)}
	}
	return nil
}

const maxDelay = 64

// MaxBuf is the largest buffer, in flits: a VC's ring position and count are
// 32-bit numbers whose sum (below twice the buffer) the engine forms.
const MaxBuf = 1 << 30

// Config is one simulated network.
type Config struct {
	// Net is the topology; Routing routes on it (nil only when every packet of a
	// batch carries a fixed path).
	Net     topology.Network
	Routing Routing
	// VCs is the number of virtual channels per physical channel, Buf the flits of
	// each VC's input buffer.
	VCs, Buf int
	// Pipeline is the per-hop delay (the zero value is not valid: use Ideal or
	// BookSim).
	Pipeline Pipeline
	// Select picks among free output VCs (nil: FirstFree); Arbiter arbitrates the
	// switch's inputs and outputs and each output VC (nil: RoundRobin).
	Select  Selector
	Arbiter Arbitration
	// SwitchInput is the switch allocator's input stage (nil: ByVC); a rule
	// other than ByVC takes a round-robin or fixed arbitration and no Latch.
	SwitchInput SwitchInput
	// Seed fixes every random stream of the run.
	Seed uint64
	// DeadlockCycles: no flit moved for this many cycles while flits are in the
	// network ends the run with a *DeadlockError (0: 1000).
	DeadlockCycles int
	// EjectAll lets a destination consume any number of flits per cycle (MODEL.md's
	// destinations) instead of one.
	EjectAll bool
	// AtomicVC makes an output VC free for a new packet only once the buffer it
	// feeds is empty (every credit back), not as soon as the previous tail has left:
	// a VC queue then never holds flits of two packets. Duato's theorem assumes this
	// (J. Duato, IEEE TPDS 6(10), 1995, section 2: a queue cannot hold flits of
	// different messages); without it an adaptive routing that meets Duato's
	// condition can deadlock (TestAtomicVCDuato). BookSim2 reallocates a VC when the
	// tail leaves, so the default stays off.
	AtomicVC bool
	// Latch lets a flit enter a full buffer in the cycle its occupant leaves it,
	// MODEL.md's pipelining rule for one-flit buffers, and merges VC allocation
	// into switch allocation: a head takes an output VC only in the cycle it moves
	// (as package engine's worms take an edge). TheoryConfig sets it.
	Latch bool
	// Rotate (with Latch) lets a closed cycle of grants, each entering the buffer
	// the next one leaves, move together, as MODEL.md's holding rule allows
	// (package engine's Config.Rotate, wormlab run's default); without it such a
	// cycle waits, as Dally and Seitz's routers do.
	Rotate bool
	// InjectPerPort gives a router one injection port (and source queue) per output
	// port: a packet with a fixed path queues at the port of its first hop, so that
	// packets of one source leaving by different ports start together, as MODEL.md's
	// sources do; routed packets use the first. The queues replace the terminal's
	// own, so every router has at most one terminal (Validate refuses more).
	InjectPerPort bool
	// Trace, when set, receives every flit and credit event (simcheck reads them).
	Trace func(Event)
	// MaxMemory, when positive, is the memory budget in bytes: a run whose
	// estimate (EngineBytes, OpenBytes, BatchBytes) is above it is refused with a
	// *MemoryError before anything is allocated.
	MaxMemory int64
	// Threads is the number of threads a run takes (0: one per core on networks
	// of at least ParallelRouters routers, else 1). A run is the same, bit for bit,
	// whatever its threads; a traced run or one with Latch takes one.
	Threads int

	// slowSwitch makes switch allocation take its general path (allocRouter)
	// where the flat one would do: tests check that the two agree.
	slowSwitch bool
	// noBlocks makes a run go cycle by cycle where it could take blocks of
	// cycles (block.go), forceBlocks lets it take them on a network of any size
	// (blockFrom), blocks when set counts what they did: tests check that runs
	// with and without agree and that blocks ran.
	noBlocks, forceBlocks bool
	// forceWarm makes a run load each word's state ahead of its cycle (warm)
	// on a network of any size: the threads tests take it, so that the race
	// run reads other partitions' wheels as warmHeads does on large networks.
	forceWarm bool
	// noPartial turns off the look for a deadlock of part of the network
	// (deadlock.go): tests run on past one to check it.
	noPartial bool
	blocks    *blockStats
	// stealFirst makes a block's threads run other partitions' words before
	// their own, two threads too rather than sharing a ring (claims): tests
	// check that runs agree whoever runs what.
	stealFirst bool
	// noPass makes VC allocation try every waiting head, also one passed by
	// while no output VC it may take was released (engine.passBy): tests
	// check that runs with and without agree.
	noPass bool
}

// ConfigError names the field of a Config or workload at fault.
type ConfigError struct{ Field, Msg string }

func (e *ConfigError) Error() string { return "sim: " + e.Field + ": " + e.Msg }

// Validate checks c as RunOpen and RunBatch do before they run: the network, the
// VCs, the buffers, the pipeline and the deadlock timeout.
func (c Config) Validate() error { return c.check() }

func (c *Config) check() error {
	if c.Net == nil {
		return &ConfigError{"net", "no network"}
	}
	if c.VCs < 1 || c.VCs > 64 {
		return &ConfigError{"vcs", fmt.Sprintf("%d outside 1..64", c.VCs)}
	}
	if c.Buf < 1 {
		return &ConfigError{"buf", fmt.Sprintf("%d below 1", c.Buf)}
	}
	if c.Buf > MaxBuf {
		return &ConfigError{"buf", fmt.Sprintf("%d above %d", c.Buf, MaxBuf)}
	}
	if err := c.Pipeline.check(); err != nil {
		return err
	}
	if c.DeadlockCycles < 0 {
		return &ConfigError{"deadlock-cycles", "negative"}
	}
	if customInput(c.SwitchInput) != nil {
		if f, ok := c.Arbiter.(flatArbitration); c.Arbiter != nil && (!ok || f.flatRule().random) {
			return &ConfigError{"switch-input", "takes round-robin or fixed arbitration"}
		}
		if c.Latch {
			return &ConfigError{"switch-input", "takes no latch (the theory model's switch)"}
		}
	}
	p := c.Pipeline
	tm := topology.TerminalsOf(c.Net)
	longest := 0 // the longest link latency the topology sets
	for v := range c.Net.Nodes() {
		if in, out, _ := nodePorts(c.Net, tm, v, c.InjectPerPort); in > 63 || out > 63 {
			return &ConfigError{"net", fmt.Sprintf("node %s has more than 63 ports with its terminals' (%d in, %d out)", topology.NodeName(c.Net, v), in, out)}
		}
		if c.InjectPerPort && tm.Injectors[v] > 1 {
			// a queue per output port replaces the terminals' own: one terminal's
			return &ConfigError{"inject-per-port", fmt.Sprintf("node %s has %d terminals, a queue per output port takes one", topology.NodeName(c.Net, v), tm.Injectors[v])}
		}
		for q := range c.Net.Ports(v) {
			longest = max(longest, topology.Latency(c.Net, v, q))
		}
	}
	slow := 2 * max(0, longest-p.Link) // a long link's flit and credit
	if quiet := p.Route + p.VCAlloc + p.SwAlloc + p.Traverse + max(p.Link, p.Eject) + p.Credit + p.Inject + slow; c.DeadlockCycles > 0 && c.DeadlockCycles <= quiet {
		// a flit may rightly sit still this long between moves
		what := "pipeline's"
		if slow > 0 {
			what = "pipeline's and long links'"
		}
		return &ConfigError{"deadlock-cycles", fmt.Sprintf("%d, want more than the %s %d cycles without a move", c.DeadlockCycles, what, quiet)}
	}
	return nil
}
