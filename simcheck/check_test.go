package simcheck_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/simcheck"
	"github.com/wormlab/wormlab/topology"
	"pgregory.net/rapid"
)

// drawConfig draws a torus or mesh of 1-3 dimensions, DOR with enough VCs, a
// buffer, a pipeline with random stage delays, a selection and an arbitration.
func drawConfig(t *rapid.T) sim.Config {
	dims := rapid.IntRange(1, 3).Draw(t, "dims")
	spec := rapid.SampledFrom([]string{"torus", "mesh"}).Draw(t, "kind") + ":"
	for i := range dims {
		if i > 0 {
			spec += "x"
		}
		spec += fmt.Sprint(rapid.IntRange(2, 5).Draw(t, "side"))
	}
	net, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	alg, _ := routing.Lookup("dor")
	need, _ := alg.MinVCs(net)
	vcs := rapid.IntRange(need, 4).Draw(t, "vcs")
	rt, err := alg.New(net, vcs)
	if err != nil {
		t.Fatal(err)
	}
	d := func(name string, lo int) int { return rapid.IntRange(lo, 3).Draw(t, name) }
	p := sim.Pipeline{Route: d("route", 0), VCAlloc: d("va", 0), SwAlloc: d("sa", 0), Traverse: d("st", 0),
		Link: d("link", 1), Credit: d("credit", 1), Inject: d("inject", 0), Eject: d("eject", 0)}
	sel := rapid.SampledFrom(sim.SelectorNames()).Draw(t, "select")
	arb := rapid.SampledFrom(sim.ArbitrationNames()).Draw(t, "arb")
	s, _ := sim.LookupSelector(sel)
	a, _ := sim.LookupArbitration(arb)
	return sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: rapid.IntRange(1, 6).Draw(t, "buf"), Pipeline: p,
		Select: s, Arbiter: a, Seed: rapid.Uint64().Draw(t, "seed")}
}

// Invariants of the router (package doc) hold on every trace of open-loop runs over
// random tori and meshes, VC counts, buffers, pipelines, policies, patterns and
// loads up to beyond saturation, and the checker's own packet accounting agrees with
// the simulator's.
func TestOpenLoopInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := drawConfig(t)
		pname := rapid.SampledFrom([]string{"uniform", "hotspot", "local", "tornado", "neighbor", "randperm", "bitcomp"}).Draw(t, "traffic")
		pat, err := sim.NewPattern(pname, sim.PatternParams{Net: cfg.Net, Seed: 3})
		if err != nil {
			t.Skip(err)
		}
		chk := simcheck.New(cfg.Net, simcheck.Params{VCs: cfg.VCs, Buf: cfg.Buf, Hop: int64(cfg.Pipeline.SwAlloc + cfg.Pipeline.Traverse + cfg.Pipeline.Link)})
		cfg.Trace = chk.Event
		sizes := rapid.SampledFrom([]sim.Sizes{sim.Fixed(1), sim.Fixed(4), {Flits: []int{1, 8}, Weight: []float64{1, 1}}}).Draw(t, "sizes")
		w := sim.Workload{Pattern: pat, Rate: rapid.Float64Range(0.01, 1).Draw(t, "rate"), Sizes: sizes,
			Process:     rapid.SampledFrom([]sim.Process{sim.Bernoulli{}, sim.Poisson{}}).Draw(t, "process"),
			InjectLimit: rapid.IntRange(0, 3).Draw(t, "limit")}
		res, err := sim.RunOpen(context.Background(), cfg, w, sim.Measure{MinCycles: 500, MaxCycles: 1500, Period: 500})
		if err != nil {
			t.Fatalf("sim: %v", err)
		}
		rep, err := chk.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if rep.Generated != res.PacketsGenerated || rep.Delivered != res.PacketsDelivered || rep.InFlight != res.PacketsLeft {
			t.Fatalf("accounting: checker %+v, simulator generated %d delivered %d left %d", rep, res.PacketsGenerated, res.PacketsDelivered, res.PacketsLeft)
		}
	})
}

