package sim_test

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// TestLatchManyVCsCompletes checks that a latch run with V >= 2 (VC allocation
// merged into switch allocation) never stalls under a deadlock-free routing:
// dimension order with Dally-Seitz datelines on tori is deadlock-free (Dally and
// Seitz 1987, Theorem 1: an acyclic channel dependency graph), so every batch must
// be delivered. A VC whose output VC has no credit must not bid for the switch
// when V > 1: the arbiters advance only on moves, so such a bid could win its input
// arbiter every cycle and starve the port's other VCs (found on torus:4x4, 3 VCs,
// one-flit buffers, dor-booksim: a stall with no cycle in the wait-for graph).
func TestLatchManyVCsCompletes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		spec := rapid.SampledFrom([]string{"torus:4x4", "torus:3x5", "torus:6", "mesh:4x3"}).Draw(t, "topology")
		name := rapid.SampledFrom([]string{"dor", "dor-booksim"}).Draw(t, "routing")
		vcs := rapid.IntRange(2, 4).Draw(t, "vcs")
		buf := rapid.IntRange(1, 3).Draw(t, "buf")
		arb := rapid.SampledFrom(sim.ArbitrationNames()).Draw(t, "arbitration")
		sel := rapid.SampledFrom(sim.SelectorNames()).Draw(t, "selection")
		seed := rapid.Uint64().Draw(t, "seed")
		net, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		alg, err := routing.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := alg.New(net, vcs)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := sim.LookupArbitration(arb)
		s, _ := sim.LookupSelector(sel)
		// heavy batches: the stall needs buffers full of blocked heads
		n := net.Nodes()
		count := rapid.IntRange(100, 250).Draw(t, "packets")
		r := rand.New(rand.NewPCG(seed, 1))
		pk := make([]sim.Packet, count)
		for i := range pk {
			pk[i] = sim.Packet{Src: r.IntN(n), Dst: r.IntN(n), Flits: 1 + r.IntN(12), Release: r.Int64N(120)}
		}
		cfg := sim.Config{Net: net, Routing: rt, VCs: vcs, Buf: buf, Pipeline: sim.Ideal(),
			Select: s, Arbiter: a, Seed: seed, Latch: true, DeadlockCycles: 2000}
		res, err := sim.RunBatch(testCtx(t), cfg, pk, sim.BatchOptions{})
		if err != nil {
			t.Fatalf("latch run with %d VCs: %v", vcs, err)
		}
		for i, d := range res.Delivered {
			if d < pk[i].Release {
				t.Fatalf("packet %d delivered at %d before its release %d", i, d, pk[i].Release)
			}
		}
	})
}
