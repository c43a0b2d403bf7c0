package model_test

import (
	"encoding/json"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// bruteLoad counts, edge by edge and message by message, how many messages use
// edge e and how many flits cross it.
func bruteLoad(in *model.Instance, e int) (msgs, flits int) {
	for _, m := range in.Messages {
		for _, f := range m.Path {
			if f == e {
				msgs++
				flits += m.L
				break
			}
		}
	}
	return msgs, flits
}

// bruteShares reports whether the paths of messages a and b share a network edge.
func bruteShares(in *model.Instance, a, b int) bool {
	for _, e := range in.Messages[a].Path {
		for _, f := range in.Messages[b].Path {
			if e == f {
				return true
			}
		}
	}
	return false
}

// bruteDepCycle decides whether the channel dependency graph has a cycle by
// transitive closure (Warshall): some edge reaches itself.
func bruteDepCycle(in *model.Instance) bool {
	n := len(in.Net.Edges)
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
	}
	for _, m := range in.Messages {
		for k := 1; k < len(m.Path); k++ {
			reach[m.Path[k-1]][m.Path[k]] = true
		}
	}
	for k := range n {
		for i := range n {
			if !reach[i][k] {
				continue
			}
			for j := range n {
				if reach[k][j] {
					reach[i][j] = true
				}
			}
		}
	}
	for i := range n {
		if reach[i][i] {
			return true
		}
	}
	return false
}

// bruteLevelled tries every assignment of levels 0 .. n-1 to the n nodes (n <= 6)
// and reports whether one puts every edge from some level l to l+1.
func bruteLevelled(net *model.Network) bool {
	n := len(net.Nodes)
	lv := make([]int, n)
	var try func(i int) bool
	try = func(i int) bool {
		if i == n {
			for _, ed := range net.Edges {
				if lv[ed.To] != lv[ed.From]+1 {
					return false
				}
			}
			return true
		}
		for l := range n {
			lv[i] = l
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// checkMeasures recomputes every measure of MODEL.md by brute force and compares:
// c_e and its flit load, c = max c_e and c_L = max flit load (the witnesses attain
// them), d = max d_i (the witness attains it), the path graph (one vertex per
// message, an edge between messages whose paths share a network edge) and its
// Delta and components, the channel dependency graph (e -> f when a path crosses f
// right after e; the cycle returned is a real cycle, and one exists exactly when
// the closure says so), and levelling (levels returned put every edge from l to
// l+1).
func checkMeasures(t require.TestingT, in *model.Instance, small bool) {
	require.NoError(t, in.Validate())
	ms := in.Measure()
	c, cl, d := 0, 0, 0
	for e := range in.Net.Edges {
		msgs, flits := bruteLoad(in, e)
		require.Equal(t, msgs, ms.Load[e], "load of edge %d", e)
		require.Equal(t, flits, ms.FlitLoad[e], "flit load of edge %d", e)
		c, cl = max(c, msgs), max(cl, flits)
	}
	require.Equal(t, c, ms.C)
	require.Equal(t, cl, ms.CL)
	if c > 0 {
		require.Equal(t, c, ms.Load[ms.CEdge])
		require.Equal(t, cl, ms.FlitLoad[ms.CLEdge])
	}
	for _, m := range in.Messages {
		d = max(d, len(m.Path))
	}
	require.Equal(t, d, ms.D)
	if len(in.Messages) > 0 {
		require.Len(t, in.Messages[ms.DMsg].Path, d)
	}

	g := in.PathGraph()
	n := len(in.Messages)
	delta := 0
	for a := range n {
		var nb []int
		for b := range n {
			if a != b && bruteShares(in, a, b) {
				nb = append(nb, b)
			}
		}
		if len(g.Adj[a]) == 0 {
			require.Empty(t, nb, "neighbours of message %d", a)
		} else {
			require.Equal(t, nb, g.Adj[a], "neighbours of message %d", a)
		}
		delta = max(delta, len(nb))
	}
	gd, gm := g.MaxDegree()
	require.Equal(t, delta, gd)
	if n > 0 {
		require.Len(t, g.Adj[gm], delta)
	}
	// Components: same partition as the transitive closure of "shares an edge".
	comp := make([]int, n)
	for i := range comp {
		comp[i] = i
	}
	for changed := true; changed; {
		changed = false
		for a := range n {
			for b := range n {
				if bruteShares(in, a, b) && comp[a] != comp[b] {
					lo := min(comp[a], comp[b])
					comp[a], comp[b] = lo, lo
					changed = true
				}
			}
		}
	}
	comps := g.Components()
	total := 0
	for j, cc := range comps {
		total += len(cc)
		if j > 0 {
			require.GreaterOrEqual(t, len(comps[j-1]), len(cc), "largest first")
		}
		for _, v := range cc {
			require.Equal(t, comp[cc[0]], comp[v], "component %v", cc)
		}
	}
	require.Equal(t, n, total)
	distinct := map[int]bool{}
	for _, v := range comp {
		distinct[v] = true
	}
	require.Len(t, comps, len(distinct))

	deps := in.Dependencies()
	cyc := deps.Cycle()
	if small || len(in.Net.Edges) <= 300 {
		require.Equal(t, bruteDepCycle(in), cyc != nil, "dependency cycle exists")
	}
	if cyc != nil {
		arcs := map[[2]int]bool{}
		for _, m := range in.Messages {
			for k := 1; k < len(m.Path); k++ {
				arcs[[2]int{m.Path[k-1], m.Path[k]}] = true
			}
		}
		for k := range cyc {
			require.True(t, arcs[[2]int{cyc[k], cyc[(k+1)%len(cyc)]}], "cycle arc %d -> %d", cyc[k], cyc[(k+1)%len(cyc)])
		}
	}

	lv, ok := in.Net.Levelling()
	if ok {
		for _, ed := range in.Net.Edges {
			require.Equal(t, lv[ed.From]+1, lv[ed.To], "levelled edge")
		}
	}
	if given, has, err := in.Net.Levels(); has {
		// Given levels are checked, not recomputed.
		want := err == nil
		for _, ed := range in.Net.Edges {
			want = want && given[ed.To] == given[ed.From]+1
		}
		require.Equal(t, want, ok, "levelled by the given levels")
	} else if small && len(in.Net.Nodes) <= 6 {
		require.Equal(t, bruteLevelled(in.Net), ok, "levelled")
	}
}

// Every measure of a random instance on a random multigraph agrees with brute
// force (MODEL.md, network and messages; see checkMeasures).
func TestMeasuresBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkMeasures(t, genInstance(6, 5, 3).Draw(t, "instance"), true)
	})
}

