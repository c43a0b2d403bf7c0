package sim_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
	"pgregory.net/rapid"
)

// randomTopologies are small networks of every kind the simulator takes, with
// many ports a router (flattened butterfly, HyperX with multiplicity, a
// concentrated mesh), links of several latencies (the dragonfly's, a file's),
// and networks of two and three words of routers (partitions for threads).
var randomTopologies = []string{
	"torus:4x4", "torus:3x5", "torus:2x2x2", "torus:6", "mesh:5x3", "mesh:2x2x3",
	"cmesh:3x3,c=4", "cmesh:2x2,c=8", "dragonfly:a=4,p=2,h=2", "dragonfly:a=2,p=5,h=1",
	"hyperx:3x3,k=2,t=2", "hyperx:4x2,k=3,t=6", "flatfly:k=4,n=2", "flatfly:k=8,n=2",
	"fly:k=2,n=3", "fly:k=4,n=2", "fattree:16", "file:../topology/testdata/ring4.json",
	"anynet:../topology/testdata/tree.anynet",
	"torus:12x12", "mesh:10x14", "dragonfly:a=6,p=1,h=3",
}

// randomRun is one drawn open-loop configuration.
type randomRun struct {
	cfg  sim.Config
	w    sim.Workload
	m    sim.Measure
	desc string
}

// drawRandomRun draws a configuration: a topology and a routing that routes on it,
// VC counts from 1 to 64 (below the routing's need too: an unsafe run), buffers
// of 1 to 40 flits, a pipeline (a preset or stages of 0 to 4 cycles), every
// registered arbitration, selection and switch input stage, atomic VCs, sinks
// taking any number of flits, injection per port, size mixes, patterns,
// processes and limits.
func drawRandomRun(t *rapid.T) randomRun { return drawRandomRunOn(t, randomTopologies) }

// drawRandomRunOn is drawRandomRun on one of the networks specs.
func drawRandomRunOn(t *rapid.T, specs []string) randomRun {
	spec := rapid.SampledFrom(specs).Draw(t, "topology")
	net, err := topology.Parse(spec)
	require.NoError(t, err)
	var algs []routing.Algorithm
	for _, name := range routing.Names() {
		a, err := routing.Lookup(name)
		require.NoError(t, err)
		if _, err := a.MinVCs(net); err == nil {
			algs = append(algs, a)
		}
	}
	if len(algs) == 0 {
		t.Skipf("no routing on %s", spec)
	}
	alg := rapid.SampledFrom(algs).Draw(t, "routing")
	vcs := rapid.SampledFrom([]int{1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 63, 64}).Draw(t, "vcs")
	rt, err := alg.New(net, vcs)
	if err != nil {
		t.Skipf("%s on %s with %d VCs: %v", alg.Name, spec, vcs, err)
	}
	var pipe sim.Pipeline
	switch rapid.IntRange(0, 2).Draw(t, "pipeline") {
	case 0:
		pipe = sim.BookSim(net)
	case 1:
		pipe = sim.Ideal()
	default:
		d := rapid.IntRange(0, 4)
		pipe = sim.Pipeline{Route: d.Draw(t, "route"), VCAlloc: d.Draw(t, "vcalloc"), SwAlloc: d.Draw(t, "swalloc"),
			Traverse: d.Draw(t, "traverse"), Inject: d.Draw(t, "inject"), Eject: d.Draw(t, "eject"),
			Link: rapid.IntRange(1, 5).Draw(t, "link"), Credit: rapid.IntRange(1, 5).Draw(t, "credit")}
	}
	arb, err := sim.LookupArbitration(rapid.SampledFrom(sim.ArbitrationNames()).Draw(t, "arb"))
	require.NoError(t, err)
	sel, err := sim.LookupSelector(rapid.SampledFrom(sim.SelectorNames()).Draw(t, "select"))
	require.NoError(t, err)
	swin, err := sim.LookupSwitchInput(rapid.SampledFrom(sim.SwitchInputNames()).Draw(t, "switch-input"))
	require.NoError(t, err)
	cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: rapid.IntRange(1, 40).Draw(t, "buf"), Pipeline: pipe,
		Arbiter: arb, Select: sel, SwitchInput: swin, Seed: rapid.Uint64Range(1, 1000).Draw(t, "seed"),
		DeadlockCycles: rapid.SampledFrom([]int{0, 300}).Draw(t, "deadlock"),
		AtomicVC:       rapid.Bool().Draw(t, "atomic"), EjectAll: rapid.Bool().Draw(t, "eject-all"),
		InjectPerPort: rapid.Bool().Draw(t, "inject-per-port")}
	tm := topology.TerminalsOf(net)
	for _, k := range tm.Injectors {
		if k > 1 {
			cfg.InjectPerPort = false // queues per port take one terminal a router
		}
	}
	if cfg.Validate() != nil {
		t.Skip("refused") // a custom switch input with random arbitration
	}
	pat, err := sim.NewPattern(rapid.SampledFrom([]string{"uniform", "uniform", "randperm", "neighbor", "bitcomp", "tornado", "hotspot"}).Draw(t, "pattern"),
		sim.PatternParams{Net: net, Seed: cfg.Seed, Hot: []int{0}, HotFraction: 0.3})
	if err != nil {
		t.Skipf("pattern: %v", err)
	}
	proc, err := sim.LookupProcess(rapid.SampledFrom(sim.ProcessNames()).Draw(t, "process"))
	require.NoError(t, err)
	sizes := rapid.SampledFrom([]sim.Sizes{{Flits: []int{1}, Weight: []float64{1}}, {Flits: []int{16}, Weight: []float64{1}}, {Flits: []int{2, 8}, Weight: []float64{1, 1}},
		{Flits: []int{1, 40}, Weight: []float64{3, 1}}}).Draw(t, "sizes")
	w := sim.Workload{Pattern: pat, Process: proc, Rate: rapid.SampledFrom([]float64{0.02, 0.1, 0.3, 0.7}).Draw(t, "rate"),
		Sizes: sizes, InjectLimit: rapid.SampledFrom([]int{0, 0, 2}).Draw(t, "inject-limit"),
		ClassLimit: rapid.SampledFrom([]int{0, 0, 3}).Draw(t, "class-limit")}
	cycles := int64(rapid.SampledFrom([]int{300, 800}).Draw(t, "cycles"))
	m := sim.Measure{MinCycles: cycles, MaxCycles: cycles, Period: 100, Nodes: true}
	return randomRun{cfg, w, m, fmt.Sprintf("%s %s vcs %d", spec, alg.Name, vcs)}
}

