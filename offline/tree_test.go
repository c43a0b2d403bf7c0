package offline

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// line builds the bidirected line a - b - c.
func line(t *testing.T) *model.Network {
	net := &model.Network{}
	a, b, c := net.AddNode("a"), net.AddNode("b"), net.AddNode("c")
	net.AddLink(a, b)
	net.AddLink(b, c)
	return net
}

func TestIsTree(t *testing.T) {
	net := line(t)
	assert.True(t, IsTree(net))
	a, _ := net.Node("a")
	c, _ := net.Node("c")
	net.AddEdge(c, a) // closes a cycle a -> b -> c -> a
	assert.False(t, IsTree(net))

	par := line(t)
	a, _ = par.Node("a")
	b, _ := par.Node("b")
	par.AddEdge(a, b) // a second a -> b edge
	assert.False(t, IsTree(par))

	loop := line(t)
	loop.AddEdge(a, a)
	assert.False(t, IsTree(loop))
}

// IsTree's definition, checked against a count: a network with no self-loop and
// no repeated (from, to) pair is a forest exactly when its links (unordered
// pairs of adjacent nodes) number its nodes less its components, which a search
// over the links finds.
func TestIsTreeCountsLinks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 7).Draw(t, "nodes")
		net := &model.Network{}
		for i := range n {
			net.AddNode(string(rune('a' + i)))
		}
		for range rapid.IntRange(0, 12).Draw(t, "edges") {
			net.AddEdge(rapid.IntRange(0, n-1).Draw(t, "from"), rapid.IntRange(0, n-1).Draw(t, "to"))
		}
		want := true
		pairs := map[[2]int]bool{}
		links := map[[2]int]bool{}
		adj := make([][]int, n)
		for _, ed := range net.Edges {
			if ed.From == ed.To || pairs[[2]int{ed.From, ed.To}] {
				want = false
			}
			pairs[[2]int{ed.From, ed.To}] = true
			links[[2]int{min(ed.From, ed.To), max(ed.From, ed.To)}] = true
			adj[ed.From] = append(adj[ed.From], ed.To)
			adj[ed.To] = append(adj[ed.To], ed.From)
		}
		comps := 0
		seen := make([]bool, n)
		for s := range n {
			if seen[s] {
				continue
			}
			comps++
			seen[s] = true
			for stack := []int{s}; len(stack) > 0; {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, v := range adj[u] {
					if !seen[v] {
						seen[v] = true
						stack = append(stack, v)
					}
				}
			}
		}
		if want && len(links) != n-comps {
			want = false
		}
		if got := IsTree(net); got != want {
			t.Fatalf("IsTree %v, want %v (%d links, %d nodes, %d components)", got, want, len(links), n, comps)
		}
	})
}

// Section 4.3 assumes simple paths; a walk turning back is named, and auto falls
// back to the generic order.
func TestTreeRejectsTurningBack(t *testing.T) {
	net := line(t)
	p, err := net.PathFromNodes([]string{"a", "b", "a"})
	require.NoError(t, err)
	q, err := net.PathFromNodes([]string{"a", "b", "c"})
	require.NoError(t, err)
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		{ID: "ok", Path: q, L: 1}, {ID: "back", Path: p, L: 1},
	}}
	_, err = Color(in, Options{Order: OrderTree})
	require.ErrorContains(t, err, `tree order: message "back" visits node "a" twice`)
	res, err := Color(in, Options{})
	require.NoError(t, err)
	assert.Equal(t, OrderAny, res.Order)
}

// The root: given by name, or the node most paths visit; the entrance edges are
// the path's edges at its highest point.
func TestTreeRootAndEntrances(t *testing.T) {
	net := line(t)
	path := func(names ...string) []int {
		p, err := net.PathFromNodes(names)
		require.NoError(t, err)
		return p
	}
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		{ID: "ac", Path: path("a", "b", "c"), L: 1},
		{ID: "cb", Path: path("c", "b"), L: 1},
		{ID: "bc", Path: path("b", "c"), L: 1},
	}}
	plan, err := TreePlan(in, "")
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, plan.Roots, "b is visited by all three paths")
	assert.Equal(t, [][]int{path("a", "b", "c"), path("c", "b"), path("b", "c")}, plan.Entrances())
	assert.Equal(t, [][]int{{0, 1, 2}}, plan.Parts)

	plan, err = TreePlan(in, "a")
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, plan.Roots)
	assert.Equal(t, []int{path("a", "b")[0]}, plan.Entrance(0), "ac starts at the root")
	assert.Equal(t, []int{path("c", "b")[0]}, plan.Entrance(1), "cb climbs to b")
	assert.Equal(t, [][]int{{0, 1, 2}}, plan.Parts, "ac (highest point a), then cb and bc (both at b, equally long: by index)")

	_, err = TreePlan(in, "z")
	require.ErrorContains(t, err, `root "z": no such node`)

	// A root asks for the tree order: auto takes it, mesh and any refuse it
	// rather than colour in their order with the root ignored.
	plan, err = Choose(in, OrderAuto, "a")
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, plan.Roots)
	for _, order := range []string{OrderMesh, OrderAny} {
		_, err = Choose(in, order, "a")
		require.ErrorContains(t, err, "the "+order+" order has no root")
		_, err = Color(in, Options{Order: order, Root: "a"})
		require.ErrorContains(t, err, "the "+order+" order has no root")
	}
}

