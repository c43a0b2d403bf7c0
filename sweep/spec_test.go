package sweep

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func parse(t *testing.T, s string) *Spec {
	t.Helper()
	spec, err := ParseSpec(strings.NewReader(s))
	require.NoError(t, err)
	return spec
}

func texts(vs []Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Text
	}
	return out
}

func TestParseSpec(t *testing.T) {
	s := parse(t, `{"command": "sim", "seed": 7, "replications": 2, "timeout": "5s",
		"params": {"topology": "torus:4x4", "flits": 8, "rotate": false},
		"axes": {"rate": {"from": 0.05, "to": 0.5, "step": 0.05}, "routing": ["dor", "duato"],
		         "n": {"from": 8, "to": 64, "factor": 2}, "k": {"from": 1, "to": 7, "step": 3}}}`)
	require.Equal(t, "sim", s.Command)
	require.Equal(t, uint64(7), s.Seed)
	require.Equal(t, 2, s.Replications)
	require.Equal(t, "5s", s.Timeout.String())
	require.Equal(t, Value{'s', "torus:4x4"}, s.Params["topology"])
	require.Equal(t, Value{'n', "8"}, s.Params["flits"])
	require.Equal(t, Value{'b', "false"}, s.Params["rotate"])
	require.Equal(t, []string{"0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5"}, texts(s.Axes["rate"]))
	require.Equal(t, []string{"dor", "duato"}, texts(s.Axes["routing"]))
	require.Equal(t, []string{"8", "16", "32", "64"}, texts(s.Axes["n"]))
	require.Equal(t, []string{"1", "4", "7"}, texts(s.Axes["k"]))
	require.Len(t, s.Points(), 10*2*4*3*2)
}

func TestParseSpecErrors(t *testing.T) {
	for _, c := range []struct{ in, err string }{
		{`[]`, "spec: not a JSON object: json: cannot unmarshal array into Go value of type map[string]json.RawMessage"},
		{`{"seed": 1}`, "spec: command: missing"},
		{`{"command": "sim", "sead": 1}`, "spec: sead: unknown field (want command, seed, replications, timeout, params, axes)"},
		{`{"command": "sim", "replications": 0}`, "spec: replications: want an integer >= 1"},
		{`{"command": "sim", "seed": -1}`, "spec: seed: want an unsigned integer"},
		{`{"command": "sim", "timeout": "soon"}`, `spec: timeout: "soon" is not a duration >= 0`},
		{`{"command": "sim", "axes": {"rate": []}}`, "spec: axes.rate: empty axis"},
		{`{"command": "sim", "axes": {"rate": [0.1, 0.10]}}`, "spec: axes.rate: value 1: 0.1 appears twice"},
		{`{"command": "sim", "axes": {"rate": {"from": 0.5, "to": 0.1, "step": 0.1}}}`, "spec: axes.rate: range: from 0.5 is above to 0.1"},
		{`{"command": "sim", "axes": {"rate": {"from": 0.1, "to": 0.5, "step": 0}}}`, "spec: axes.rate: range: step 0 is not positive"},
		{`{"command": "sim", "axes": {"rate": {"from": 0.1, "to": 0.5}}}`, "spec: axes.rate: range: want exactly one of step and factor"},
		{`{"command": "sim", "axes": {"rate": {"from": 0.1, "to": 0.5, "stp": 1}}}`, `spec: axes.rate: range: unknown field "stp" (want from, to, step or factor)`},
		{`{"command": "sim", "axes": {"rate": {"to": 0.5, "step": 1}}}`, "spec: axes.rate: range: want both from and to"},
		{`{"command": "sim", "axes": {"rate": "0.1"}}`, `spec: axes.rate: want a list of values or a range {"from", "to", "step" or "factor"}`},
		{`{"command": "sim", "axes": {"n": {"from": 0, "to": 8, "factor": 2}}}`, "spec: axes.n: range: a geometric range needs factor > 1 and from > 0"},
		{`{"command": "sim", "params": {"flits": [8]}}`, "spec: params.flits: want a string, number or boolean, got [8]"},
		{`{"command": "sim", "params": {"flits": null}}`, "spec: params.flits: null is not a parameter value"},
		{`{"command": "sim", "params": {"rate": 1}, "axes": {"rate": [1, 2]}}`, "spec: axes.rate: also fixed in params"},
		{`{"command": "sim", "axes": {"a": {"from": 0, "to": 1e5, "step": 1}, "b": {"from": 0, "to": 10, "step": 1}}}`, "spec: axes: 1100011 points, more than 1000000"},
	} {
		_, err := ParseSpec(strings.NewReader(c.in))
		require.EqualError(t, err, c.err, "spec %s", c.in)
		var se *SpecError
		require.ErrorAs(t, err, &se)
	}
}

