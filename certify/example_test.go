package certify_test

import (
	"context"
	"fmt"
	"os"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline/optimal"
)

// Three worms on a line a -> b -> c (the instance of MODEL.md): the optimum 7 is
// the edge bound of b -> c, whose users carry 2 + 3 + 2 = 7 flits, so the
// certificate is that arithmetic and needs no CNF. Check recomputes it from the
// instance and verifies the schedule.
func Example() {
	in, _ := model.ParseInstance([]byte(`{"name": "example",
		"network": {"nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]},
		"flits": 2,
		"messages": [{"id": "m0", "path": ["a", "b", "c"]}, {"id": "m1", "path": ["b", "c"], "flits": 3},
			{"id": "m2", "edges": [0, 1]}]}`))
	res, _ := optimal.Solve(context.Background(), in, optimal.Options{Model: model.Wormhole})
	dir, _ := os.MkdirTemp("", "cert")
	defer os.RemoveAll(dir)
	if err := certify.Write(dir, in, res); err != nil {
		fmt.Println(err)
		return
	}
	r, _ := certify.Check(dir)
	for _, line := range r.Checked[1:] {
		fmt.Println(line)
	}
	fmt.Println(r.Verified)
	// Output:
	// schedule: legal (wormhole), makespan 7
	// bound edge on edge 1 (b->c), messages m0, m1, m2: min hop 1 + sum L 7 + min hops after 0 - 1 = 7 = makespan
	// true
}
