package simcheck_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/simcheck"
	"github.com/wormlab/wormlab/topology"
)

// The router's invariants (package doc), with terminals apart from routers and
// links of their own latencies: on traces of open-loop runs over issue 25's
// networks (dragonflies with local and global latencies, a trunk, both
// arrangements; HyperX with link multiplicity and concentration; a concentrated
// mesh; butterflies, which inject and eject at different routers; networks from
// files with weighted links and terminals at only some routers) under their
// routings (UGAL reading the queues), random pipelines, buffers, loads up to
// beyond saturation, injection limits and the patterns that apply, every packet is
// generated at its source terminal's router, injected by that terminal's port,
// crosses each link in the pipeline's hop time with that link's latency, its
// credits come back in the pipeline's credit time with that latency, a terminal
// never has more packets in the network than the limit, it leaves by its
// destination terminal's ejection port, and the checker's accounting agrees with
// the simulator's cycle by cycle.
func TestTopologyInvariants(t *testing.T) {
	cases := []struct{ spec, routing string }{
		{"dragonfly:a=3,p=2,h=1,local=3,global=7", "df-min"},
		{"dragonfly:a=4,p=2,h=2,g=5,local=2,global=5", "df-valiant"},
		{"dragonfly:a=3,p=2,h=1,local=2,global=6,arrangement=palmtree", "df-ugal-l"},
		{"dragonfly:a=4,p=1,h=2,local=1,global=4", "df-ugal-g"},
		{"dragonfly:a=4,p=2,h=2,g=5,local=2,global=3", "df-par"},
		{"hyperx:3x3,k=2,t=3", "hx-dor"},
		{"hyperx:3x2x2,k=1x2x1,t=2", "hx-dal"},
		{"flatfly:k=3,n=3", "hx-dal"},
		{"cmesh:3x3,c=3", "dor"},
		{"fly:k=2,n=3", "fly-tag"},
		{"fly:k=3,n=2", "fly-tag"},
		{"file:../topology/testdata/ring4.json", "any-min"},
		{"anynet:../topology/testdata/tree.anynet", "any-updown"},
	}
	rapid.Check(t, func(t *rapid.T) {
		c := rapid.SampledFrom(cases).Draw(t, "case")
		net, err := topology.Parse(c.spec)
		require.NoError(t, err)
		alg, err := routing.Lookup(c.routing)
		require.NoError(t, err)
		need, err := alg.MinVCs(net)
		require.NoError(t, err)
		vcs := rapid.IntRange(need, need+2).Draw(t, "vcs")
		rt, err := alg.New(net, vcs)
		require.NoError(t, err)
		d := func(name string, lo int) int { return rapid.IntRange(lo, 2).Draw(t, name) }
		p := sim.Pipeline{Route: d("route", 0), VCAlloc: d("va", 0), SwAlloc: d("sa", 0), Traverse: d("st", 0),
			Link: d("link", 1), Credit: d("credit", 1), Inject: d("inject", 0), Eject: d("eject", 0)}
		cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: rapid.IntRange(1, 6).Draw(t, "buf"), Pipeline: p,
			Seed: rapid.Uint64().Draw(t, "seed"), AtomicVC: alg.Atomic}
		limit := rapid.IntRange(0, 2).Draw(t, "limit")
		chk := simcheck.New(net, simcheck.Params{VCs: vcs, Buf: cfg.Buf, Hop: int64(p.SwAlloc + p.Traverse + p.Link), Link: int64(p.Link),
			Credit: int64(p.Credit), InjectLimit: limit})
		cfg.Trace = chk.Event
		pname := rapid.SampledFrom([]string{"uniform", "randperm", "worstcase", "groupperm", "tornado", "bitcomp"}).Draw(t, "traffic")
		pat, err := sim.NewPattern(pname, sim.PatternParams{Net: net, Seed: 3})
		if err != nil {
			t.Skip(err)
		}
		w := sim.Workload{Pattern: pat, Rate: rapid.Float64Range(0.01, 1).Draw(t, "rate"), Sizes: sim.Fixed(rapid.IntRange(1, 5).Draw(t, "flits")),
			InjectLimit: limit}
		res, err := sim.RunOpen(context.Background(), cfg, w, sim.Measure{MinCycles: 500, MaxCycles: 1500, Period: 500})
		require.NoError(t, err)
		rep, err := chk.Finish()
		require.NoError(t, err)
		require.Equal(t, res.PacketsGenerated, rep.Generated)
		require.Equal(t, res.PacketsDelivered, rep.Delivered)
		require.Equal(t, res.PacketsLeft, rep.InFlight)
		require.Positive(t, rep.Delivered)
	})
}

// The checks of terminals and link latencies fail on tampered traces: a flit sent
// into another terminal's ejection port, an injection by another terminal's port,
// a flit that crosses a long link a cycle early.
func TestTopologyTamper(t *testing.T) {
	record := func(spec, name string, vcs int) (topology.Network, []sim.Event, sim.Pipeline) {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		alg, _ := routing.Lookup(name)
		rt, err := alg.New(net, vcs)
		require.NoError(t, err)
		p := sim.BookSim(net)
		var evs []sim.Event
		cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: 8, Pipeline: p, Seed: 1, Trace: func(e sim.Event) { evs = append(evs, e) }}
		pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
		require.NoError(t, err)
		_, err = sim.RunOpen(context.Background(), cfg, sim.Workload{Pattern: pat, Rate: 0.3, Sizes: sim.Fixed(4)}, sim.Measure{MinCycles: 500, MaxCycles: 500, Period: 500})
		require.NoError(t, err)
		return net, evs, p
	}
	check := func(net topology.Network, p sim.Pipeline, evs []sim.Event) error {
		c := simcheck.New(net, simcheck.Params{VCs: 3, Buf: 8, Hop: int64(p.SwAlloc + p.Traverse + p.Link), Link: int64(p.Link), Credit: int64(p.Credit)})
		for _, e := range evs {
			c.Event(e)
		}
		_, err := c.Finish()
		return err
	}
	net, evs, p := record("cmesh:2x2,c=4", "dor", 3)
	require.NoError(t, check(net, p, evs))
	tamper := func(match func(sim.Event) bool, edit func(*sim.Event), want string) {
		bad := append([]sim.Event(nil), evs...)
		for i := range bad {
			if match(bad[i]) {
				edit(&bad[i])
				break
			}
		}
		err := check(net, p, bad)
		require.ErrorContains(t, err, want)
	}
	eject := func(e sim.Event) bool { return e.Kind == sim.Send && int(e.Port) >= net.Ports(int(e.Node)) }
	tamper(eject, func(e *sim.Event) {
		e.Port = int32(net.Ports(int(e.Node))) + (e.Port-int32(net.Ports(int(e.Node)))+1)%4
	}, "terminal")
	tamper(func(e sim.Event) bool { return e.Kind == sim.Inject }, func(e *sim.Event) {
		e.InPort = int32(net.InPorts(int(e.Node))) + (e.InPort-int32(net.InPorts(int(e.Node)))+1)%4
	}, "terminal")
	net, evs, p = record("dragonfly:a=3,p=2,h=1,local=3,global=9", "df-min", 3)
	require.NoError(t, check(net, p, evs))
	tamper(func(e sim.Event) bool { return e.Kind == sim.Arrive && e.Port < int32(net.InPorts(int(e.Node))) },
		func(e *sim.Event) { e.Cycle-- }, "link")
}
