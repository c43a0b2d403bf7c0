package model_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

// genExtra draws a small map of extra JSON fields whose names avoid the known ones.
func genExtra(t *rapid.T, label string) model.Extra {
	n := rapid.IntRange(0, 2).Draw(t, label+"#")
	if n == 0 {
		return nil
	}
	x := model.Extra{}
	for i := range n {
		key := rapid.SampledFrom([]string{"levels", "coords", "topology", "note", "x_y", "weight"}).Draw(t, fmt.Sprintf("%s.key%d", label, i))
		var v any
		switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("%s.kind%d", label, i)) {
		case 0:
			v = rapid.IntRange(-5, 5).Draw(t, fmt.Sprintf("%s.int%d", label, i))
		case 1:
			v = rapid.StringMatching(`[a-z ,"]{0,6}`).Draw(t, fmt.Sprintf("%s.str%d", label, i))
		case 2:
			v = rapid.SliceOfN(rapid.IntRange(0, 3), 0, 3).Draw(t, fmt.Sprintf("%s.list%d", label, i))
		default:
			v = map[string]any{"kind": "mesh", "sides": []int{2, 3}}
		}
		data, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		x[key] = data
	}
	return x
}

// genMultigraph draws a small directed multigraph: parallel edges and self-loops
// allowed (MODEL.md allows parallel edges; nothing forbids a loop).
func genMultigraph(t *rapid.T) *model.Network {
	net := &model.Network{}
	n := rapid.IntRange(1, 5).Draw(t, "nodes")
	for i := range n {
		net.AddNode(fmt.Sprintf("v%d", i))
	}
	m := rapid.IntRange(1, 9).Draw(t, "edges")
	for i := range m {
		a := rapid.IntRange(0, n-1).Draw(t, fmt.Sprintf("from%d", i))
		b := rapid.IntRange(0, n-1).Draw(t, fmt.Sprintf("to%d", i))
		if a == b && n > 1 && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("loop%d", i)) > 0 {
			b = (a + 1) % n
		}
		net.AddEdge(a, b)
	}
	return net
}

// genWalk draws a non-empty walk that uses no edge twice (a MODEL.md path).
func genWalk(t *rapid.T, net *model.Network, label string, maxLen int) []int {
	e := rapid.IntRange(0, len(net.Edges)-1).Draw(t, label+".first")
	path := []int{e}
	used := map[int]bool{e: true}
	want := rapid.IntRange(1, maxLen).Draw(t, label+".len")
	for len(path) < want {
		var next []int
		for _, f := range net.Out(net.Edges[path[len(path)-1]].To) {
			if !used[f] {
				next = append(next, f)
			}
		}
		if len(next) == 0 {
			break
		}
		f := next[rapid.IntRange(0, len(next)-1).Draw(t, fmt.Sprintf("%s.step%d", label, len(path)))]
		path = append(path, f)
		used[f] = true
	}
	return path
}

// genInstance draws a valid instance on a random multigraph with random walks,
// lengths, path forms and extra fields.
func genInstance(maxMsgs, maxLen, maxL int) *rapid.Generator[*model.Instance] {
	return rapid.Custom(func(t *rapid.T) *model.Instance {
		net := genMultigraph(t)
		net.Extra = genExtra(t, "netx")
		in := &model.Instance{
			Name:  rapid.StringMatching(`[a-z0-9-]{0,8}`).Draw(t, "name"),
			Net:   net,
			Flits: rapid.IntRange(1, maxL).Draw(t, "flits"),
			Extra: genExtra(t, "topx"),
		}
		k := rapid.IntRange(0, maxMsgs).Draw(t, "messages")
		for i := range k {
			label := fmt.Sprintf("m%d", i)
			m := model.Message{
				ID:      label,
				Path:    genWalk(t, net, label, maxLen),
				L:       in.Flits,
				AsEdges: rapid.Bool().Draw(t, label+".asEdges"),
				Extra:   genExtra(t, label+".x"),
			}
			if rapid.Bool().Draw(t, label+".ownL") {
				m.L = rapid.IntRange(1, maxL).Draw(t, label+".L")
			}
			in.Messages = append(in.Messages, m)
		}
		return in
	})
}

// genGenerated draws an instance from the generators of package instances: every
// kind, traffic pattern and routing, small sizes, any seed. Combinations a
// generator rejects are skipped.
func genGenerated() *rapid.Generator[*model.Instance] {
	return rapid.Custom(func(t *rapid.T) *model.Instance {
		s := instances.Spec{
			Kind:    rapid.SampledFrom(instances.Kinds).Draw(t, "kind"),
			Traffic: rapid.SampledFrom(instances.Patterns).Draw(t, "traffic"),
			Routing: rapid.SampledFrom([]string{"", instances.DimensionOrder, instances.OneBend, instances.RandomShortest, instances.Deterministic}).Draw(t, "routing"),
			Seed:    rapid.Uint64().Draw(t, "seed"),
			Flits:   rapid.IntRange(1, 3).Draw(t, "flits"),
			Radius:  rapid.IntRange(1, 2).Draw(t, "radius"),
			Hotspot: rapid.Float64Range(0, 1).Draw(t, "hotspot"),
		}
		switch s.Kind {
		case "mesh", "torus":
			s.Sides = rapid.SliceOfN(rapid.IntRange(1, 4), 1, 3).Draw(t, "sides")
		case "butterfly":
			s.Size = 1 << rapid.IntRange(1, 3).Draw(t, "logN")
		case "fat-tree":
			s.Size = 1 << (2 * rapid.IntRange(1, 2).Draw(t, "log4N"))
		case "kary-tree":
			s.K = rapid.IntRange(1, 3).Draw(t, "k")
			s.Depth = rapid.IntRange(1, 2).Draw(t, "depth")
		case "levelled":
			s.Size = rapid.IntRange(1, 4).Draw(t, "width")
			s.Depth = rapid.IntRange(2, 4).Draw(t, "levels")
			s.K = rapid.IntRange(1, 3).Draw(t, "degree")
		default:
			s.Size = rapid.IntRange(2, 10).Draw(t, "size")
		}
		if s.Traffic != instances.Light && s.Traffic != instances.Heavy {
			s.Messages = rapid.IntRange(0, 20).Draw(t, "count")
		}
		in, err := instances.Generate(s)
		if err != nil {
			var se *instances.SpecError
			if !errors.As(err, &se) && s.Traffic != instances.Local && s.Kind != "levelled" {
				t.Fatalf("generator failed without naming a parameter: %v", err)
			}
			t.Skip(err.Error())
		}
		return in
	})
}
