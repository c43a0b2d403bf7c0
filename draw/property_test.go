package draw_test

import (
	"bytes"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/draw"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// genLine draws messages on a bidirected line with random crossing times, so that
// some schedules are legal and many are not.
func genLine(t *rapid.T) (*model.Instance, *model.Schedule) {
	net := &model.Network{}
	n := rapid.IntRange(2, 6).Draw(t, "nodes")
	right := make([]int, n-1)
	left := make([]int, n-1)
	for v := 0; v < n; v++ {
		net.AddNode(fmt.Sprintf("v%d", v))
	}
	for v := 0; v+1 < n; v++ {
		right[v], left[v] = net.AddLink(v, v+1)
	}
	in := &model.Instance{Name: "line", Net: net, Flits: 1}
	s := &model.Schedule{Model: model.Wormhole}
	for i := range rapid.IntRange(1, 8).Draw(t, "messages") {
		a := rapid.IntRange(0, n-1).Draw(t, "src")
		b := rapid.IntRange(0, n-2).Draw(t, "dst")
		if b >= a {
			b++
		}
		var path []int
		for v := a; v != b; {
			if v < b {
				path, v = append(path, right[v]), v+1
			} else {
				path, v = append(path, left[v-1]), v-1
			}
		}
		l := rapid.IntRange(1, 3).Draw(t, "L")
		in.Messages = append(in.Messages, model.Message{ID: "m" + strconv.Itoa(i), Path: path, L: l})
		cross := make([]int, len(path))
		tk := rapid.IntRange(0, 10).Draw(t, "start")
		for k := range cross {
			tk += 1 + rapid.IntRange(0, 2).Draw(t, "wait")
			cross[k] = tk
		}
		s.Messages = append(s.Messages, model.Times{ID: in.Messages[i].ID, Cross: cross})
		s.Makespan = max(s.Makespan, tk+l-1)
	}
	return in, s
}

// MODEL.md, "Legality": the diagram shows one bar per (message, path edge) holding,
// exactly the bars of conflicting holdings in red, and one red mark per conflict the
// verifier reports; the SVG is well-formed XML for every schedule.
func TestDiagramMatchesVerifier(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		in, s := genLine(rt)
		var b bytes.Buffer
		require.NoError(rt, draw.SVG(&b, in, s, draw.Options{}))
		els := parse(rt, b.Bytes())
		h := 0
		for i := range in.Messages {
			h += len(in.Messages[i].Path)
		}
		require.Len(rt, withClass(els, "bar"), h)
		redWant := map[[2]string]bool{}
		conflicts := 0
		for _, v := range verify.All(in, s) {
			if v.Rule == verify.RuleConflict {
				conflicts++
				redWant[[2]string{v.Msg, strconv.Itoa(v.Edge)}] = true
				redWant[[2]string{v.Other, strconv.Itoa(v.Edge)}] = true
			}
		}
		redGot := map[[2]string]bool{}
		for _, el := range withClass(els, "conflict") {
			redGot[[2]string{el.attr["data-msg"], el.attr["data-edge"]}] = true
			require.Equal(rt, "red", el.attr["stroke"])
		}
		require.Equal(rt, redWant, redGot)
		require.Len(rt, withClass(els, "mark"), conflicts)
	})
}