// Compact takes only legal schedules: a conflict or a negative start is named.
func TestCompactRejectsIllegal(t *testing.T) {
	net := line(t)
	p, err := net.PathFromNodes([]string{"a", "b", "c"})
	require.NoError(t, err)
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		{ID: "x", Path: p, L: 2}, {ID: "y", Path: p, L: 2},
	}}
	_, err = Compact(in, []int{0, 1})
	require.ErrorContains(t, err, `message "y" conflicts`, "y would enter a->b while x's tail is on it")
	_, err = Compact(in, []int{0, -1})
	require.ErrorContains(t, err, `message "y": start -1 is negative`)
	_, err = Compact(in, []int{0})
	require.ErrorContains(t, err, "1 starts for 2 messages")
	got, err := Compact(in, []int{5, 0})
	require.NoError(t, err)
	assert.Equal(t, []int{2, 0}, got, "x moves up to follow y's tail")
}

// Lemma (the packed sort and the counting sort are the tree order): sorting the
// words high<<48 | (2^16-1-d)<<32 | i, and counting the messages in index order
// into buckets of (high, -d), both give the order of comparing depth, then length
// descending, then index, whenever depths and lengths are below 2^16. A depth of
// 1500 makes the buckets outnumber the messages, so that treeOrder packs; without
// it, it counts.
func TestTreeOrderPackedIsCompared(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 60).Draw(t, "messages")
		ps := &model.Paths{Off: []int{0}}
		high := make([]int, n)
		for i := range n {
			d := rapid.IntRange(1, 5).Draw(t, "d")
			ps.Hops = append(ps.Hops, make([]int32, d)...)
			ps.Off = append(ps.Off, len(ps.Hops))
			ps.L = append(ps.L, 1)
			high[i] = rapid.SampledFrom([]int{0, 1, 2, 3, 1500}).Draw(t, "high")
		}
		want := treeOrderCompared(ps, high)
		require.Equal(t, want, treeOrder(ps, high))
		order, counted := treeOrderCounted(ps, high)
		require.Equal(t, !slices.Contains(high, 1500), counted, "the counting sort is taken exactly when no depth is 1500")
		if counted {
			require.Equal(t, want, order)
		}
	})
}

// Lemma (the packed sort falls back beyond 16 bits): with depths and lengths at
// 2^16-1 (the largest packed), 2^16 and above (compared field by field), mixed
// with small ones, treeOrder is the order of the comparison. A packing without
// the fallback wraps a depth of 2^16 to 0 and a length of 2^16 into the depth's
// bits: both change the order.
func TestTreeOrderPackedBoundary(t *testing.T) {
	const w = 1 << 16
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "messages")
		ps := &model.Paths{Off: []int{0}}
		high := make([]int, n)
		for i := range n {
			d := rapid.SampledFrom([]int{1, 2, w - 1, w, w + 1}).Draw(t, "d")
			ps.Hops = append(ps.Hops, make([]int32, d)...)
			ps.Off = append(ps.Off, len(ps.Hops))
			ps.L = append(ps.L, 1)
			high[i] = rapid.SampledFrom([]int{0, 1, w - 1, w, w + 1, 3 * w}).Draw(t, "high")
		}
		require.Equal(t, treeOrderCompared(ps, high), treeOrder(ps, high))
	})
}

// Lemma (byHighestPoint keeps every start): the tree plan's order, treeOrder's
// regrouped by highest point, colours every message at the start treeOrder's
// own order gives it (paths of different highest points at one depth share no
// edge, so the regrouping keeps the order of the messages that meet). The
// treeOrder here is of highest points found from the plan's roots anew.
func TestByHighestPointKeepsStarts(t *testing.T) {
	regrouped := 0
	rapid.Check(t, func(t *rapid.T) {
		in := treeInstance(t)
		ps := model.PathsOf(in)
		p, err := treePlan(ps, "")
		require.NoError(t, err)
		net := ps.Net
		depth := make([]int, len(net.Nodes))
		for u := range depth {
			depth[u] = -1
		}
		for _, name := range p.Roots {
			r, _ := net.Node(name)
			depth[r] = 0
			for queue := []int{r}; len(queue) > 0; queue = queue[1:] {
				for _, ed := range net.Edges {
					for _, uv := range [][2]int{{ed.From, ed.To}, {ed.To, ed.From}} {
						if uv[0] == queue[0] && depth[uv[1]] < 0 {
							depth[uv[1]] = depth[uv[0]] + 1
							queue = append(queue, uv[1])
						}
					}
				}
			}
		}
		high := make([]int, ps.Len())
		for i := range high {
			high[i] = depth[net.Edges[ps.Path(i)[0]].From]
			for _, e := range ps.Path(i) {
				high[i] = min(high[i], depth[net.Edges[e].To])
			}
		}
		starts, _, err := p.colour(ps)
		require.NoError(t, err)
		starts = slices.Clone(starts)
		order := treeOrder(ps, high)
		if !slices.Equal(order, p.Parts[0]) {
			regrouped++
		}
		q := *p
		q.Parts, q.stages = [][]int{order}, nil // nil: in one goroutine (colourStaged's stages are the plan order's)
		want, _, err := q.colour(ps)
		require.NoError(t, err)
		require.Equal(t, want, starts, "treeOrder's order %v, the plan's %v", order, p.Parts[0])
	})
	require.Positive(t, regrouped, "byHighestPoint never changed the order")
}

