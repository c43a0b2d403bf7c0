package measure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/model"
)

// drawInstance generates a small instance of any kind (fixture.Generated; invalid
// combinations are skipped).
func drawInstance(t *rapid.T) *model.Instance {
	return fixture.Generated(t, nil)
}

// The path graph degree Delta and component sizes (MODEL.md: one vertex per
// message, an edge between messages sharing a network edge) computed without
// building the graph equal those of model.PathGraph.
func TestPathGraphFiguresMatchModel(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawInstance(t)
		users := in.Users()
		g := in.PathGraph()
		wantDelta, _ := g.MaxDegree()
		delta, msg := MaxDegree(in, users)
		require.Equal(t, wantDelta, delta)
		if msg >= 0 {
			require.Len(t, g.Adj[msg], delta, "the witness attains Delta")
		}
		var want []int
		for _, c := range g.Components() {
			want = append(want, len(c))
		}
		got := ComponentSizes(in, users)
		if len(want) == 0 {
			require.Empty(t, got)
		} else {
			require.Equal(t, want, got)
		}
	})
}

// MODEL.md, network and messages and lower bounds: the report's figures (c, c_L, d,
// Delta) agree with model.Measure, the best bound is the largest of
// the listed ones, and the JSON form decodes back to the same report.
func TestStatsReport(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := drawInstance(t)
		r := Stats(in)
		ms := in.Measure()
		require.Equal(t, ms.C, r.C.Value)
		require.Equal(t, ms.CL, r.CL.Value)
		require.Equal(t, ms.D, r.D.Value)
		if r.C.Edge >= 0 {
			require.Equal(t, r.C.Value, ms.Load[r.C.Edge])
		}
		for _, b := range r.Bounds {
			require.LessOrEqual(t, b.Value, r.Best.Value)
		}
		require.Equal(t, in.LowerBound().Value, r.Best.Value)
		data, err := json.Marshal(r)
		require.NoError(t, err)
		var back Report
		require.NoError(t, json.Unmarshal(data, &back))
		require.Equal(t, *r, back)
	})
}

// A ring with every message going two hops round has a cyclic channel dependency
// graph (the classic wormhole deadlock, Dally and Seitz), a levelled butterfly an
// acyclic one.
func TestStatsDependencies(t *testing.T) {
	tp, err := instances.Torus(4)
	require.NoError(t, err)
	pairs := []instances.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}}
	ring, _, err := tp.Instance("ring", pairs, "", 1, nil)
	require.NoError(t, err)
	r := Stats(ring)
	assert.False(t, r.Deps.Acyclic)
	assert.Len(t, r.Deps.Cycle, 4)
	assert.False(t, r.Levelled)
	var b bytes.Buffer
	require.NoError(t, r.WriteText(&b))
	assert.Contains(t, b.String(), "a cycle of 4 edges")

	bf, err := instances.Generate(instances.Spec{Kind: "butterfly", Size: 8, Traffic: "heavy"})
	require.NoError(t, err)
	r = Stats(bf)
	assert.True(t, r.Deps.Acyclic)
	assert.True(t, r.Levelled)
	assert.Equal(t, 3, r.D.Value)
	assert.Equal(t, 24, r.Messages)
}

// EscapeControl escapes control characters and bytes that are not UTF-8, and
// leaves the rest, a backslash too, as it is (the text report's lines are
// escaped whole, their quoted message ids already escaped, as stats.go's line
// says): a newline and a backslash followed by n read the same, and a quoted id
// passes unchanged. The doc said "escaped as in Go strings" without this.
func TestEscapeControlLeavesBackslash(t *testing.T) {
	require.Equal(t, `b\nc`, EscapeControl("b\nc"))
	require.Equal(t, `b\nc`, EscapeControl(`b\nc`))
	require.Equal(t, `message "m\x1b0"`, EscapeControl(fmt.Sprintf("message %q", "m\x1b0")))
	require.Equal(t, `a\x1b[31m\xff\u0085 \ok`, EscapeControl("a\x1b[31m\xff\u0085 \\ok"))
}
