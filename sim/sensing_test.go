package sim_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// queueProbe routes as its Routing does and, bound, reads at every Route the
// queues of every port of every router (UGAL-G reads those of other routers than
// the one it routes at), weighted by position, into *sum (a head at its
// destination is routed without a call: the trace's reader sets *sum to -1).
type queueProbe struct {
	sim.Routing
	net topology.Network
	c   sim.Congestion
	sum *int64
}

func (p *queueProbe) Sense(c sim.Congestion) sim.Routing {
	b := *p
	b.c = c
	return &b
}

func (p *queueProbe) Route(at int, h *sim.Header, out []sim.Choice) []sim.Choice {
	if p.c != nil {
		s := int64(0)
		for r := range p.net.Nodes() {
			for q := range p.net.Ports(r) {
				s += int64(p.c.Queue(r, q)) * int64(r*64+q+1)
			}
		}
		*p.sum = s
	}
	return p.Routing.Route(at, h, out)
}

// A Sensing routing reads one state of the network per cycle, the same at every
// router it routes at, whatever the order routers are visited in: the credits after
// the cycle's arrivals and before any of its switch grants. Checked by a probe that
// sums every router's queues at every Route: within a cycle the sums are equal (on a
// 12x12 torus, three 64-router words, so across words and within one).
func TestSensingReadsOneState(t *testing.T) {
	net := mustNet(t, "torus:12x12")
	alg, err := routing.Lookup("dor")
	require.NoError(t, err)
	rt, err := alg.New(net, 2)
	require.NoError(t, err)
	pat, err := sim.NewPattern("uniform", sim.PatternParams{Net: net})
	require.NoError(t, err)
	var sum int64
	probe := &queueProbe{Routing: rt, net: net, sum: &sum}
	seen := map[int64]int64{} // cycle -> the sum its first Route read
	routes, differ, moved := 0, 0, 0
	var last int64
	cfg := sim.Config{Net: net, Routing: probe, VCs: 2, Buf: 4, Pipeline: sim.BookSim(net), Seed: 5,
		Trace: func(ev sim.Event) {
			if ev.Kind != sim.Route || sum < 0 {
				return
			}
			defer func() { sum = -1 }()
			routes++
			first, ok := seen[ev.Cycle]
			if !ok {
				seen[ev.Cycle] = sum
				if sum != last {
					moved++
				}
				last = sum
				return
			}
			if first != sum {
				differ++
			}
		}}
	_, err = sim.RunOpen(testCtx(t), cfg,
		sim.Workload{Pattern: pat, Rate: 0.4, Sizes: sim.Sizes{Flits: []int{4}, Weight: []float64{1}}},
		sim.Measure{MinCycles: 600, MaxCycles: 600, Period: 200})
	require.NoError(t, err)
	require.Greater(t, routes, 10*len(seen), "few heads routed a cycle: the check is weak")
	require.Greater(t, moved, len(seen)/2, "the queues seldom changed between cycles: the probe reads nothing")
	require.Zero(t, differ, "of %d Route calls, %d read another state than their cycle's first", routes, differ)
}