// Lemma (a walk on a forest repeats a node first by turning back, and a node's
// visits are its starts and its in-edges' loads): on random trees with random
// walks, some of them turning back, treePlan refuses exactly the instances
// with a walk that visits a node twice, naming the first such message and the
// first node its walk visits again; and otherwise roots the tree at the node
// the most walks visit (each visit counted, the smallest index on a tie).
func TestTreePlanWalksAndVisits(t *testing.T) {
	refused, rooted := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		in := treeInstance(t)
		net := in.Net
		out := make([][]int, len(net.Nodes))
		for e, ed := range net.Edges {
			out[ed.From] = append(out[ed.From], e)
		}
		for i := range in.Messages {
			if !rapid.Bool().Draw(t, "walk") {
				continue
			}
			u := rapid.IntRange(0, len(net.Nodes)-1).Draw(t, "from")
			var path []int
			for range rapid.IntRange(1, 8).Draw(t, "hops") {
				e := out[u][rapid.IntRange(0, len(out[u])-1).Draw(t, "edge")]
				path = append(path, e)
				u = net.Edges[e].To
			}
			in.Messages[i].Path = path
		}
		// The first repeated node of the first message that has one, by a set
		// of the nodes seen; the visits of every node, one by one.
		twice, twiceAt := -1, -1
		visits := make([]int, len(net.Nodes))
		for i, m := range in.Messages {
			seen := map[int]bool{}
			nodes := []int{net.Edges[m.Path[0]].From}
			for _, e := range m.Path {
				nodes = append(nodes, net.Edges[e].To)
			}
			for _, v := range nodes {
				visits[v]++
				if seen[v] && twice < 0 {
					twice, twiceAt = i, v
				}
				seen[v] = true
			}
		}
		p, err := treePlan(model.PathsOf(in), "")
		if twice >= 0 {
			refused++
			require.EqualError(t, err, fmt.Sprintf("offline: tree order: message %q visits node %q twice", in.Messages[twice].ID, net.Nodes[twiceAt]))
			return
		}
		require.NoError(t, err)
		rooted++
		best := 0
		for u := range visits {
			if visits[u] > visits[best] {
				best = u
			}
		}
		require.Equal(t, []string{net.Nodes[best]}, p.Roots)
	})
	require.Positive(t, refused)
	require.Positive(t, rooted)
}

// Lemma (staged colouring): a tree path's edges off its entrance positions
// lie below its highest point, where only paths with deeper highest points
// search, so recording those spans on another goroutine, every one before
// the next depth's messages begin (colourStaged, in blocks of 1 to 7
// messages), gives every message the start of the colouring in one goroutine
// (colourPart), and the same last step; under the race detector, the two
// goroutines touch no edge at once.
func TestColourStagedAsInOne(t *testing.T) {
	staged := 0
	rapid.Check(t, func(t *rapid.T) {
		in := treeInstance(t)
		ps := model.PathsOf(in)
		p, err := treePlan(ps, "")
		require.NoError(t, err)
		require.NotEmpty(t, p.stages)
		horizon := p.partBounds(ps)[0]
		one := &Colorer{ps: ps, starts: make([]int, ps.Len())}
		one.planAll(p, horizon)
		wantEnd := one.colourPart(p, p.Parts[0])
		two := &Colorer{ps: ps, starts: make([]int, ps.Len())}
		two.planAll(p, horizon)
		block := rapid.IntRange(1, 7).Draw(t, "block")
		end := two.colourStaged(p, p.Parts[0], block)
		require.Equal(t, one.starts, two.starts, "starts")
		require.Equal(t, wantEnd, end, "last step")
		require.NoError(t, verify.Schedule(in, model.FromStarts(in, two.starts)), "the staged colouring must be a legal bufferless schedule")
		if len(p.stages) > 1 && len(p.Parts[0]) > block {
			staged++
		}
	})
	require.Positive(t, staged, "no draw of several stages and several blocks")
}
