package instances

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// topologies is the shared table of named small networks the tests run on.
func topologies(t *testing.T, seed uint64) map[string]*Topology {
	r := Rand(seed)
	must := func(tp *Topology, err error) *Topology { require.NoError(t, err); return tp }
	return map[string]*Topology{
		"line":      must(Line(7)),
		"mesh4x4":   must(Mesh(4, 4)),
		"mesh3x2x2": must(Mesh(3, 2, 2)),
		"mesh1x5":   must(Mesh(1, 5)),
		"torus5x4":  must(Torus(5, 4)),
		"torus2x3":  must(Torus(2, 3)),
		"ring6":     must(Torus(6)),
		"tree":      must(RandomTree(12, r)),
		"kary":      must(KaryTree(3, 2)),
		"butterfly": must(Butterfly(8)),
		"fat16":     must(FatTree(16)),
		"fat64":     must(FatTree(64)),
		"levelled":  must(Levelled(4, 5, 2, r)),
	}
}

// bfs returns the directed hop distance from src to every node (-1: unreachable).
func bfs(net *model.Network, src int) []int {
	dist := make([]int, len(net.Nodes))
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []int{src}
	for q := 0; q < len(queue); q++ {
		u := queue[q]
		for _, e := range net.Out(u) {
			if v := net.Edges[e].To; dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return dist
}

// Every routing of every topology returns a shortest path: dimension order, one bend
// and random shortest paths on meshes and tori are monotone, tree and butterfly
// paths are unique, a fat-tree path climbs to a least common ancestor only, and all
// paths of a levelled network between two nodes have the same length.
func TestPathsAreShortestWalks(t *testing.T) {
	for name, tp := range topologies(t, 1) {
		t.Run(name, func(t *testing.T) {
			r := Rand(7)
			for _, routing := range tp.Routings {
				for _, s := range tp.Sources {
					dist := bfs(tp.Net, s)
					for _, d := range tp.Dests {
						if s == d || dist[d] < 0 {
							continue
						}
						p, err := tp.Path(s, d, routing, r)
						require.NoError(t, err, "%s %s->%s", routing, tp.Net.Nodes[s], tp.Net.Nodes[d])
						require.Len(t, p, dist[d], "%s %s->%s", routing, tp.Net.Nodes[s], tp.Net.Nodes[d])
						in := &model.Instance{Net: tp.Net, Flits: 1, Messages: []model.Message{{ID: "m", Path: p, L: 1}}}
						require.NoError(t, in.Validate())
						assert.Equal(t, s, tp.Net.Edges[p[0]].From)
						assert.Equal(t, d, tp.Net.Edges[p[len(p)-1]].To)
					}
				}
			}
			_, err := tp.Path(tp.Sources[0], tp.Sources[0], "", r)
			assert.Error(t, err, "a path from a node to itself would be empty")
		})
	}
}

// The fat-tree addressing of seed 000, section B.1: every switch has 4 children,
// every switch below the top level 2 parents, the top level has 2^(h-1) switches,
// and switch (l, a) reaches down to exactly the 4^l processors of block
// floor(a / 2^(l-1)).
func TestFatTreeAddressing(t *testing.T) {
	for _, n := range []int{4, 16, 64, 256} {
		tp, err := FatTree(n)
		require.NoError(t, err)
		net := tp.Net
		cs, ok, err := net.Coords()
		require.NoError(t, err)
		require.True(t, ok)
		h := 0
		for p := 1; p < n; p *= 4 {
			h++
		}
		top := 0
		for u := range net.Nodes {
			l, a := cs[u][0], cs[u][1]
			var up, down int
			for _, e := range net.Out(u) {
				if cs[net.Edges[e].To][0] > l {
					up++
				} else {
					require.Equal(t, l-1, cs[net.Edges[e].To][0], "links join adjacent levels")
					down++
				}
			}
			switch {
			case l == 0:
				assert.Equal(t, 1, up, "processor %d", a)
			case l == h:
				top++
				assert.Equal(t, 0, up)
			default:
				assert.Equal(t, 2, up, "switch %s", net.Nodes[u])
			}
			if l > 0 {
				assert.Equal(t, 4, down, "switch %s", net.Nodes[u])
				// Processors below u, by a downward search.
				var procs []int
				stack := []int{u}
				seen := map[int]bool{u: true}
				for len(stack) > 0 {
					v := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					if cs[v][0] == 0 {
						procs = append(procs, cs[v][1])
					}
					for _, e := range net.Out(v) {
						w := net.Edges[e].To
						if cs[w][0] < cs[v][0] && !seen[w] {
							seen[w] = true
							stack = append(stack, w)
						}
					}
				}
				size := pow4(l)
				block := a >> (l - 1)
				require.Len(t, procs, size, "switch %s", net.Nodes[u])
				for _, p := range procs {
					assert.Equal(t, block, p/size, "switch %s reaches processor %d", net.Nodes[u], p)
				}
			}
		}
		assert.Equal(t, 1<<(h-1), top, "n=%d", n)
	}
}

// STYLE.md, deterministic generators (randomness passed in as a seed): the same spec
// gives the same bytes, bit for bit.
func TestGenerateDeterministic(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := drawSpec(rt)
		a, errA := Generate(s)
		b, errB := Generate(s)
		require.Equal(rt, errA, errB)
		if errA != nil {
			return
		}
		var ja, jb bytes.Buffer
		require.NoError(rt, model.WriteInstance(&ja, a))
		require.NoError(rt, model.WriteInstance(&jb, b))
		require.Equal(rt, ja.String(), jb.String())
		// "traffic" accounts for every pair drawn: routed or skipped for equal ends.
		var info struct{ Pairs, Skipped int }
		require.NoError(rt, json.Unmarshal(a.Extra["traffic"], &info))
		require.Equal(rt, info.Pairs, len(a.Messages)+info.Skipped)
		require.NoError(rt, a.Validate())
	})
}

