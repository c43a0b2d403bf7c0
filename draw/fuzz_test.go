package draw_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"

	"github.com/wormlab/wormlab/draw"
	"github.com/wormlab/wormlab/model"
)

// FuzzSVG draws any instance and schedule that parse, times up to verify.MaxTime
// included: no panic, no hang, and the output is well-formed XML.
func FuzzSVG(f *testing.F) {
	f.Add([]byte(exampleInstance), []byte(exampleSchedule))
	f.Add([]byte(exampleInstance), []byte(`{"model":"bufferless","makespan":3,"messages":[{"id":"m0","cross":[1,2]},{"id":"m1","cross":[1]},{"id":"m0","cross":[0]}]}`))
	f.Add([]byte(`{"network":{"edges":[["<a&","b\""],["<a&","b\""]]},"messages":[{"id":"]]>","edges":[1]},{"id":"y","edges":[0]}]}`),
		[]byte(`{"model":"wormhole","makespan":1,"messages":[{"id":"]]>","cross":[1]},{"id":"y","cross":[1]}]}`))
	f.Add([]byte(exampleInstance), []byte(`{"model":"wormhole","makespan":9223372036854775807,"messages":[{"id":"m0","cross":[1,4611686018427387903]},{"id":"m1","cross":[-9223372036854775808]}]}`))
	f.Fuzz(func(t *testing.T, inst, sched []byte) {
		in, err := model.ParseInstance(inst)
		if err != nil {
			return
		}
		s, err := model.ParseSchedule(sched)
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := draw.SVG(&b, in, s, draw.Options{}); err != nil {
			t.Fatalf("valid instance, yet: %v", err)
		}
		dec := xml.NewDecoder(&b)
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("not well-formed XML: %v", err)
			}
		}
	})
}
