package sim

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/topology"
)

// EngineBytes counts each per-router array of the engine once: what it adds for
// one more router, its streams aside, is the bytes an element of the engine's
// arrays of one entry a router (or one more: inBase, outBase, firstQ) take
// together, found by reflection over the engine's fields and its VC sets' (the
// partitions' arrays are not looked at). On a concentrated mesh of 35 routers,
// 105 terminals and more ports, no other count is 35 or 36. It counted srcOut,
// an array per terminal, per router too (4 bytes a router more).
func TestEngineBytesPerRouter(t *testing.T) {
	net, err := topology.Parse("cmesh:5x7,c=3")
	require.NoError(t, err)
	cfg := Config{Net: net, Routing: noRouting{}, VCs: 2, Buf: 4, Pipeline: BookSim(net), Threads: 1, Seed: 1}
	e, err := newEngine(&cfg)
	require.NoError(t, err)
	n := net.Nodes()
	var arrays, streams int64
	var names []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		for i := range v.NumField() {
			f, name := v.Field(i), path+v.Type().Field(i).Name
			switch {
			case f.Kind() == reflect.Struct:
				walk(f, name+".")
			case f.Kind() == reflect.Slice && (f.Len() == n || f.Len() == n+1):
				names = append(names, name)
				if el := f.Type().Elem(); el.Kind() == reflect.Pointer {
					streams++ // a *rand.Rand: EngineBytes counts its objects too
				} else {
					arrays += int64(el.Size())
				}
			}
		}
	}
	walk(reflect.ValueOf(e).Elem(), "")
	t.Logf("per router: %v", names)
	require.Equal(t, int64(2), streams, "the routers' streams: rSelect, rArb")
	c := countsOf(&cfg)
	one := c
	one.routers++
	perRouter := engineBytes(one, cfg.VCs, cfg.Buf) - engineBytes(c, cfg.VCs, cfg.Buf)
	require.Equal(t, arrays, perRouter-streams*streamBytes, "EngineBytes' bytes a router, streams aside, against the engine's arrays a router")
}
