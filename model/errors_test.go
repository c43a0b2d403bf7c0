package model_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// net3 is a network a -> b -> c with two parallel edges b -> c (edges 1 and 2) and
// an edge c -> a.
const net3 = `"network": {"nodes": ["a", "b", "c"], "edges": [["a","b"], ["b","c"], ["b","c"], ["c","a"]]}`

// Bad input (issue: invalid JSON, unknown node, hop with no edge or with parallel
// edges by names, edge index out of range, not a walk, edge used twice, empty path,
// length below 1, duplicate ids) is rejected with one error naming what is wrong:
// the field, the message id, the node, the hop or the edge.
func TestParseInstanceErrors(t *testing.T) {
	cases := []struct {
		name, json string
		want       []string // substrings the error must contain
	}{
		{"invalid JSON", `{"network": `, []string{"invalid JSON"}},
		{"not an object", `[1, 2]`, []string{"instance", "want an object"}},
		{"null", `null`, []string{"instance", "null"}},
		{"no network", `{"messages": []}`, []string{`missing field "network"`}},
		{"no messages", `{` + net3 + `}`, []string{`missing field "messages"`}},
		{"unknown node in path", `{` + net3 + `, "messages": [{"id": "m1", "path": ["a", "x"]}]}`,
			[]string{`message "m1"`, `unknown node "x"`}},
		{"unknown node in edge", `{"network": {"nodes": ["a"], "edges": [["a","z"]]}, "messages": []}`,
			[]string{"edge 0", `unknown node "z"`}},
		{"hop with no edge", `{` + net3 + `, "messages": [{"id": "m1", "path": ["a", "c"]}]}`,
			[]string{`message "m1"`, "hop a->c", "no such edge"}},
		{"hop with parallel edges", `{` + net3 + `, "messages": [{"id": "m2", "path": ["a", "b", "c"]}]}`,
			[]string{`message "m2"`, "hop b->c", "ambiguous", "2 parallel edges"}},
		{"edge index out of range", `{` + net3 + `, "messages": [{"id": "m3", "edges": [0, 4]}]}`,
			[]string{`message "m3"`, "edge index 4 out of range", "4 edges"}},
		{"lengths sum past MaxTotalFlits", `{` + net3 + `, "flits": 4611686018427387904, "messages": [{"id": "m4", "edges": [0]}, {"id": "m5", "edges": [0]}]}`,
			[]string{`message "m5"`, "sum to more than 4611686018427387904"}},
		{"negative edge index", `{` + net3 + `, "messages": [{"id": "m3", "edges": [-1]}]}`,
			[]string{`message "m3"`, "edge index -1"}},
		{"not a walk", `{` + net3 + `, "messages": [{"id": "m4", "edges": [0, 3]}]}`,
			[]string{`message "m4"`, "not a walk", "edge 3 (c->a)", "edge 0 (a->b)"}},
		{"edge used twice", `{` + net3 + `, "messages": [{"id": "m5", "edges": [0, 1, 3, 0]}]}`,
			[]string{`message "m5"`, "edge 0 (a->b) twice"}},
		{"empty path", `{` + net3 + `, "messages": [{"id": "m6", "path": []}]}`,
			[]string{`message "m6"`, "empty path"}},
		{"empty edges", `{` + net3 + `, "messages": [{"id": "m6", "edges": []}]}`,
			[]string{`message "m6"`, "empty path"}},
		{"path of one node", `{` + net3 + `, "messages": [{"id": "m6", "path": ["a"]}]}`,
			[]string{`message "m6"`, "at least two nodes"}},
		{"no path", `{` + net3 + `, "messages": [{"id": "m6"}]}`,
			[]string{`message "m6"`, "no path"}},
		{"path and edges", `{` + net3 + `, "messages": [{"id": "m6", "path": ["a","b"], "edges": [0]}]}`,
			[]string{`message "m6"`, "not both"}},
		{"length below 1", `{` + net3 + `, "messages": [{"id": "m7", "edges": [0], "flits": 0}]}`,
			[]string{`message "m7"`, "flits 0 is below 1"}},
		{"negative length", `{` + net3 + `, "messages": [{"id": "m7", "edges": [0], "flits": -3}]}`,
			[]string{`message "m7"`, "flits -3 is below 1"}},
		{"default length below 1", `{` + net3 + `, "flits": 0, "messages": []}`,
			[]string{`field "flits"`, "below 1"}},
		{"length not an integer", `{` + net3 + `, "messages": [{"id": "m7", "edges": [0], "flits": 1.5}]}`,
			[]string{`message "m7"`, `field "flits"`}},
		{"duplicate ids", `{` + net3 + `, "messages": [{"id": "m8", "edges": [0]}, {"id": "m8", "edges": [1]}]}`,
			[]string{`message "m8"`, "duplicate id"}},
		{"empty id", `{` + net3 + `, "messages": [{"id": "", "edges": [0]}]}`,
			[]string{"message #0", "empty id"}},
		{"missing id", `{` + net3 + `, "messages": [{"edges": [0]}]}`,
			[]string{"message #0", `missing field "id"`}},
		{"duplicate node", `{"network": {"nodes": ["a", "a"], "edges": []}, "messages": []}`,
			[]string{`duplicate node "a"`}},
		{"edge of three names", `{"network": {"edges": [["a","b","c"]]}, "messages": []}`,
			[]string{"edge 0", "want [from, to]"}},
		{"edges of wrong type", `{"network": {"edges": "ab"}, "messages": []}`,
			[]string{`field "edges"`, "want a list"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := model.ParseInstance([]byte(c.json))
			require.Error(t, err)
			assert.Nil(t, in)
			msg := err.Error()
			assert.NotContains(t, msg, "\n", "one line")
			for _, w := range c.want {
				assert.Contains(t, msg, w)
			}
			// ReadInstance says the same.
			_, err2 := model.ReadInstance(strings.NewReader(c.json))
			require.Error(t, err2)
			assert.Equal(t, msg, err2.Error())
		})
	}
}

