package engine_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/wormlab/wormlab/engine"
	"github.com/wormlab/wormlab/model"
)

// A driver releases worms and runs the clock; a cyclic wait is reported as a
// deadlock naming its worms and edges.
func ExampleEngine() {
	in, err := model.ParseInstance([]byte(`{
	  "network": {"edges": [["a","b"],["b","c"],["c","a"]]},
	  "flits": 2,
	  "messages": [
	    {"id": "u", "path": ["a","b","c"]},
	    {"id": "v", "path": ["b","c","a"]},
	    {"id": "w", "path": ["c","a","b"]}
	  ]}`))
	if err != nil {
		panic(err)
	}
	e, err := engine.New(in, engine.Config{Arb: engine.ArbRoundRobin})
	if err != nil {
		panic(err)
	}
	for i := range in.Messages {
		_ = e.Release(i, 0)
	}
	var d *engine.Deadlock
	if err := e.Run(context.Background(), -1); errors.As(err, &d) {
		fmt.Println(d)
	}
	// Output:
	// deadlock from time 1 (3 worms stuck): "u" waits for edge b->c held by "v"; "v" waits for edge c->a held by "w"; "w" waits for edge a->b held by "u"
}