// Every generated instance (all generators, traffic patterns, routings, many
// seeds) is valid (MODEL.md: non-empty walks using no edge twice, L >= 1, unique
// ids) and its measures agree with brute force. Butterflies and levelled networks
// are levelled; networks with links both ways never are (an edge and its reverse
// cannot both go up a level).
func TestGeneratedMeasures(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genGenerated().Draw(t, "instance")
		checkMeasures(t, in, false)
		var topo struct{ Kind string }
		require.NoError(t, json.Unmarshal(in.Extra["topology"], &topo))
		_, ok := in.Net.Levelling()
		switch topo.Kind {
		case "butterfly", "levelled":
			require.True(t, ok, "%s is levelled", topo.Kind)
		default:
			require.False(t, ok, "%s has links both ways", topo.Kind)
		}
	})
}

// Paths.Measure is Instance.Measure: on generated instances the compact form's
// loads, congestion, dilation, lengths and holdings are the instance's (both
// count a message's dilation, lengths and holdings through countMessage; the
// loads, each its own way: measureMessage over int hops, Paths.measure over
// int32 hops into its edge records).
func TestPathsMeasureIsInstanceMeasure(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(6, 6, 3).Draw(t, "instance")
		require.Equal(t, in.Measure(), model.PathsOf(in).Measure())
	})
}

// Paths.Measure summed on two cores (the second half of the hops into records
// of their own, added in) is Instance.Measure, and its edges' reaches are the
// ones summed on one core, on generated instances of a few hops (the split
// asked for from one hop on, two processors at least).
func TestPathsMeasureSplit(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 2 {
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(old)
	}
	split := 0
	rapid.Check(t, func(t *rapid.T) {
		in := genInstance(8, 6, 3).Draw(t, "instance")
		restore := model.SetMeasureSplitMin(1 << 30)
		one := model.PathsOf(in).Reaches()
		restore()
		defer model.SetMeasureSplitMin(1)()
		ps := model.PathsOf(in)
		require.Equal(t, in.Measure(), ps.Measure())
		require.Equal(t, one, ps.Reaches())
		hops := 0
		for i := range ps.Len() {
			hops += ps.D(i)
		}
		if hops > 1 && hops >= len(in.Net.Edges) { // measure splits the hops
			split++
		}
	})
	require.Positive(t, split, "no draw had as many hops as edges")
}
