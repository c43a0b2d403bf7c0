package chien

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// The module delays are Chien's formulas: at P = V = F = 1 the logarithms vanish,
// each doubling adds 0.6 ns to its module, and the header's path is the trailing
// flit's plus decoding and arbitration, so it sets the clock.
func TestModel(t *testing.T) {
	d, err := Model(1, 1, 1)
	require.NoError(t, err)
	require.Equal(t, Delays{AD: 2.7, ARB: 0.6, CB: 0.4, FC: 2.2, VC: 1.24}, d)
	e, err := Model(2, 4, 8)
	require.NoError(t, err)
	require.InDelta(t, d.CB+0.6, e.CB, 1e-12)
	require.InDelta(t, d.VC+1.2, e.VC, 1e-12)
	require.InDelta(t, d.ARB+1.8, e.ARB, 1e-12)
	require.InDelta(t, e.Trail()+e.AD+e.ARB, e.Header(), 1e-12)
	require.Equal(t, e.Header(), e.Cycle())
	_, err = Model(0, 1, 1)
	require.Error(t, err)
	require.False(t, math.IsNaN(e.Cycle()))
}

// F of seed 001's routings by enumeration: dimension order with Dally and Seitz's
// classes offers one VC at every hop; the Duato variant two once the wrap link is
// behind; Red Rover two where a route crosses neither dateline and it picks its
// class on entering a dimension. P on a 2-D torus with 2 VCs is 10 crossbar
// ports.
func TestFreedom(t *testing.T) {
	net, err := topology.Parse("torus:8x8")
	require.NoError(t, err)
	require.Equal(t, 10, Ports(net, 2))
	for _, tc := range []struct {
		name string
		vcs  int
		want int
	}{{"dor", 2, 1}, {"duato-dp", 2, 2}, {"redrover", 2, 2}} {
		alg, err := routing.Lookup(tc.name)
		require.NoError(t, err)
		r, err := alg.New(net, tc.vcs)
		require.NoError(t, err)
		f, err := Freedom(context.Background(), net, r.(deadlock.Function), tc.vcs)
		require.NoError(t, err)
		require.Equal(t, tc.want, f, tc.name)
	}
}

// The cycle times of seed 001's routers follow from the published module delays
// alone: with 2 VCs (T_VC = 1.24 + 0.6 = 1.84 ns) a header's path is 2.7 + T_ARB +
// T_CB + 2.2 + 1.84 ns; one crossbar of 10 ports (T_CB = 0.4 + 0.6 log2 10 = 2.393)
// and F = 1 give 9.733 ns, F = 2 adds 0.6 ns; a crossbar per dimension (P = 3V = 6,
// T_CB = 1.951) gives 9.291 and 9.891 ns.
func TestSeed001Cycles(t *testing.T) {
	require.Equal(t, 6, DimPorts(2))
	for _, tc := range []struct {
		p, f int
		want float64
	}{{10, 1, 9.733}, {10, 2, 10.333}, {6, 1, 9.291}, {6, 2, 9.891}} {
		d, err := Model(tc.p, 2, tc.f)
		require.NoError(t, err)
		require.InDelta(t, tc.want, d.Cycle(), 0.001, "P %d F %d", tc.p, tc.f)
	}
}