// Keys and seeds depend on what a point means, not on how the spec is written.
func TestKeysStable(t *testing.T) {
	a := parse(t, `{"command": "sim", "seed": 3, "params": {"flits": 8}, "axes": {"rate": [0.1, 0.2], "routing": ["dor", "duato"]}}`)
	b := parse(t, `{"axes": {"routing": ["duato", "dor"], "rate": [0.20, 1e-1]}, "params": {"flits": 8.0}, "seed": 3, "command": "sim"}`)
	require.Equal(t, a.Hash() != "", true)
	pa, pb := a.Points(), b.Points()
	require.Len(t, pa, 4)
	for i := range pa {
		require.Equal(t, pa[i].Key, pb[i].Key)
		require.Equal(t, pa[i].Seed, pb[i].Seed)
		require.Equal(t, pa[i].Params, pb[i].Params)
	}
	seen := map[string]bool{}
	seeds := map[uint64]bool{}
	for _, p := range parse(t, `{"command": "x", "replications": 5, "axes": {"a": {"from": 1, "to": 100, "step": 1}}}`).Points() {
		require.False(t, seen[p.Key])
		require.False(t, seeds[p.Seed])
		require.Less(t, p.Seed, uint64(1)<<63)
		seen[p.Key], seeds[p.Seed] = true, true
	}
	require.Len(t, seen, 500)
	// Another spec seed: same keys, other seeds.
	c := parse(t, `{"command": "sim", "seed": 4, "params": {"flits": 8}, "axes": {"rate": [0.1, 0.2], "routing": ["dor", "duato"]}}`)
	require.NotEqual(t, a.Hash(), c.Hash())
	for i, p := range c.Points() {
		require.Equal(t, pa[i].Key, p.Key)
		require.NotEqual(t, pa[i].Seed, p.Seed)
	}
}

func TestParseShard(t *testing.T) {
	s, err := ParseShard("2/4")
	require.NoError(t, err)
	require.Equal(t, Shard{2, 4}, s)
	for in, msg := range map[string]string{
		"3/2":  "--shard 3/2: I must be in 0..1",
		"0/0":  "--shard 0/0: N must be at least 1",
		"-1/2": "--shard -1/2: I must be in 0..1",
		"1":    `--shard "1": want I/N, e.g. 0/4`,
		"a/b":  `--shard "a/b": want I/N, e.g. 0/4`,
	} {
		_, err := ParseShard(in)
		require.EqualError(t, err, msg)
	}
}

func TestCases(t *testing.T) {
	s := parse(t, `{"command": "run", "params": {"gen.seed": 1}, "axes": {"algo": ["greedy", "store"],
		"problem": [{"name": "bf64", "gen.kind": "butterfly", "gen.size": 64},
		            {"name": "mesh12", "gen.kind": "mesh", "gen.sides": "12x12", "gen.messages": 288}]}}`)
	require.Equal(t, []Name{{"algo", "axes.algo"}, {"gen.kind", "axes.problem[0].gen.kind"}, {"gen.messages", "axes.problem[1].gen.messages"},
		{"gen.seed", "params.gen.seed"}, {"gen.sides", "axes.problem[1].gen.sides"}, {"gen.size", "axes.problem[0].gen.size"}}, s.Names())
	pts := s.Points()
	require.Len(t, pts, 4)
	for _, p := range pts {
		label := p.Params["problem"]
		require.True(t, label.Label())
		switch label.Text {
		case "bf64":
			require.Equal(t, "butterfly", p.Params["gen.kind"].Text)
			require.NotContains(t, p.Params, "gen.sides")
		case "mesh12":
			require.Equal(t, "12x12", p.Params["gen.sides"].Text)
			require.NotContains(t, p.Params, "gen.size")
		default:
			t.Fatalf("label %q", label.Text)
		}
		require.Equal(t, "1", p.Params["gen.seed"].Text)
		line, err := Record{Key: p.Key, Params: p.Params}.Line()
		require.NoError(t, err)
		require.Contains(t, string(line), `"problem":"`+label.Text+`"`)
	}
	for _, c := range []struct{ in, err string }{
		{`{"command": "x", "axes": {"p": [{"gen.kind": "mesh"}]}}`, `spec: axes.p: value 0: a case needs a "name" string`},
		{`{"command": "x", "axes": {"p": [{"name": "a"}, {"name": "a"}]}}`, `spec: axes.p: value 1: case "a" appears twice`},
		{`{"command": "x", "axes": {"p": [{"name": "a"}, 3]}}`, `spec: axes.p: value 1: want an object (a case) like the first`},
		{`{"command": "x", "params": {"k": 1}, "axes": {"p": [{"name": "a", "k": 2}]}}`, `spec: axes.p[0].k: also fixed in params`},
		{`{"command": "x", "axes": {"k": [1], "p": [{"name": "a", "k": 2}]}}`, `spec: axes.p[0].k: also an axis`},
		{`{"command": "x", "axes": {"q": [{"name": "b", "k": 1}], "p": [{"name": "a", "k": 2}]}}`, `spec: axes.p[0].k: also set by case axis "q"`},
		{`{"command": "x", "axes": {"p": [{"name": "a", "k": [2]}]}}`, `spec: axes.p: case "a": k: want a string, number or boolean, got [2]`},
	} {
		_, err := ParseSpec(strings.NewReader(c.in))
		require.EqualError(t, err, c.err, "spec %s", c.in)
	}
}