// The same in closed batches on random MODEL.md networks with fixed paths, with
// random VCs and buffers, and in the theory model (V = B = 1, latch, EjectAll,
// with and without Rotate):
// every packet is delivered (or the run deadlocks) and no invariant breaks.
func TestBatchInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := fixture.Instance(t, fixture.Shape{MaxNodes: 6, MaxEdges: 12, MaxMessages: 10, MaxHops: 5, MaxL: 5, Levelled: rapid.Bool().Draw(t, "levelled")})
		cfg, ps := sim.TheoryConfig(in, sim.FixedOrder{}, 1)
		cfg.Rotate = rapid.Bool().Draw(t, "rotate")
		if !rapid.Bool().Draw(t, "theory") {
			cfg.VCs = rapid.IntRange(1, 3).Draw(t, "vcs")
			cfg.Buf = rapid.IntRange(1, 4).Draw(t, "buf")
			cfg.Latch, cfg.EjectAll, cfg.InjectPerPort = false, false, rapid.Bool().Draw(t, "perport")
			cfg.Pipeline = sim.Pipeline{Route: rapid.IntRange(0, 2).Draw(t, "route"), Link: rapid.IntRange(1, 3).Draw(t, "link"), Credit: rapid.IntRange(1, 3).Draw(t, "credit")}
		}
		for i := range ps {
			ps[i].Release = int64(rapid.IntRange(0, 5).Draw(t, "release"))
		}
		chk := simcheck.New(cfg.Net, simcheck.Params{VCs: cfg.VCs, Buf: cfg.Buf, EjectAll: cfg.EjectAll, Hop: int64(cfg.Pipeline.SwAlloc + cfg.Pipeline.Traverse + cfg.Pipeline.Link)})
		cfg.Trace = chk.Event
		_, err := sim.RunBatch(context.Background(), cfg, ps, sim.BatchOptions{})
		var dl *sim.DeadlockError
		if err != nil && !errors.As(err, &dl) {
			t.Fatal(err)
		}
		rep, cerr := chk.Finish()
		if cerr != nil {
			t.Fatal(cerr)
		}
		if err == nil && (rep.Delivered != int64(len(ps)) || rep.InFlight != 0) {
			t.Fatalf("accounting: %+v for %d packets", rep, len(ps))
		}
		if err != nil && rep.InFlight == 0 {
			t.Fatalf("a deadlock with nothing in flight")
		}
	})
}

// The checker can fail: every tampering with a correct trace (a credit lost, a
// flit sent twice, a flit delivered out of order, an arrival on the wrong VC) is
// caught.
func TestCheckerCatchesTampering(t *testing.T) {
	net, err := topology.Parse("torus:4x4")
	require.NoError(t, err)
	rt, err := routing.NewDOR(net, 2)
	require.NoError(t, err)
	cfg := sim.Config{Net: net, Routing: rt, VCs: 2, Buf: 2, Pipeline: sim.BookSim(net), Seed: 1}
	var trace []sim.Event
	cfg.Trace = func(e sim.Event) { trace = append(trace, e) }
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	_, err = sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.5, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 500, MaxCycles: 500, Period: 500})
	require.NoError(t, err)
	run := func(tr []sim.Event) error {
		c := simcheck.New(net, simcheck.Params{VCs: 2, Buf: 2, Hop: 4})
		for _, e := range tr {
			c.Event(e)
		}
		_, err := c.Finish()
		return err
	}
	require.NoError(t, run(trace))
	find := func(k sim.EventKind, from int) int {
		for i := from; i < len(trace); i++ {
			if trace[i].Kind == k && trace[i].Port >= 0 && trace[i].Port < 4 {
				return i
			}
		}
		t.Fatalf("no event of kind %d", k)
		return -1
	}
	tamper := map[string]func([]sim.Event) []sim.Event{
		"credit lost": func(tr []sim.Event) []sim.Event {
			// drop every credit of one output VC: its sends run dry
			i := find(sim.Credit, 0)
			var out []sim.Event
			for _, e := range tr {
				if !(e.Kind == sim.Credit && e.Node == tr[i].Node && e.Port == tr[i].Port && e.VC == tr[i].VC) {
					out = append(out, e)
				}
			}
			return out
		},
		"flit sent twice": func(tr []sim.Event) []sim.Event {
			i := find(sim.Send, 0)
			return append(append(append([]sim.Event{}, tr[:i+1]...), tr[i]), tr[i+1:]...)
		},
		"wrong VC": func(tr []sim.Event) []sim.Event {
			out := append([]sim.Event{}, tr...)
			i := find(sim.Send, 0)
			out[i].VC = 1 - out[i].VC
			return out
		},
		"delivered out of order": func(tr []sim.Event) []sim.Event {
			out := append([]sim.Event{}, tr...)
			for i := range out {
				if out[i].Kind == sim.Deliver && out[i].Flit == 1 {
					out[i].Flit = 2
					return out
				}
			}
			return out
		},
	}
	for name, f := range tamper {
		require.Error(t, run(f(trace)), name)
	}
}
