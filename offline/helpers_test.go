package offline

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"pgregory.net/rapid"
)

// lengths draws the message lengths of a test instance: all equal (the paper's
// setting) or, when mixed is drawn, each in 1..lmax.
func lengths(t *rapid.T, n int) []int {
	lmax := rapid.IntRange(1, 4).Draw(t, "L")
	mixed := rapid.Bool().Draw(t, "mixed")
	ls := make([]int, n)
	for i := range ls {
		ls[i] = lmax
		if mixed {
			ls[i] = rapid.IntRange(1, lmax).Draw(t, "Li")
		}
	}
	return ls
}

// onTopology routes n random (source, destination) pairs on t with its default
// routing and gives them the lengths ls.
func onTopology(t *rapid.T, top *instances.Topology, r *rand.Rand, n int) *model.Instance {
	in := &model.Instance{Name: "test", Net: top.Net, Flits: 1}
	ls := lengths(t, n)
	nodes := len(top.Net.Nodes)
	for i := range n {
		src := r.IntN(nodes)
		dst := r.IntN(nodes - 1)
		if dst >= src {
			dst++
		}
		p, err := top.Path(src, dst, "", r)
		if err != nil {
			t.Fatalf("route %d -> %d: %v", src, dst, err)
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: p, L: ls[i]})
	}
	return in
}

// orderInstance draws an order (tree, mesh or any) and an instance it fits:
// a tree, a mesh of 1 to 3 dimensions with paths of every class, or a graph.
func orderInstance(t *rapid.T) (*model.Instance, string) {
	order := rapid.SampledFrom([]string{OrderTree, OrderMesh, OrderAny}).Draw(t, "order")
	switch order {
	case OrderTree:
		return treeInstance(t), order
	case OrderMesh:
		return meshInstance(t, rapid.IntRange(1, 3).Draw(t, "k")), order
	}
	return graphInstance(t), order
}

// treeInstance draws a random recursive tree with random paths.
func treeInstance(t *rapid.T) *model.Instance {
	r := instances.Rand(rapid.Uint64().Draw(t, "seed"))
	top, err := instances.RandomTree(rapid.IntRange(2, 40).Draw(t, "nodes"), r)
	if err != nil {
		t.Fatal(err)
	}
	return onTopology(t, top, r, rapid.IntRange(1, 60).Draw(t, "messages"))
}

// meshInstance draws a k-dimensional mesh with paths of every class of section
// 4.4: a random order and orientation of the dimensions, a random straight segment
// in each (length 0 skips the dimension), never leaving the mesh.
func meshInstance(t *rapid.T, k int) *model.Instance {
	sides := make([]int, k)
	for j := range sides {
		sides[j] = rapid.IntRange(2, 5).Draw(t, "side")
	}
	top, err := instances.Mesh(sides...)
	if err != nil {
		t.Fatal(err)
	}
	net := top.Net
	coords, _, err := MeshCoords(net)
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for u, c := range coords {
		at[fmt.Sprint(c)] = u
	}
	r := instances.Rand(rapid.Uint64().Draw(t, "seed"))
	n := rapid.IntRange(1, 60).Draw(t, "messages")
	ls := lengths(t, n)
	in := &model.Instance{Name: "mesh", Net: net, Flits: 1}
	for len(in.Messages) < n {
		cur := append([]int(nil), coords[r.IntN(len(coords))]...)
		var path []int
		for _, dim := range r.Perm(k) {
			sign := 1 - 2*r.IntN(2)
			room := sides[dim] - 1 - cur[dim]
			if sign < 0 {
				room = cur[dim]
			}
			for range r.IntN(room + 1) {
				u := at[fmt.Sprint(cur)]
				cur[dim] += sign
				v := at[fmt.Sprint(cur)]
				path = append(path, net.EdgesBetween(u, v)[0])
			}
		}
		if len(path) == 0 {
			continue
		}
		i := len(in.Messages)
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: ls[i]})
	}
	return in
}

// graphInstance draws a random directed graph (parallel edges and cycles allowed)
// with random paths that never reuse an edge.
func graphInstance(t *rapid.T) *model.Instance {
	r := instances.Rand(rapid.Uint64().Draw(t, "seed"))
	nodes := rapid.IntRange(2, 12).Draw(t, "nodes")
	net := &model.Network{}
	for u := range nodes {
		net.AddNode(fmt.Sprint(u))
	}
	for range rapid.IntRange(nodes, 4*nodes).Draw(t, "edges") {
		u, v := r.IntN(nodes), r.IntN(nodes-1)
		if v >= u {
			v++
		}
		net.AddEdge(u, v)
	}
	n := rapid.IntRange(1, 40).Draw(t, "messages")
	ls := lengths(t, n)
	in := &model.Instance{Name: "graph", Net: net, Flits: 1}
	for i := 0; len(in.Messages) < n && i < 10*n; i++ {
		u := r.IntN(nodes)
		used := map[int]bool{}
		var path []int
		for range 1 + r.IntN(8) {
			out := net.Out(u)
			var free []int
			for _, e := range out {
				if !used[e] {
					free = append(free, e)
				}
			}
			if len(free) == 0 {
				break
			}
			e := free[r.IntN(len(free))]
			used[e] = true
			path = append(path, e)
			u = net.Edges[e].To
		}
		if len(path) == 0 {
			continue
		}
		j := len(in.Messages)
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", j), Path: path, L: ls[j]})
	}
	if len(in.Messages) == 0 {
		t.Skip("no edge leaves the drawn nodes")
	}
	return in
}

// windowBound is Lemma 6's count for one message q, with section 4.5's contiguous
// colours and messages of different lengths: every earlier message p met on an
// entrance edge e of q forbids at most L_p + L_q - 1 starts of q, so q's start is at
// most the sum over e in entrance(q) and p != q on e of (L_p + L_q - 1).
// Only messages p with same(p) count (the messages of q's part).
func windowBound(in *model.Instance, users [][]model.Use, entr []int, q int, same func(p int) bool) int {
	sum := 0
	for _, e := range entr {
		for _, u := range users[e] {
			if u.Msg != q && same(u.Msg) {
				sum += in.Messages[u.Msg].L + in.Messages[q].L - 1
			}
		}
	}
	return sum
}

// makespan returns the largest delivery time s_i + d_i + L_i - 1.
func makespan(in *model.Instance, starts []int) int {
	return makespanPaths(model.PathsOf(in), starts)
}
