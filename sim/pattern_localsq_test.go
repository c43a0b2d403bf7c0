package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/stattest"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// localsq at radius r on a torus sends uniformly to the (2r+1)^2 - 1 nodes of the
// square around the source: every one of them is drawn, none outside, none the
// source, and the hop classes have the weights of seed 003's local traffic (at
// radius 3, classes 1..6 in the ratio 1:2:3:3:2:1; mean hops 3.5; at radius 2,
// 1:2:2:1, mean 2.5). A chi-square test at level 1e-4 checks uniformity.
func TestLocalSquareUniform(t *testing.T) {
	net, err := topology.Parse("torus:16x16")
	require.NoError(t, err)
	g := net.(*topology.Grid)
	for _, tc := range []struct {
		radius int
		hops   []int // nodes per hop count 1..
		mean   float64
	}{{2, []int{4, 8, 8, 4}, 2.5}, {3, []int{4, 8, 12, 12, 8, 4}, 3.5}} {
		p, err := sim.NewPattern("localsq", sim.PatternParams{Net: net, Radius: tc.radius})
		require.NoError(t, err)
		cells := (2*tc.radius+1)*(2*tc.radius+1) - 1
		r := rand.New(rand.NewPCG(1, 2))
		for _, src := range []int{0, 17, 255, 8*16 + 8} {
			count := map[int]int{}
			const draws = 48000
			for range draws {
				d := p.Dest(src, r)
				dx, dy := g.Offset(src, d, 0), g.Offset(src, d, 1)
				require.LessOrEqual(t, max(dx, -dx), tc.radius)
				require.LessOrEqual(t, max(dy, -dy), tc.radius)
				require.NotEqual(t, src, d)
				count[d]++
			}
			require.Len(t, count, cells)
			counts := make([]int, 0, cells)
			byHops := make([]int, len(tc.hops)+1)
			for d, c := range count {
				counts = append(counts, c)
				byHops[g.Distance(src, d)]++
			}
			require.Equal(t, append([]int{0}, tc.hops...), byHops)
			u := stattest.UniformChiSquare(counts)
			require.Greater(t, u.P, 1e-4, "radius %d, source %d: %v", tc.radius, src, u)
			sum := 0
			for h, n := range tc.hops {
				sum += (h + 1) * n
			}
			require.InDelta(t, tc.mean, float64(sum)/float64(cells), 1e-12)
		}
	}
	_, err = sim.NewPattern("localsq", sim.PatternParams{Net: net, Radius: 8})
	require.Error(t, err)
	mesh, _ := topology.Parse("mesh:8x8")
	_, err = sim.NewPattern("localsq", sim.PatternParams{Net: mesh, Radius: 2})
	require.Error(t, err)
}