// Validate rejects the same faults in instances built in code (where no parser ran).
func TestValidateErrors(t *testing.T) {
	net := &model.Network{}
	a, b, c := net.AddNode("a"), net.AddNode("b"), net.AddNode("c")
	ab := net.AddEdge(a, b)
	bc := net.AddEdge(b, c)
	ca := net.AddEdge(c, a)
	cases := []struct {
		name string
		msgs []model.Message
		want string
	}{
		{"empty path", []model.Message{{ID: "x", L: 1}}, `message "x": empty path`},
		{"length below 1", []model.Message{{ID: "x", Path: []int{ab}}}, `message "x": flits 0 is below 1`},
		{"out of range", []model.Message{{ID: "x", Path: []int{7}, L: 1}}, `message "x": edge index 7 out of range`},
		{"not a walk", []model.Message{{ID: "x", Path: []int{bc, ab}, L: 1}}, `message "x": not a walk`},
		{"twice", []model.Message{{ID: "x", Path: []int{ab, bc, ca, ab}, L: 1}}, `message "x": path uses edge 0 (a->b) twice`},
		{"duplicate", []model.Message{{ID: "x", Path: []int{ab}, L: 1}, {ID: "x", Path: []int{bc}, L: 1}}, `message "x": duplicate id`},
		{"empty id", []model.Message{{Path: []int{ab}, L: 1}}, `message #0: empty id`},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			in := &model.Instance{Net: net, Flits: 1, Messages: cs.msgs}
			err := in.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), cs.want)
		})
	}
	bad := &model.Instance{Net: &model.Network{Nodes: []string{"a"}, Edges: []model.Edge{{0, 3}}}, Flits: 1}
	require.ErrorContains(t, bad.Validate(), "edge 0: node index out of range")
	require.ErrorContains(t, (&model.Instance{}).Validate(), "no network")
}

// Schedule parsing checks the format: model, makespan, messages, ids and cross
// lists must be present and typed; the error names the field and the message.
func TestParseScheduleErrors(t *testing.T) {
	cases := []struct{ name, json, want string }{
		{"invalid JSON", `{"model": "wormhole",`, "invalid JSON"},
		{"no model", `{"makespan": 1, "messages": []}`, `missing field "model"`},
		{"unknown model", `{"model": "cut-through", "makespan": 1, "messages": []}`, `"cut-through" is neither`},
		{"no messages", `{"model": "wormhole", "makespan": 3}`, `missing field "messages"`},
		{"no id", `{"model": "wormhole", "makespan": 3, "messages": [{"cross": [1]}]}`, `message #0: missing field "id"`},
		{"no cross", `{"model": "wormhole", "makespan": 3, "messages": [{"id": "m0"}]}`, `message "m0": missing field "cross"`},
		{"cross not integers", `{"model": "wormhole", "makespan": 3, "messages": [{"id": "m0", "cross": ["1"]}]}`, `message "m0": field "cross"`},
		{"start not an integer", `{"model": "bufferless", "makespan": 3, "messages": [{"id": "m0", "cross": [1], "start": "0"}]}`, `message "m0": field "start"`},
		{"optimal not a bool", `{"model": "wormhole", "makespan": 3, "optimal": 1, "messages": []}`, `field "optimal"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := model.ParseSchedule([]byte(c.json))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "\n")
		})
	}
}
