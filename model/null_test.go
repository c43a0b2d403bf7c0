package model_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
)

// A JSON null is not a value of any field of MODEL.md's formats. Read as the
// field's zero value it changed meaning silently: "optimal": null became a claim
// "optimal": false, "lower_bound": null a bound of 0, "start": null a start of 0
// (a message that never waits and starts at once), "flits": null the default
// length. Each is bad input naming the field.
func TestNullFieldsRejected(t *testing.T) {
	const net = `"network": {"edges": [["a","b"]]}`
	instances := map[string]string{
		"flits":    `{` + net + `, "flits": null, "messages": []}`,
		"name":     `{` + net + `, "name": null, "messages": []}`,
		"messages": `{` + net + `, "messages": null}`,
		"id":       `{` + net + `, "messages": [{"id": null, "edges": [0]}]}`,
		"path":     `{` + net + `, "messages": [{"id": "m", "path": null}]}`,
		"edges":    `{` + net + `, "messages": [{"id": "m", "edges": null}]}`,
	}
	for field, js := range instances {
		_, err := model.ParseInstance([]byte(js))
		if assert.Error(t, err, "instance field %q: null", field) {
			assert.Contains(t, err.Error(), `field "`+field+`"`)
			assert.Contains(t, err.Error(), "null")
		}
	}
	// A message "flits": null must not silently take the default.
	_, err := model.ParseInstance([]byte(`{` + net + `, "flits": 2, "messages": [{"id": "m", "edges": [0], "flits": null}]}`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `message "m": field "flits"`)

	const head = `{"model": "wormhole", "makespan": 2, `
	schedules := map[string]string{
		"start":       head + `"messages": [{"id": "m", "cross": [1], "start": null}]}`,
		"lower_bound": head + `"lower_bound": null, "messages": []}`,
		"optimal":     head + `"optimal": null, "messages": []}`,
		"cross":       head + `"messages": [{"id": "m", "cross": null}]}`,
		"id":          head + `"messages": [{"id": null, "cross": [1]}]}`,
		"makespan":    `{"model": "wormhole", "makespan": null, "messages": []}`,
	}
	for field, js := range schedules {
		_, err := model.ParseSchedule([]byte(js))
		if assert.Error(t, err, "schedule field %q: null", field) {
			assert.Contains(t, err.Error(), `field "`+field+`"`)
			assert.Contains(t, err.Error(), "null")
		}
	}
}