// A run on any configuration the simulator accepts ends in a result, a deadlock or
// a refusal, never a panic; and its outcome does not depend on its threads or on
// its taking blocks of cycles (part.go, block.go: the partitions exchange events
// at least a cycle ahead and draw from their routers' own streams), so one to four
// threads, cycle by cycle or in blocks, give the same Result field for field and
// the same error (and of 40 runs drawn to take blocks some do). Run with `go
// test -tags simbounds` (or -race), every table access of the engine's loops is
// bounds-checked (elem_checked.go): an index past its table panics there, where
// the unchecked build would write past it.
func TestRandomConfigsSame(t *testing.T) {
	var runs, delivered, deadlocks, refused int
	var blocked sim.BlockStats // the blocks of the runs drawn to take them
	blockDraws, blockedDraws := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		r := drawRandomRun(t)
		runs++
		run := func(threads int, blocks bool) (*sim.Result, error) {
			cfg := r.cfg
			cfg.Threads = threads
			if blocks {
				sim.ForceBlocks(&cfg)
				sim.CountBlocks(&cfg, &blocked)
			} else {
				sim.WithoutBlocks(&cfg)
			}
			// no deadline: a run is bounded by its cycles, and one cut by a
			// deadline would stop at another cycle on other threads
			return sim.RunOpen(context.Background(), cfg, r.w, r.m)
		}
		want, wantErr := run(1, false)
		var de *sim.DeadlockError
		switch {
		case wantErr == nil:
			delivered++
		case errors.As(wantErr, &de):
			deadlocks++
		default:
			refused++
			var ce *sim.ConfigError
			var me *sim.MemoryError
			var re *sim.RoutingError
			require.True(t, errors.As(wantErr, &ce) || errors.As(wantErr, &me) || errors.As(wantErr, &re), "%s: %v", r.desc, wantErr)
		}
		threads := rapid.IntRange(1, 4).Draw(t, "threads")
		blocks := rapid.Bool().Draw(t, "blocks")
		before := blocked.Blocks()
		got, gotErr := run(threads, blocks)
		if blocks {
			blockDraws++
			if blocked.Blocks() > before {
				blockedDraws++
			}
		}
		require.Equal(t, wantErr, gotErr, "%s, %d threads, blocks %v", r.desc, threads, blocks)
		require.Equal(t, want, got, "%s, %d threads, blocks %v", r.desc, threads, blocks)
	})
	t.Logf("%d configurations: %d ran, %d deadlocked, %d refused; %d of %d drawn to take blocks took %d", runs, delivered, deadlocks, refused, blockedDraws, blockDraws, blocked.Blocks())
	if blockDraws >= 40 {
		// a quarter or a third of them take blocks (the rest cannot: a span
		// of one cycle, a sensing routing...): none of 40, some 0.75^40 = 1e-5
		require.Positive(t, blockedDraws, "none of %d runs drawn to take blocks took one", blockDraws)
	}
}

