package model_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
)

func instanceSeeds(f *testing.F) {
	if data, err := os.ReadFile("../instances/example.json"); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		`{"network": {"edges": [["a","b"],["b","c"]]}, "messages": [{"id": "m", "path": ["a","b","c"]}]}`,
		`{"network": {"nodes": ["a","b"], "edges": [["a","b"],["a","b"]]}, "flits": 3, "messages": [{"id": "m", "edges": [1], "flits": 2, "x": [1]}], "topology": {"kind": "line"}}`,
		`{"network": {"edges": [["a","a"]], "levels": [0]}, "messages": [{"id": "m", "path": ["a","a"]}]}`,
		`{"network": {"nodes": ["a","b"], "edges": [["a","b"]]}, "messages": [{"id": "m", "path": ["a","c"]}]}`,
		`{"network": null, "messages": null}`,
		`{"name": "\u00e9", "network": {}, "messages": []}`,
	} {
		f.Add([]byte(s))
	}
	in, err := instances.Generate(instances.Spec{Kind: "fat-tree", Size: 16, Traffic: "complement"})
	require.NoError(f, err)
	var b bytes.Buffer
	require.NoError(f, model.WriteInstance(&b, in))
	f.Add(b.Bytes())
}

// Parsing arbitrary bytes never panics; whatever parses is a valid instance (MODEL.md)
// that round-trips: written and read back, it is the same instance, path form and
// extra fields included, and writing it again gives the same bytes.
func FuzzParseInstance(f *testing.F) {
	instanceSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := model.ParseInstance(data)
		if err != nil {
			require.Nil(t, in)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		require.NoError(t, in.Validate())
		var b1 bytes.Buffer
		require.NoError(t, model.WriteInstance(&b1, in))
		back, err := model.ParseInstance(b1.Bytes())
		require.NoError(t, err, "%s", b1.String())
		requireSameInstance(t, in, back, true)
		var b2 bytes.Buffer
		require.NoError(t, model.WriteInstance(&b2, back))
		require.Equal(t, b1.String(), b2.String())
		// The measures are defined on every valid instance.
		in.Measure()
		in.LowerBounds()
		in.Dependencies().Cycle()
	})
}

// Parsing arbitrary bytes as a schedule never panics; a parsed schedule written and
// read back is the same schedule.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{
		`{"model": "wormhole", "makespan": 8, "messages": [{"id": "m0", "cross": [1, 2]}, {"id": "m1", "cross": [4]}, {"id": "m2", "start": 5, "cross": [6, 7]}]}`,
		`{"model": "bufferless", "makespan": 2, "lower_bound": 2, "optimal": true, "messages": [{"id": "a", "start": 0, "cross": [1], "note": "x"}], "solver": {"v": 1}}`,
		`{"model": "wormhole", "makespan": 0, "messages": []}`,
		`{"model": "wormhole", "makespan": 1, "messages": [{"id": "m", "cross": null, "start": null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := model.ParseSchedule(data)
		if err != nil {
			require.Nil(t, s)
			require.NotContains(t, err.Error(), "\n")
			return
		}
		var b1 bytes.Buffer
		require.NoError(t, model.WriteSchedule(&b1, s))
		back, err := model.ParseSchedule(b1.Bytes())
		require.NoError(t, err, "%s", b1.String())
		requireSameSchedule(t, s, back)
		var b2 bytes.Buffer
		require.NoError(t, model.WriteSchedule(&b2, back))
		require.Equal(t, b1.String(), b2.String())
	})
}
