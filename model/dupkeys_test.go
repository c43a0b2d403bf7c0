package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// A key given twice in one object is refused, naming the key and the object: the
// general decoder (encoding/json) keeps the last value, so "flits": 1, ...,
// "flits": 5 was read as 5 where a reader keeping the first reads 1, and a
// certificate's instance could mean two instances. The fast readers decline such
// objects and leave them to the general one, which refuses them; a key spelt
// with an escape ("fl\u0069ts") is the same key.
func TestDuplicateKeysRefused(t *testing.T) {
	const netAB = `"network": {"nodes": ["a", "b"], "edges": [["a", "b"]]}`
	instances := []struct{ name, json, want string }{
		{"top flits", `{` + netAB + `, "flits": 1, "messages": [{"id": "m", "path": ["a", "b"]}], "flits": 5}`,
			`instance: key "flits" appears twice`},
		{"escaped key", `{` + netAB + `, "flits": 1, "messages": [{"id": "m", "path": ["a", "b"]}], "fl\u0069ts": 5}`,
			`instance: key "flits" appears twice`},
		{"extra field", `{"level": 1, ` + netAB + `, "messages": [], "level": 2}`,
			`instance: key "level" appears twice`},
		{"network edges", `{"network": {"nodes": ["a", "b"], "edges": [["a", "b"]], "edges": [["b", "a"]]}, "messages": []}`,
			`instance: network: key "edges" appears twice`},
		{"message flits", `{` + netAB + `, "messages": [{"id": "m", "path": ["a", "b"], "flits": 1, "flits": 9}]}`,
			`instance: message #0: key "flits" appears twice`},
		{"message id", `{` + netAB + `, "messages": [{"id": "m", "id": "n", "path": ["a", "b"]}]}`,
			`instance: message #0: key "id" appears twice`},
	}
	for _, c := range instances {
		t.Run(c.name, func(t *testing.T) {
			_, err := model.ParseInstance([]byte(c.json))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
	schedules := []struct{ name, json, want string }{
		{"makespan", `{"model": "wormhole", "makespan": 2, "messages": [{"id": "m", "cross": [1]}], "makespan": 9}`,
			`schedule: key "makespan" appears twice`},
		{"message start", `{"model": "wormhole", "makespan": 2, "messages": [{"id": "m", "cross": [1], "start": 0, "start": 3}]}`,
			`schedule: message #0: key "start" appears twice`},
		{"message cross", `{"model": "wormhole", "makespan": 2, "messages": [{"id": "m", "cross": [1], "cross": [2]}]}`,
			`schedule: message #0: key "cross" appears twice`},
	}
	for _, c := range schedules {
		t.Run(c.name, func(t *testing.T) {
			_, err := model.ParseSchedule([]byte(c.json))
			require.Error(t, err)
			assert.Equal(t, c.want, err.Error())
		})
	}
}

// The same key in two different objects, a colon inside a string, and escaped
// quotes in keys are not repeated keys: such documents are read as before.
func TestDistinctKeysAccepted(t *testing.T) {
	in, err := model.ParseInstance([]byte(`{"a:b": {"x": 1}, "c": {"x": [2, {"x": 3}]}, "q\"": 1, "q\\": 2, ` +
		`"network": {"nodes": ["a", "b"], "edges": [["a", "b"]], "x": ":"}, "flits": 2, ` +
		`"messages": [{"id": "m", "path": ["a", "b"], "x": 1}, {"id": "n", "edges": [0], "x": 2}]}`))
	require.NoError(t, err)
	assert.Equal(t, 2, in.Flits)
	assert.Len(t, in.Messages, 2)
	s, err := model.ParseSchedule([]byte(`{"model": "wormhole", "makespan": 3, "x": {"makespan": 1}, ` +
		`"messages": [{"id": "m", "cross": [1], "x": {"cross": 0}}]}`))
	require.NoError(t, err)
	assert.Equal(t, 3, s.Makespan)
}