// drawSpec draws a small spec of any kind, traffic and routing; some are invalid
// combinations (Generate must then fail cleanly).
func drawSpec(t *rapid.T) Spec {
	s := Spec{
		Kind:    rapid.SampledFrom(Kinds).Draw(t, "kind"),
		Traffic: rapid.SampledFrom(Patterns).Draw(t, "traffic"),
		Routing: rapid.SampledFrom([]string{"", DimensionOrder, OneBend, RandomShortest, Deterministic, Unique}).Draw(t, "routing"),
		Seed:    rapid.Uint64().Draw(t, "seed"),
		Flits:   rapid.IntRange(0, 4).Draw(t, "flits"),
		Radius:  rapid.IntRange(1, 3).Draw(t, "radius"),
		Hotspot: rapid.Float64Range(0, 1).Draw(t, "hotspot"),
	}
	switch s.Kind {
	case "mesh", "torus":
		s.Sides = rapid.SliceOfN(rapid.IntRange(1, 5), 1, 3).Draw(t, "sides")
	case "butterfly":
		s.Size = 1 << rapid.IntRange(1, 4).Draw(t, "logN")
	case "fat-tree":
		s.Size = 1 << (2 * rapid.IntRange(1, 3).Draw(t, "log4N"))
	case "kary-tree":
		s.K = rapid.IntRange(1, 3).Draw(t, "k")
		s.Depth = rapid.IntRange(1, 3).Draw(t, "depth")
	case "levelled":
		s.Size = rapid.IntRange(1, 6).Draw(t, "width")
		s.Depth = rapid.IntRange(2, 5).Draw(t, "levels")
		s.K = rapid.IntRange(1, 3).Draw(t, "degree")
	default:
		s.Size = rapid.IntRange(2, 16).Draw(t, "size")
	}
	if s.Traffic != Light && s.Traffic != Heavy {
		s.Messages = rapid.IntRange(0, 40).Draw(t, "messages")
	}
	return s
}