// A closed batch on any configuration the simulator accepts ends in its result, a
// stall, a deadlock or a refusal, never a panic, the same on 1 to 4 threads:
// packets on fixed paths (random walks of up to 12 links, which may pass their
// destination) or routed, released over 50 cycles, some routed ones with a drawn
// start state and their first hop steered to a VC the routing offers (a
// deadlock replay's packets), with the theory model's switch (Latch, with and
// without Rotate) at any VC count and buffer, queues per port, sinks without a
// limit. Run with -tags simbounds, every table access elem serves is checked.
// (A steered packet of a routing that reads the network's state may be refused:
// bound, it offers one of the routes the unbound routing lists.)
func TestRandomBatchesSame(t *testing.T) {
	outcomes := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		r := drawRandomRun(t)
		cfg := r.cfg
		net := cfg.Net
		tm := topology.TerminalsOf(net)
		if tm.Len() < 2 {
			t.Skip("one terminal")
		}
		if cfg.Latch = rapid.Bool().Draw(t, "latch"); cfg.Latch {
			cfg.Rotate = rapid.Bool().Draw(t, "rotate")
			cfg.SwitchInput = nil
		}
		rng := rand.New(rand.NewPCG(cfg.Seed, 7))
		ps := make([]sim.Packet, rapid.IntRange(1, 60).Draw(t, "packets"))
		for i := range ps {
			// Src and Dst are routers (of a terminal)
			src := int(tm.In[rng.IntN(tm.Len())])
			p := sim.Packet{Src: src, Flits: 1 + rng.IntN(12), Release: int64(rng.IntN(50))}
			at := src
			if rng.IntN(2) == 0 {
				// a random walk from the source's router to a router with a terminal
				for k := 0; k < 1+rng.IntN(12); k++ {
					if net.Ports(at) == 0 {
						break
					}
					q := rng.IntN(net.Ports(at))
					next, _ := net.Link(at, q)
					if next < 0 {
						break
					}
					p.Path = append(p.Path, q)
					at = next
				}
				p.Dst = -1
				for d := range tm.Len() {
					if int(tm.Out[d]) == at {
						p.Dst = at
						break
					}
				}
				if p.Dst < 0 {
					p.Path = nil
				}
			}
			if p.Dst < 0 || p.Path == nil {
				p.Dst = int(tm.Out[rng.IntN(tm.Len())])
			}
			if p.Path == nil && rng.IntN(3) == 0 {
				h := sim.Header{Src: int32(src), Dst: int32(p.Dst), Port: -1, InPort: -1, VC: -1}
				cfg.Routing.Start(&h, rng)
				p.Start = &h
				if h.Src != h.Dst {
					hh := h
					if ch := cfg.Routing.Route(int(h.Src), &hh, nil); len(ch) > 0 {
						c := ch[rng.IntN(len(ch))]
						if vcs := c.VCs & (1<<uint(cfg.VCs) - 1); cfg.VCs < 64 && vcs != 0 {
							v := 0
							for vcs>>uint(v)&1 == 0 {
								v++
							}
							p.Steer = []sim.Hop{{Port: c.Port, VC: v}}
						}
					}
				}
			}
			ps[i] = p
		}
		run := func(threads int) (*sim.BatchResult, error) {
			cfg := cfg
			cfg.Threads = threads
			return sim.RunBatch(context.Background(), cfg, ps, sim.BatchOptions{RecordHops: true, MaxCycles: 20000})
		}
		want, wantErr := run(1)
		var de *sim.DeadlockError
		var se *sim.StallError
		var ce *sim.ConfigError
		var re *sim.RoutingError
		switch {
		case wantErr == nil:
			outcomes["delivered"]++
		case errors.As(wantErr, &de):
			outcomes["deadlock"]++
		case errors.As(wantErr, &se):
			outcomes["stall"]++
		case errors.As(wantErr, &ce), errors.As(wantErr, &re):
			outcomes["refused"]++
		default:
			t.Fatalf("%s: %v", r.desc, wantErr)
		}
		threads := rapid.IntRange(2, 4).Draw(t, "threads")
		got, gotErr := run(threads)
		require.Equal(t, wantErr, gotErr, "%s, %d threads", r.desc, threads)
		require.Equal(t, want, got, "%s, %d threads", r.desc, threads)
	})
	t.Logf("batches: %v", outcomes)
}
