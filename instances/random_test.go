package instances_test

// The random choices of the theory half's generators, tested as such: Ranade's
// problems (seed 002, section 2.4: each input sends 1 or log N messages to
// uniformly random outputs, the setting of Theorem 2 and Lemma 5), random shortest
// paths on meshes and tori (uniform over the monotone shortest paths), the one-bend
// paths (row or column first with probability 1/2 each, seed 002, section 2.4) and
// the random up-links of the butterfly fat-tree (seed 000, section B.2, the
// Valiant-style choice of a random common ancestor). Each chi-square test runs at
// level 1e-4 on fixed seeds: a correct generator fails it for the seeds chosen with
// probability at most 1e-4 (the false-alarm rate), the six tests together at most
// 6e-4.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/stattest"
)

const level = 1e-4

// Ranade's problems: every input sends exactly log N (heavy) or 1 (light) messages,
// and the outputs are uniform over the N outputs.
func TestRanadeDestinationsUniform(t *testing.T) {
	const N, k = 16, 4
	for _, c := range []struct {
		traffic string
		per     int
	}{{"heavy", k}, {"light", 1}} {
		counts := make([]int, N)
		for seed := range uint64(40) {
			in, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: N, Traffic: c.traffic, Seed: seed})
			require.NoError(t, err)
			per := make([]int, N)
			for _, m := range in.Messages {
				from := in.Net.Edges[m.Path[0]].From
				to := in.Net.Edges[m.Path[len(m.Path)-1]].To
				require.Less(t, from, N, "a source is an input (level 0)")
				require.GreaterOrEqual(t, to, k*N, "a destination is an output (level log N)")
				per[from]++
				counts[to-k*N]++
			}
			for r, x := range per {
				require.Equal(t, c.per, x, "%s: input %d sends %d messages", c.traffic, r, x)
			}
		}
		u := stattest.UniformChiSquare(counts)
		require.Greater(t, u.P, level, "%s: outputs not uniform: %v", c.traffic, u)
	}
}

// draw routes src -> dst `times` times and counts the distinct paths.
func draw(t *testing.T, top *instances.Topology, routing, src, dst string, times int, seed uint64) map[string]int {
	s, ok := top.Net.Node(src)
	require.True(t, ok, src)
	d, ok := top.Net.Node(dst)
	require.True(t, ok, dst)
	r := instances.Rand(seed)
	out := map[string]int{}
	for range times {
		p, err := top.Path(s, d, routing, r)
		require.NoError(t, err)
		out[fmt.Sprint(p)]++
	}
	return out
}

// counts lists a map's counts, after checking it has `cells` keys.
func counts(t *testing.T, m map[string]int, cells int) []int {
	require.Len(t, m, cells)
	var out []int
	for _, c := range m {
		out = append(out, c)
	}
	return out
}

// Random shortest paths, by chi-square (traffic_test.go checks the 3 x 3 mesh by
// tolerance): on a 3 x 4 mesh from corner to corner the 10 monotone
// shortest paths (C(5, 2)) are equally likely; on a 4-ring (torus side 4) the two
// ways round to the opposite node are too.
func TestRandomShortestChiSquare(t *testing.T) {
	mesh, err := instances.Mesh(3, 4)
	require.NoError(t, err)
	u := stattest.UniformChiSquare(counts(t, draw(t, mesh, instances.RandomShortest, "0,0", "2,3", 5000, 1), 10))
	require.Greater(t, u.P, level, "mesh: %v", u)
	torus, err := instances.Torus(4, 4)
	require.NoError(t, err)
	u = stattest.UniformChiSquare(counts(t, draw(t, torus, instances.RandomShortest, "0,0", "2,0", 2000, 2), 2))
	require.Greater(t, u.P, level, "torus tie: %v", u)
}

// One-bend paths: row first or column first, each with probability 1/2.
func TestOneBendUniform(t *testing.T) {
	mesh, err := instances.Mesh(4, 4)
	require.NoError(t, err)
	u := stattest.UniformChiSquare(counts(t, draw(t, mesh, instances.OneBend, "0,0", "3,3", 2000, 3), 2))
	require.Greater(t, u.P, level, "%v", u)
}

// The fat-tree's random up-links: from processor 0 to processor 63 of the 64-leaf
// butterfly fat-tree a message climbs to the top (level 3), choosing one of two
// up-links at levels 1 and 2: the 4 paths are equally likely.
func TestFatTreeUpLinksUniform(t *testing.T) {
	ft, err := instances.FatTree(64)
	require.NoError(t, err)
	u := stattest.UniformChiSquare(counts(t, draw(t, ft, instances.RandomShortest, "0,0", "0,63", 4000, 4), 4))
	require.Greater(t, u.P, level, "%v", u)
}
