package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/model"
)

// parse builds an instance from MODEL.md JSON.
func parse(t testing.TB, text string) *model.Instance {
	t.Helper()
	in, err := model.ParseInstance([]byte(text))
	require.NoError(t, err)
	return in
}

// genInstance draws a random directed network (cycles allowed) and random paths:
// walks that never reuse an edge, lengths 1..5 flits.
func genInstance(t *rapid.T, levelled bool) *model.Instance {
	nodes := rapid.IntRange(2, 7).Draw(t, "nodes")
	net := &model.Network{}
	for v := 0; v < nodes; v++ {
		net.AddNode(fmt.Sprintf("v%d", v))
	}
	nedges := rapid.IntRange(1, 14).Draw(t, "edges")
	for k := 0; k < nedges; k++ {
		a := rapid.IntRange(0, nodes-1).Draw(t, "from")
		b := rapid.IntRange(0, nodes-1).Draw(t, "to")
		if levelled {
			if a == b {
				continue
			}
			a, b = min(a, b), max(a, b)
			b = a + 1 // levels are node indices
		} else if a == b {
			b = (a + 1) % nodes
		}
		net.AddEdge(a, b)
	}
	if len(net.Edges) == 0 {
		net.AddEdge(0, 1)
	}
	in := &model.Instance{Name: "rapid", Net: net, Flits: 1}
	nmsg := rapid.IntRange(1, 8).Draw(t, "messages")
	for i := 0; i < nmsg; i++ {
		e := rapid.IntRange(0, len(net.Edges)-1).Draw(t, "first")
		path := []int{e}
		used := map[int]bool{e: true}
		want := rapid.IntRange(1, 6).Draw(t, "hops")
		for len(path) < want {
			var opts []int
			for _, f := range net.Out(net.Edges[path[len(path)-1]].To) {
				if !used[f] {
					opts = append(opts, f)
				}
			}
			if len(opts) == 0 {
				break
			}
			f := opts[rapid.IntRange(0, len(opts)-1).Draw(t, "next")]
			used[f] = true
			path = append(path, f)
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: rapid.IntRange(1, 5).Draw(t, "L"), AsEdges: true})
	}
	return in
}
