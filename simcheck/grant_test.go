package simcheck_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sim"
)

// TestCheckerCatchesGrantOutsideChoices checks the rule "grant": a head is
// granted only an output VC that its Route event at that input VC offered, and
// it leaves the router by the output VC it was granted. A VC allocator that
// ignores the routing's VC classes (a dateline's, Duato's escape VCs) breaks a
// routing's deadlock freedom while every flit, credit and buffer rule still
// holds: the tampered traces below are such runs, each consistent in everything
// but the grant, and each must be refused.
func TestCheckerCatchesGrantOutsideChoices(t *testing.T) {
	net, trace, run := dorTrace(t, 0.3, 0)
	require.NoError(t, run(trace))
	// g: the first grant of a network output port; r: the Route event of that
	// head at that input VC
	g := slices.IndexFunc(trace, func(e sim.Event) bool {
		return e.Kind == sim.Grant && int(e.Port) < net.Ports(int(e.Node))
	})
	require.GreaterOrEqual(t, g, 0)
	r := -1
	for i := g - 1; i >= 0; i-- {
		e := trace[i]
		if e.Kind == sim.Route && e.Packet == trace[g].Packet && e.Node == trace[g].Node && e.InPort == trace[g].InPort && e.InVC == trace[g].InVC {
			r = i
			break
		}
	}
	require.GreaterOrEqual(t, r, 0, "no Route event before the grant")
	edit := func(i int, f func(*sim.Event)) []sim.Event {
		out := slices.Clone(trace)
		f(&out[i])
		return out
	}
	// the routing offered the other VC of the port only (the dateline's class)
	other := edit(r, func(e *sim.Event) {
		e.Choices = []sim.Choice{{Port: int(trace[g].Port), VCs: 1 << uint(1-trace[g].VC)}}
	})
	require.ErrorContains(t, run(other), "grant")
	// the routing offered another port only
	elsewhere := edit(r, func(e *sim.Event) {
		e.Choices = []sim.Choice{{Port: int(trace[g].Port+1) % net.Ports(int(trace[g].Node)), VCs: 3}}
	})
	require.ErrorContains(t, run(elsewhere), "grant")
	// the head was granted nothing before it left
	ungranted := slices.Delete(slices.Clone(trace), g, g+1)
	require.ErrorContains(t, run(ungranted), "grant")
	// the head left by another VC than its grant (the flits' own rules see a
	// consistent passage on the VC it took): the routing offered both VCs of
	// the port, so the grant itself is allowed and only its departure is not
	regranted := edit(g, func(e *sim.Event) { e.VC = 1 - e.VC })
	regranted[r].Choices = []sim.Choice{{Port: int(trace[g].Port), VCs: 3}}
	require.ErrorContains(t, run(regranted), "leaves by output port")
}
