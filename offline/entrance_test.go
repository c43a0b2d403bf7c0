package offline

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// A path q = a b c d e met by p (edges 1 and 3 of q, with a detour between), r (edge
// 2) and s (edge 4): the smallest entrance set of q has 3 edges, and the shared
// edges of p and q are not contiguous, so the exact search is needed.
func TestMinEntrancesNonContiguous(t *testing.T) {
	net := &model.Network{}
	for _, n := range []string{"a", "b", "c", "d", "e", "y"} {
		net.AddNode(n)
	}
	path := func(names ...string) []int {
		for i := 0; i+1 < len(names); i++ {
			u, _ := net.Node(names[i])
			v, _ := net.Node(names[i+1])
			if len(net.EdgesBetween(u, v)) == 0 {
				net.AddEdge(u, v)
			}
		}
		p, err := net.PathFromNodes(names)
		require.NoError(t, err)
		return p
	}
	in := &model.Instance{Net: net, Flits: 1}
	add := func(id string, names ...string) {
		in.Messages = append(in.Messages, model.Message{ID: id, Path: path(names...), L: 1})
	}
	add("p", "a", "b", "y", "c", "d")
	add("r", "b", "c")
	add("s", "d", "e")
	add("q", "a", "b", "c", "d", "e")
	require.NoError(t, in.Validate())

	min, err := MinEntrances(in, [][]int{{0, 1, 2, 3}})
	require.NoError(t, err)
	assert.True(t, min.Exact)
	assert.Equal(t, 3, min.K)
	assert.Len(t, min.Sets[3], 3)
	k, err := CheckEntrances(in, [][]int{{0, 1, 2, 3}}, min.Sets)
	require.NoError(t, err)
	assert.Equal(t, 3, k)

	// Dropping q's last entrance edge leaves s unmet: the check names both.
	bad := append([][]int(nil), min.Sets...)
	bad[3] = bad[3][:2]
	_, err = CheckEntrances(in, [][]int{{0, 1, 2, 3}}, bad)
	require.ErrorContains(t, err, `message "s" comes before "q"`)

	// With q first nobody comes before it: its set is empty.
	min, err = MinEntrances(in, [][]int{{3, 0, 1, 2}})
	require.NoError(t, err)
	assert.Empty(t, min.Sets[3])
	assert.Equal(t, 1, min.K)
}

// MinEntrances' smallest hitting sets against brute force over all subsets of a
// path's positions (Definition 3: the smallest k for which the order is k-entrant).
func TestMinHittingSetBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := rapid.IntRange(1, 9).Draw(t, "d")
		var sets [][]int
		for range rapid.IntRange(0, 8).Draw(t, "sets") {
			var s []int
			for pos := range d {
				if rapid.Bool().Draw(t, "in") {
					s = append(s, pos)
				}
			}
			if len(s) > 0 {
				sets = append(sets, s)
			}
		}
		got, exact := minHittingSet(sets)
		require.True(t, exact)
		hits := func(pts []int) bool {
			for _, s := range sets {
				ok := false
				for _, p := range pts {
					for _, x := range s {
						ok = ok || x == p
					}
				}
				if !ok {
					return false
				}
			}
			return true
		}
		require.True(t, hits(got))
		best := d + 1
		for mask := 0; mask < 1<<d; mask++ {
			var pts []int
			for pos := range d {
				if mask&(1<<pos) != 0 {
					pts = append(pts, pos)
				}
			}
			if len(pts) < best && hits(pts) {
				best = len(pts)
			}
		}
		require.Equal(t, best, len(got))
	})
}
